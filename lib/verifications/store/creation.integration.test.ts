/**
 * lib/verifications/store/creation.ts against PostgreSQL, where no other test looks: a workflow's
 * nodes are read as they are stored, keys of their JSON included (the data layer renames the
 * keys of JSON documents it reads; a provider's id in a node's overrides has underscores).
 */
import { describe, expect, it } from "vitest";
import { makeVerifyingApp } from "../../testing/verifications";
import { createWorkflow, workflowBody } from "../../testing/workflows";

describe("a session's creation", () => {
  it("plans on the workflow's nodes as stored: a provider opted out by its id is refused", async () => {
    const t = await makeVerifyingApp(["passport", "bank_data_match"]);
    const body = workflowBody();
    const nodes = body.nodes.map((node) =>
      node.type === "verification"
        ? { ...node, config: { ...node.config, providers: { bank_data_match: { enabled: false } } } }
        : node,
    );
    const wf = await createWorkflow(t.ws.keys.sandbox, t.app.clientId, { ...body, nodes });

    const refused = await t.start({
      providerId: "bank_data_match",
      workflowId: wf.workflowId,
      matchData: { given_name: "Max", family_name: "Mustermann" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(refused.body.error.message).toContain("opts it out");

    // the others still run on it
    const started = await t.start({ providerId: "passport", workflowId: wf.workflowId });
    expect(started.status).toBe(201);
  });
});
