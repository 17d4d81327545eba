import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { expectWorkspaceKeyRequired } from "@/lib/testing/app-access";
import { bearer, call } from "@/lib/testing/router";
import { addAppProvider, createWorkflow, makeWorkflowsApp, workflowBody } from "@/lib/testing/workflows";
import type { TWorkflowNode } from "@/lib/workflows/json";
import { validateWorkflow } from "@/lib/workflows/validate";

const countWorkflows = (appId: string) =>
  countRows(kysely().selectFrom("workflows").where("appId", "=", appId));
const countAudits = (action: string, workspaceId: string) =>
  countRows(
    kysely().selectFrom("auditEvents").where("action", "=", action).where("workspaceId", "=", workspaceId),
  );
const workflowRow = (id: string) =>
  kysely().selectFrom("workflows").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const appRow = (id: string) =>
  kysely().selectFrom("apps").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
/** An audit event of `action` on `targetId` (in `workspaceId` when given). */
function findAudit(action: string, targetId: string, workspaceId?: string) {
  let query = kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("action", "=", action)
    .where("targetId", "=", targetId);
  if (workspaceId !== undefined) query = query.where("workspaceId", "=", workspaceId);
  return query.executeTakeFirst();
}

function detailPaths(res: { body: { error: { details?: { path: string }[] } } }) {
  return (res.body.error.details ?? []).map((d) => d.path);
}

