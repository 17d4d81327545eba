import { describe, expect, it } from "vitest";
import { starterWorkflow } from "./starter";
import type { TWorkflowDraft } from "./validate";
import { base, issues, paths, PNG_1X1 } from "./validate-fixtures";

describe("valid workflows", () => {
  it("accepts the minimal request → verification → response", () => {
    expect(issues(base())).toEqual([]);
  });

  it("accepts the starter workflow for an app with passport", () => {
    expect(issues(starterWorkflow(), { appProviderIds: ["passport"] })).toEqual([]);
  });

  it("refuses the starter workflow for an app without passport (provider keys must be the app's)", () => {
    expect(paths(starterWorkflow(), { appProviderIds: ["acme"] })).toEqual([
      "nodes[1].config.providers.passport",
    ]);
  });

  it("accepts every node type with every field", () => {
    const draft: TWorkflowDraft = {
      entryNodeId: "start",
      nodes: [
        { id: "start", type: "request", next: "route" },
        {
          id: "route",
          type: "if",
          then: "verify-passport",
          else: "verify-other",
          config: { condition: { source: "provider", op: "equals", value: "passport" } },
        },
        {
          id: "verify-passport",
          type: "verification",
          next: "claims",
          config: {
            channel: "api",
            claims: ["birthdate", "nationality", "document_number"],
            mode: "age_verification",
            minimumAge: 18,
            branding: { name: "Shop", logo: PNG_1X1, useAppBranding: false },
            providers: { passport: { enabled: true }, acme: { enabled: false } },
          },
        },
        {
          id: "verify-other",
          type: "verification",
          next: "claims",
          config: { channel: "oidc", claims: ["given_name"], mode: "pii", branding: { logo: "" } },
        },
        {
          id: "claims",
          type: "check-claim",
          next: "loa",
          config: { claimChecks: [{ source: "user", field: "birthdate" }] },
        },
        { id: "loa", type: "check-min-loa", next: "rules", config: { minLoa: 2 } },
        {
          id: "rules",
          type: "evaluate",
          next: "adult",
          config: {
            operator: "any",
            reasonCode: "not_allowed",
            conditions: [
              { source: "claim", field: "nationality", op: "in", value: ["DE", "AT"] },
              { source: "claim", field: "birthdate", op: "age_gte", value: 18 },
              { source: "claim", field: "email", op: "exists" },
              { source: "claim", field: "birthdate", op: "lte", value: "2007-01-01" },
              { source: "loa", op: "gte", value: 2 },
              { source: "loa", op: "not_in", value: [0, 1] },
              { source: "provider", op: "not_equals", value: "passport" },
              { source: "claim", field: "email_verified", op: "equals", value: true },
            ],
          },
        },
        {
          id: "adult",
          type: "if",
          then: "done",
          else: "minor",
          config: { condition: { source: "claim", field: "birthdate", op: "age_lt", value: 21 } },
        },
        { id: "done", type: "response", config: {} },
        { id: "minor", type: "response" },
      ],
    };
    expect(issues(draft)).toEqual([]);
  });
});

describe("size and ids", () => {
  it("refuses more than 200 nodes", () => {
    const nodes = Array.from({ length: 201 }, (_, i) => ({ id: `n${i}`, type: "response" }));
    expect(paths({ entryNodeId: "n0", nodes })).toEqual(["nodes"]);
  });

  it("accepts exactly 200 nodes", () => {
    const { nodes } = base();
    nodes[1]!.next = "c0";
    const checks = Array.from({ length: 197 }, (_, i) => ({
      id: `c${i}`,
      type: "check-min-loa",
      next: i === 196 ? "response" : `c${i + 1}`,
      config: { minLoa: 1 },
    }));
    nodes.splice(2, 0, ...checks);
    expect(nodes).toHaveLength(200);
    expect(issues({ entryNodeId: "request", nodes })).toEqual([]);
  });

  it.each([
    ["", "must not be empty"],
    ["has space", "letters, digits"],
    ["x".repeat(65), "letters, digits"],
  ])("refuses the node id %j", (id, message) => {
    const { nodes } = base();
    nodes[2]!.id = id;
    nodes[1]!.next = id;
    const found = issues({ entryNodeId: "request", nodes });
    expect(found[0]).toMatchObject({ path: "nodes[2].id" });
    expect(found[0]!.message).toContain(message);
    // structural problems stop the graph checks, so the bad id is not also reported as a cycle or orphan
    expect(found.map((i) => i.path)).not.toContain("nodes[2]");
  });

  it("refuses duplicate ids, naming the first holder", () => {
    const { nodes } = base();
    nodes.push({ id: "verify", type: "response" });
    const found = issues({ entryNodeId: "request", nodes });
    expect(found).toEqual([{ path: "nodes[3].id", message: 'node "verify": duplicates the id of nodes[1]' }]);
  });
});

describe("types and the entry point", () => {
  it("refuses an unknown type", () => {
    const { nodes } = base();
    nodes[1]!.type = "verify";
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[1].type"]);
    expect(found[0]!.message).toContain('unknown type "verify"');
    expect(found[0]!.message).toContain("check-min-loa");
  });

  it("refuses a workflow without a request node", () => {
    const { nodes } = base();
    nodes.shift();
    expect(paths({ entryNodeId: "verify", nodes })).toEqual(["nodes", "entryNodeId"]);
  });

  it("refuses a second request node", () => {
    const { nodes } = base();
    nodes.push({ id: "again", type: "request", next: "verify" });
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[3].type"]);
    expect(found[0]!.message).toContain("exactly one request node");
  });

  it("refuses a workflow without a response node", () => {
    const { nodes } = base();
    nodes.pop();
    delete nodes[1]!.next;
    nodes[1]!.next = "request";
    expect(paths({ entryNodeId: "request", nodes })).toContain("nodes");
  });

  it.each([
    ["", "must not be empty"],
    ["nowhere", '"nowhere" is not a node of this workflow'],
    ["verify", 'must name the request node; "verify" is a verification node'],
  ])("refuses entryNodeId %j", (entryNodeId, message) => {
    expect(issues({ entryNodeId, nodes: base().nodes })).toEqual([{ path: "entryNodeId", message }]);
  });
});
