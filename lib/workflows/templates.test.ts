import { describe, expect, it } from "vitest";
import { findProvider } from "../providers/catalog";
import { walkFromEntry } from "./graph";
import { TEMPLATE_IDS } from "./endpoints";
import { WORKFLOW_TEMPLATES, layoutTopToBottom, listWorkflowTemplates } from "./templates";
import { validateWorkflow } from "./validate";

describe("workflow templates", () => {
  it("are the four of the contract, in order", () => {
    expect(WORKFLOW_TEMPLATES.map((t) => t.id)).toEqual([...TEMPLATE_IDS]);
    expect(TEMPLATE_IDS).toEqual(["full_identity", "age_over_18", "high_assurance", "match_known_customer"]);
  });

  it.each(WORKFLOW_TEMPLATES.map((t) => [t.id, t] as const))(
    "%s is valid for an app with its required providers, and only then",
    (_, t) => {
      expect(t.requiredProviders.length).toBeGreaterThan(0);
      for (const id of t.requiredProviders) expect(findProvider(id), id).toBeDefined();
      expect(validateWorkflow(t.workflow, { appProviderIds: t.requiredProviders })).toEqual([]);
      // with other providers only, validation names each required provider
      const issues = validateWorkflow(t.workflow, { appProviderIds: ["nl_digid"] });
      for (const id of t.requiredProviders)
        expect(issues.map((i) => i.path)).toContainEqual(
          expect.stringMatching(new RegExp(`providers\\.${id}$`)),
        );
    },
  );

  it.each(WORKFLOW_TEMPLATES.map((t) => [t.id, t] as const))(
    "%s places every node, top to bottom in walk order",
    (_, t) => {
      const { nodes, positions, entryNodeId } = t.workflow;
      expect(Object.keys(positions).sort()).toEqual(nodes.map((n) => n.id).sort());
      const ys = walkFromEntry(nodes, entryNodeId).map((n) => positions[n.id]!.y);
      expect(ys).toEqual([...ys].sort((a, b) => a - b));
      expect(new Set(ys).size).toBe(ys.length);
    },
  );

  it("age over 18 verifies the age with minimumAge 18; high assurance requires LoA 3", () => {
    const age = WORKFLOW_TEMPLATES.find((t) => t.id === "age_over_18")!;
    expect(age.workflow.nodes.find((n) => n.type === "verification")!.config).toMatchObject({
      mode: "age_verification",
      minimumAge: 18,
    });
    const high = WORKFLOW_TEMPLATES.find((t) => t.id === "high_assurance")!;
    expect(high.workflow.nodes.find((n) => n.type === "check-min-loa")!.config).toEqual({ minLoa: 3 });
  });

  it("match known customer uses a match provider of the catalog", () => {
    const match = WORKFLOW_TEMPLATES.find((t) => t.id === "match_known_customer")!;
    for (const id of match.requiredProviders) expect(findProvider(id)!.verificationModel).toBe("match");
  });

  it("missingProviders lists required providers that are not activated and enabled", () => {
    const list = listWorkflowTemplates([
      { providerId: "passport", status: "activated", enabled: true },
      { providerId: "de_eid", status: "activated", enabled: false },
      { providerId: "bank_data_match", status: "pending", enabled: true },
    ]);
    const missing = Object.fromEntries(list.map((t) => [t.id, t.missingProviders]));
    expect(missing).toEqual({
      full_identity: [],
      age_over_18: [],
      high_assurance: ["de_eid"],
      match_known_customer: ["bank_data_match"],
    });
  });

  it("hands out copies: changing one does not change the catalog", () => {
    const [first] = listWorkflowTemplates([]);
    first!.workflow.nodes.pop();
    expect(listWorkflowTemplates([])[0]!.workflow.nodes.length).toBe(
      WORKFLOW_TEMPLATES[0]!.workflow.nodes.length,
    );
  });

  it("layoutTopToBottom gives one row per node", () => {
    expect(
      layoutTopToBottom([
        { id: "a", type: "request" },
        { id: "b", type: "response" },
      ]),
    ).toEqual({ a: { x: 0, y: 0 }, b: { x: 0, y: 120 } });
  });
});