describe("GET /v1/apps/{client_id}/workflows/node-types", () => {
  it("returns the catalog with fields for every node type", async () => {
    const { base, headers } = await makeWorkflowsApp();
    const res = await call("GET", `${base}/workflows/node-types`, { headers });
    expect(res.status).toBe(200);
    const types = res.body as { type: string; label: string; description: string; fields: object[] }[];
    expect(types.map((t) => t.type)).toEqual([
      "request",
      "verification",
      "check-claim",
      "check-min-loa",
      "evaluate",
      "if",
      "response",
    ]);
    for (const t of types) {
      expect(t.label).not.toBe("");
      expect(t.description).not.toBe("");
    }
    const verification = types.find((t) => t.type === "verification")!;
    expect(verification.fields).toContainEqual(
      expect.objectContaining({ name: "channel", type: "enum", required: true, enumValues: ["oidc", "api"] }),
    );
    expect(verification.fields).toContainEqual(
      expect.objectContaining({
        name: "mode",
        type: "enum",
        required: false,
        enumValues: ["pii", "age_verification"],
      }),
    );
    const claimChecks = types.find((t) => t.type === "check-claim")!.fields[0];
    expect(claimChecks).toMatchObject({ name: "claimChecks", type: "object[]", required: true });
    expect(types.find((t) => t.type === "check-min-loa")!.fields[0]).toMatchObject({
      name: "minLoa",
      required: true,
      minimum: 1,
      maximum: 3,
    });
    expect(types.find((t) => t.type === "if")).toMatchObject({ outputs: ["then", "else"] });
    expect(types.find((t) => t.type === "response")).toMatchObject({ outputs: [], fields: [] });
  });

  it("refuses missing and wrong credentials, other workspaces and other environments", async () => {
    const { app, base } = await makeWorkflowsApp();
    const other = await makeWorkspace();
    const url = `${base}/workflows/node-types`;
    await expectWorkspaceKeyRequired({ method: "GET", path: url, app, other });
    const unknown = await call("GET", "/api/sandbox/v1/apps/app_nope/workflows/node-types", {
      headers: bearer(other.keys.sandbox),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("RESOURCE_NOT_FOUND");
  });
});

describe("GET /v1/apps/{client_id}/workflows", () => {
  it("lists the starter workflow of a new app, which passes validation", async () => {
    const { app, base, headers } = await makeWorkflowsApp();
    const res = await call("GET", `${base}/workflows`, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const starter = res.body[0];
    expect(starter.workflowId).toBe(app.defaultWorkflowId);
    const providers = await kysely()
      .selectFrom("appProviders")
      .selectAll()
      .where("appId", "=", app.clientId)
      .execute();
    expect(
      validateWorkflow(
        { entryNodeId: starter.entryNodeId, nodes: starter.nodes as TWorkflowNode[] },
        { appProviderIds: providers.map((p) => p.providerId) },
      ),
    ).toEqual([]);
  });

  it("lists custom workflows beside the default, oldest first, without changing the default", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const custom = await createWorkflow(key, app.clientId);
    const res = await call("GET", `${base}/workflows`, { headers });
    expect(res.body.map((w: { workflowId: string }) => w.workflowId)).toEqual([
      app.defaultWorkflowId,
      custom.workflowId,
    ]);
    const appNow = await call("GET", base, { headers });
    expect(appNow.body.defaultWorkflowId).toBe(app.defaultWorkflowId);
    expect(appNow.body.workflows).toHaveLength(2);
  });

  it("is 403 for another workspace, 404 for unknown apps and across environments", async () => {
    const { ws, app, base } = await makeWorkflowsApp();
    const other = await makeWorkspace();
    expect((await call("GET", `${base}/workflows`, { headers: bearer(other.keys.sandbox) })).status).toBe(
      403,
    );
    const cross = await call("GET", `/api/production/v1/apps/${app.clientId}/workflows`, {
      headers: bearer(ws.keys.production),
    });
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect((await call("GET", `${base}/workflows`)).status).toBe(401);
  });
});

describe("POST /v1/apps/{client_id}/workflows", () => {
  it("creates a workflow, defaulting useAppBranding to true, and audits it", async () => {
    const { ws, app, base, headers } = await makeWorkflowsApp();
    const body = workflowBody({ name: "  Age check  " });
    const res = await call("POST", `${base}/workflows`, { headers, body });
    expect(res.status).toBe(201);
    const wf = res.body;
    expect(wf.workflowId).toMatch(/^wf_[0-9A-Z]{26}$/);
    expect(wf.name).toBe("Age check");
    expect(wf.entryNodeId).toBe("start");
    expect(res.headers.get("location")).toBe(`${base}/workflows/${wf.workflowId}`);
    expect(wf.nodes.map((n: TWorkflowNode) => n.id)).toEqual(["start", "verify", "loa", "end"]);
    expect(wf.nodes[1].config).toEqual({
      channel: "api",
      claims: ["given_name", "family_name", "email"],
      branding: { useAppBranding: true },
    });
    expect(wf.nodes[3]).toEqual({ id: "end", type: "response" });
    expect(Date.parse(wf.createdAt)).not.toBeNaN();

    const row = await workflowRow(wf.workflowId);
    expect(row.appId).toBe(app.clientId);
    const audit = await findAudit("workflow.created", wf.workflowId);
    expect(audit?.workspaceId).toBe(ws.workspaceId);
    const got = await call("GET", `${base}/workflows/${wf.workflowId}`, { headers });
    expect(got.body).toEqual(wf);
  });

  it("keeps an explicit useAppBranding: false and the node's own branding; drops null links", async () => {
    const { base, headers } = await makeWorkflowsApp();
    const body = workflowBody();
    body.nodes[1]!.config = {
      channel: "oidc",
      claims: ["birthdate"],
      mode: "age_verification",
      minimumAge: 18,
      branding: { name: "Bottle shop", useAppBranding: false },
      providers: { passport: { enabled: true } },
    };
    body.nodes[3]!.next = null;
    const res = await call("POST", `${base}/workflows`, { headers, body });
    expect(res.status).toBe(201);
    expect(res.body.nodes[1].config.branding).toEqual({ name: "Bottle shop", useAppBranding: false });
    expect(res.body.nodes[3]).toEqual({ id: "end", type: "response" });
  });

  it("accepts provider overrides for providers the app has", async () => {
    const { app, base, headers } = await makeWorkflowsApp();
    const body = workflowBody();
    body.nodes[1]!.config = {
      channel: "oidc",
      claims: ["email"],
      providers: { "acme-id": { enabled: false } },
    };
    const refused = await call("POST", `${base}/workflows`, { headers, body });
    expect(refused.status).toBe(400);
    expect(detailPaths(refused)).toEqual(["nodes[1].config.providers.acme-id"]);
    await addAppProvider(app.clientId, "acme-id");
    const accepted = await call("POST", `${base}/workflows`, { headers, body });
    expect(accepted.status).toBe(201);
    expect(accepted.body.nodes[1].config.providers).toEqual({ "acme-id": { enabled: false } });
  });

  const cycle = workflowBody();
  cycle.nodes[2] = { id: "loa", type: "check-min-loa", next: "verify", config: { minLoa: 2 } };
  const orphan = workflowBody();
  orphan.nodes.push({ id: "spare", type: "response" });
  const nextOnResponse = workflowBody();
  nextOnResponse.nodes[3]!.next = "start";
  const dangling = workflowBody();
  dangling.nodes[2] = { id: "loa", type: "check-min-loa", next: "finish", config: { minLoa: 2 } };
  const badClaim = workflowBody();
  badClaim.nodes[1]!.config = { channel: "api", claims: ["given_name", "shoe_size"] };
  const badProvider = workflowBody();
  badProvider.nodes[1]!.config = {
    channel: "api",
    claims: ["email"],
    providers: { nope: { enabled: true } },
  };
  const badLoa = workflowBody();
  badLoa.nodes[2] = { id: "loa", type: "check-min-loa", next: "end", config: { minLoa: 5 } };
  const unknownType = workflowBody();
  unknownType.nodes[2] = { id: "loa", type: "check-loa", next: "end", config: { minLoa: 2 } };
  const missingChannel = workflowBody();
  missingChannel.nodes[1]!.config = { claims: ["email"] };
  const unknownConfig = workflowBody();
  unknownConfig.nodes[2] = { id: "loa", type: "check-min-loa", next: "end", config: { minLoa: 2, max: 3 } };
  const duplicate = workflowBody();
  duplicate.nodes[2] = { id: "verify", type: "check-min-loa", next: "end", config: { minLoa: 2 } };

  it.each([
    ["a cycle", cycle, "nodes[2].next", 'node "loa": "verify" closes a cycle'],
    ["an orphan node", orphan, "nodes[4]", 'node "spare": is not reachable'],
    ["next on a response", nextOnResponse, "nodes[3].next", 'node "end": a response node ends the workflow'],
    ["a dangling link", dangling, "nodes[2].next", 'node "loa": "finish" is not a node of this workflow'],
    [
      "an unknown claim",
      badClaim,
      "nodes[1].config.claims[1]",
      'node "verify": "shoe_size" is not a known claim',
    ],
    [
      "a provider the app lacks",
      badProvider,
      "nodes[1].config.providers.nope",
      'node "verify": "nope" is not a provider of this app',
    ],
    ["minLoa out of range", badLoa, "nodes[2].config.minLoa", 'node "loa": must be 1, 2 or 3'],
    ["an unknown type", unknownType, "nodes[2].type", 'node "loa": unknown type "check-loa"'],
    ["a missing required field", missingChannel, "nodes[1].config.channel", 'node "verify": is required'],
    ["an unknown config field", unknownConfig, "nodes[2].config.max", 'node "loa": unknown field'],
    ["a duplicate id", duplicate, "nodes[2].id", 'node "verify": duplicates the id of nodes[1]'],
    [
      "an entry that is not the request",
      workflowBody({ entryNodeId: "verify" }),
      "entryNodeId",
      "must name the request node",
    ],
    ["an empty name", workflowBody({ name: " " }), "name", "must not be empty"],
    ["a long name", workflowBody({ name: "x".repeat(101) }), "name", "at most 100"],
    ["no nodes", workflowBody({ nodes: undefined }), "nodes", "Required"],
    ["nodes not an array", workflowBody({ nodes: "start" }), "nodes", "must be an array of nodes"],
    ["a node without id", workflowBody({ nodes: [{ type: "request" }] }), "nodes[0].id", "Required"],
    [
      "an unknown node field",
      workflowBody({ nodes: [{ id: "a", type: "request", label: "x" }] }),
      "nodes[0].label",
      "Unknown field",
    ],
    [
      "config that is not an object",
      workflowBody({ nodes: [{ id: "a", type: "request", config: [] }] }),
      "nodes[0].config",
      "must be an object",
    ],
    ["an unknown body field", workflowBody({ default: true }), "default", "Unknown field"],
    [
      "201 nodes",
      workflowBody({ nodes: Array.from({ length: 201 }, (_, i) => ({ id: `n${i}`, type: "response" })) }),
      "nodes",
      "at most 200 nodes",
    ],
  ])("refuses %s, naming the node and field, and writes nothing", async (_what, body, path, message) => {
    const { ws, app, base, headers } = await makeWorkflowsApp();
    const res = await call("POST", `${base}/workflows`, { headers, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.requestId).toMatch(/^req_/);
    const detail = (res.body.error.details as { path: string; message: string }[]).find(
      (d) => d.path === path,
    );
    expect(detail, JSON.stringify(res.body.error.details)).toBeDefined();
    expect(detail!.message).toContain(message);
    expect(await countWorkflows(app.clientId)).toBe(1);
    expect(await countAudits("workflow.created", ws.workspaceId)).toBe(0);
  });

  it("lists every problem of the workflow at once", async () => {
    const { base, headers } = await makeWorkflowsApp();
    const body = workflowBody();
    body.nodes[1]!.config = { channel: "sms", claims: ["shoe_size"] };
    body.nodes[2] = { id: "loa", type: "check-min-loa", next: "end", config: { minLoa: 0 } };
    const res = await call("POST", `${base}/workflows`, { headers, body });
    expect(res.status).toBe(400);
    expect(detailPaths(res).sort()).toEqual([
      "nodes[1].config.channel",
      "nodes[1].config.claims[0]",
      "nodes[2].config.minLoa",
    ]);
    expect(res.body.error.message).toMatch(/^Invalid workflow: /);
  });

  it("honours Idempotency-Key", async () => {
    const { app, base, key } = await makeWorkflowsApp();
    const headers = { ...bearer(key), "idempotency-key": "wf-create-1" };
    const first = await call("POST", `${base}/workflows`, { headers, body: workflowBody() });
    const again = await call("POST", `${base}/workflows`, { headers, body: workflowBody() });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body.workflowId).toBe(first.body.workflowId);
    const conflict = await call("POST", `${base}/workflows`, {
      headers,
      body: workflowBody({ name: "Other" }),
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("IDEMPOTENCY_KEY_CONFLICT");
    expect(await countWorkflows(app.clientId)).toBe(2);
  });

  it("is 401 without a key, 403 for another workspace, 404 for unknown apps and across environments; nothing written", async () => {
    const { ws, app, base } = await makeWorkflowsApp();
    const other = await makeWorkspace();
    const body = workflowBody();
    expect((await call("POST", `${base}/workflows`, { body })).status).toBe(401);
    const forbidden = await call("POST", `${base}/workflows`, { headers: bearer(other.keys.sandbox), body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("RESOURCE_FORBIDDEN");
    const unknown = await call("POST", "/api/sandbox/v1/apps/app_nope/workflows", {
      headers: bearer(ws.keys.sandbox),
      body,
    });
    expect(unknown.status).toBe(404);
    const cross = await call("POST", `/api/production/v1/apps/${app.clientId}/workflows`, {
      headers: bearer(ws.keys.production),
      body,
    });
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect(await countWorkflows(app.clientId)).toBe(1);
  });
});

describe("GET /v1/apps/{client_id}/workflows/{workflow_id}", () => {
  it("returns the workflow; 404 for unknown ids and for another app's workflow", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const res = await call("GET", `${base}/workflows/${app.defaultWorkflowId}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body.workflowId).toBe(app.defaultWorkflowId);
    expect(res.body.name).toBe("Default workflow");

    const missing = await call("GET", `${base}/workflows/wf_01HZZZZZZZZZZZZZZZZZZZZZZZ`, { headers });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const sibling = await makeApp(key, "sandbox", "Sibling");
    const foreign = await call("GET", `${base}/workflows/${sibling.defaultWorkflowId}`, { headers });
    expect(foreign.status).toBe(404);

    const other = await makeWorkspace();
    const forbidden = await call("GET", `${base}/workflows/${app.defaultWorkflowId}`, {
      headers: bearer(other.keys.sandbox),
    });
    expect(forbidden.status).toBe(403);
    const cross = await call(
      "GET",
      `/api/production/v1/apps/${app.clientId}/workflows/${app.defaultWorkflowId}`,
      {
        headers: bearer(ws.keys.production),
      },
    );
    expect(cross.status).toBe(404);
  });
});

describe("PATCH /v1/apps/{client_id}/workflows/{workflow_id}", () => {
  it("renames without touching the nodes, and audits", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { name: "Renamed" },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Renamed");
    expect(res.body.nodes).toEqual(wf.nodes);
    const audit = await findAudit("workflow.updated", wf.workflowId, ws.workspaceId);
    expect(audit?.data).toMatchObject({ fields: ["name"] });
  });

  it("replaces the nodes (stored as sent) and the entry node", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const nodes = [
      { id: "begin", type: "request", next: "v" },
      { id: "v", type: "verification", next: "route", config: { channel: "oidc", claims: ["birthdate"] } },
      {
        id: "route",
        type: "if",
        then: "ok",
        else: "young",
        config: { condition: { source: "claim", field: "birthdate", op: "age_gte", value: 18 } },
      },
      { id: "ok", type: "response" },
      { id: "young", type: "response" },
    ];
    const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { entryNodeId: "begin", nodes },
    });
    expect(res.status).toBe(200);
    expect(res.body.entryNodeId).toBe("begin");
    expect(res.body.nodes).toEqual(nodes);
    const row = await workflowRow(wf.workflowId);
    expect(row.nodes).toEqual(nodes);
  });

  it("accepts an empty patch and changes nothing", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, { headers, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(wf);
  });

  it.each([
    [{ entryNodeId: "loa" }, "entryNodeId", 'must name the request node; "loa" is a check-min-loa node'],
    [{ entryNodeId: "ghost" }, "entryNodeId", '"ghost" is not a node of this workflow'],
    [
      {
        nodes: [
          { id: "start", type: "request", next: "verify" },
          {
            id: "verify",
            type: "verification",
            next: "end",
            config: { channel: "api", claims: ["email"], providers: { "not-added": { enabled: true } } },
          },
          { id: "end", type: "response" },
        ],
      },
      "nodes[1].config.providers.not-added",
      'node "verify": "not-added" is not a provider of this app',
    ],
    [
      {
        nodes: [
          { id: "start", type: "request", next: "end" },
          { id: "end", type: "response" },
        ],
      },
      "nodes[1]",
      'node "end": can be reached without passing a verification node',
    ],
    [{ name: "" }, "name", "must not be empty"],
    [{ workflowId: "wf_x" }, "workflowId", "Unknown field"],
    [{ nodes: [{ id: "start", type: "request", next: 3 }] }, "nodes[0].next", "must be a string"],
  ])("refuses %j naming the field, and changes nothing", async (body, path, message) => {
    const { app, base, headers, key, ws } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const before = await workflowRow(wf.workflowId);
    const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, { headers, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    const detail = (res.body.error.details as { path: string; message: string }[]).find(
      (d) => d.path === path,
    );
    expect(detail, JSON.stringify(res.body.error.details)).toBeDefined();
    expect(detail!.message).toContain(message);
    const after = await workflowRow(wf.workflowId);
    expect(after).toEqual(before);
    expect(await countAudits("workflow.updated", ws.workspaceId)).toBe(0);
  });

  it("is 404 for unknown or another app's workflows, 403 for another workspace, 404 across environments", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const sibling = await makeApp(key, "sandbox", "Sibling");
    const body = { name: "x" };
    expect((await call("PATCH", `${base}/workflows/wf_nope`, { headers, body })).status).toBe(404);
    expect(
      (await call("PATCH", `${base}/workflows/${sibling.defaultWorkflowId}`, { headers, body })).status,
    ).toBe(404);
    const other = await makeWorkspace();
    const url = `${base}/workflows/${app.defaultWorkflowId}`;
    expect((await call("PATCH", url, { headers: bearer(other.keys.sandbox), body })).status).toBe(403);
    const cross = await call(
      "PATCH",
      `/api/production/v1/apps/${app.clientId}/workflows/${app.defaultWorkflowId}`,
      {
        headers: bearer(ws.keys.production),
        body,
      },
    );
    expect(cross.status).toBe(404);
    const names = (
      await kysely()
        .selectFrom("workflows")
        .select("name")
        .where("appId", "in", [app.clientId, sibling.clientId])
        .execute()
    ).map((w) => w.name);
    expect(names).toEqual(["Default workflow", "Default workflow"]);
  });
});

describe("DELETE /v1/apps/{client_id}/workflows/{workflow_id}", () => {
  it("refuses to delete the default workflow and deletes nothing", async () => {
    const { ws, app, base, headers } = await makeWorkflowsApp();
    const res = await call("DELETE", `${base}/workflows/${app.defaultWorkflowId}`, { headers });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("DEFAULT_WORKFLOW_DELETE");
    expect(res.body.error.message).toContain("default-workflow");
    expect(await countWorkflows(app.clientId)).toBe(1);
    expect(await countAudits("workflow.deleted", ws.workspaceId)).toBe(0);
  });

  it("deletes another workflow, audits it, and then it is gone", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const res = await call("DELETE", `${base}/workflows/${wf.workflowId}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect((await call("GET", `${base}/workflows/${wf.workflowId}`, { headers })).status).toBe(404);
    expect((await call("DELETE", `${base}/workflows/${wf.workflowId}`, { headers })).status).toBe(404);
    expect(await countWorkflows(app.clientId)).toBe(1);
    expect(await countAudits("workflow.deleted", ws.workspaceId)).toBe(1);
  });

  it("deletes the old default once another is the default", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const custom = await createWorkflow(key, app.clientId);
    const set = await call("PUT", `${base}/default-workflow`, {
      headers,
      body: { workflowId: custom.workflowId },
    });
    expect(set.status).toBe(200);
    const del = await call("DELETE", `${base}/workflows/${app.defaultWorkflowId}`, { headers });
    expect(del.status).toBe(200);
    const appNow = await call("GET", base, { headers });
    expect(appNow.body.defaultWorkflowId).toBe(custom.workflowId);
    expect(appNow.body.workflows.map((w: { workflowId: string }) => w.workflowId)).toEqual([
      custom.workflowId,
    ]);
    // and the new default is protected in turn
    const again = await call("DELETE", `${base}/workflows/${custom.workflowId}`, { headers });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("DEFAULT_WORKFLOW_DELETE");
  });

  it("is 404 for another app's workflow, 403 for another workspace, 404 across environments; nothing deleted", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const sibling = await makeApp(key, "sandbox", "Sibling");
    const siblingWf = await createWorkflow(key, sibling.clientId);
    expect((await call("DELETE", `${base}/workflows/${siblingWf.workflowId}`, { headers })).status).toBe(404);
    const other = await makeWorkspace();
    const forbidden = await call("DELETE", `${base}/workflows/${wf.workflowId}`, {
      headers: bearer(other.keys.sandbox),
    });
    expect(forbidden.status).toBe(403);
    const cross = await call("DELETE", `/api/production/v1/apps/${app.clientId}/workflows/${wf.workflowId}`, {
      headers: bearer(ws.keys.production),
    });
    expect(cross.status).toBe(404);
    expect((await call("DELETE", `${base}/workflows/${wf.workflowId}`)).status).toBe(401);
    expect(await countWorkflows(app.clientId)).toBe(2);
    expect(await countWorkflows(sibling.clientId)).toBe(2);
  });

  it("never leaves the app without its default when set-default and delete race", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    for (let round = 0; round < 4; round++) {
      const wf = await createWorkflow(key, app.clientId);
      const [put, del] = await Promise.all([
        call("PUT", `${base}/default-workflow`, { headers, body: { workflowId: wf.workflowId } }),
        call("DELETE", `${base}/workflows/${wf.workflowId}`, { headers }),
      ]);
      // exactly one wins: set first → delete refused; delete first → set finds no workflow
      expect([
        [200, 400],
        [404, 200],
      ]).toContainEqual([put.status, del.status]);
      const row = await appRow(app.clientId);
      expect(row.defaultWorkflowId).not.toBeNull();
      expect(
        await countRows(
          kysely()
            .selectFrom("workflows")
            .where("id", "=", row.defaultWorkflowId ?? ""),
        ),
      ).toBe(1);
    }
  });
});

describe("PUT /v1/apps/{client_id}/default-workflow", () => {
  it("sets the default and returns the app; audited", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const custom = await createWorkflow(key, app.clientId);
    const res = await call("PUT", `${base}/default-workflow`, {
      headers,
      body: { workflowId: custom.workflowId },
    });
    expect(res.status).toBe(200);
    expect(res.body.clientId).toBe(app.clientId);
    expect(res.body.defaultWorkflowId).toBe(custom.workflowId);
    expect(res.body.workflows).toHaveLength(2);
    expect(res.body.clientSecret).toBeUndefined();
    const audit = await findAudit("app.default_workflow_set", app.clientId, ws.workspaceId);
    expect(audit?.data).toEqual({ from: app.defaultWorkflowId, to: custom.workflowId });
    // setting the current default again is a no-op
    const again = await call("PUT", `${base}/default-workflow`, {
      headers,
      body: { workflowId: custom.workflowId },
    });
    expect(again.status).toBe(200);
    expect(again.body.defaultWorkflowId).toBe(custom.workflowId);
    expect(await countAudits("app.default_workflow_set", ws.workspaceId)).toBe(1);
  });

  it.each([
    [{}, "workflowId", 400],
    [{ workflowId: 5 }, "workflowId", 400],
    [{ workflowId: "" }, "workflowId", 400],
    [{ workflowId: "wf_x", force: true }, "force", 400],
    [{ workflowId: "wf_01HZZZZZZZZZZZZZZZZZZZZZZZ" }, "workflowId", 404],
  ])("refuses %j naming the field, and keeps the default", async (body, path, status) => {
    const { app, base, headers } = await makeWorkflowsApp();
    const res = await call("PUT", `${base}/default-workflow`, { headers, body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(status === 404 ? "RESOURCE_NOT_FOUND" : "VALIDATION_ERROR");
    expect(detailPaths(res)).toContain(path);
    const row = await appRow(app.clientId);
    expect(row.defaultWorkflowId).toBe(app.defaultWorkflowId);
  });

  it("refuses another app's workflow, another workspace and other environments", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const sibling = await makeApp(key, "sandbox", "Sibling");
    const foreign = await call("PUT", `${base}/default-workflow`, {
      headers,
      body: { workflowId: sibling.defaultWorkflowId },
    });
    expect(foreign.status).toBe(404);
    const custom = await createWorkflow(key, app.clientId);
    const other = await makeWorkspace();
    const forbidden = await call("PUT", `${base}/default-workflow`, {
      headers: bearer(other.keys.sandbox),
      body: { workflowId: custom.workflowId },
    });
    expect(forbidden.status).toBe(403);
    const cross = await call("PUT", `/api/production/v1/apps/${app.clientId}/default-workflow`, {
      headers: bearer(ws.keys.production),
      body: { workflowId: custom.workflowId },
    });
    expect(cross.status).toBe(404);
    expect(
      (await call("PUT", `${base}/default-workflow`, { body: { workflowId: custom.workflowId } })).status,
    ).toBe(401);
    const row = await appRow(app.clientId);
    expect(row.defaultWorkflowId).toBe(app.defaultWorkflowId);
  });
});
