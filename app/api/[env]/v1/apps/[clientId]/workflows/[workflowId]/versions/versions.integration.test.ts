/**
 * Workflow versions and the editor's additions to the workflow resource: positions, `version`,
 * ETag / If-Match, the versions list/get/restore, versions written by every change (PATCH,
 * restore, PATCH …/verification, app creation) and the migration's backfill, and the version a
 * verification session records.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { postAuthorization } from "@/lib/testing/oidc-requests";
import { basic, bearer, call } from "@/lib/testing/router";
import { addAppProvider, createWorkflow, makeWorkflowsApp, workflowBody } from "@/lib/testing/workflows";
import { countRows, inTransaction } from "@/lib/db/kysely";
import { sql } from "kysely";

const versionRows = (workflowId: string) =>
  kysely()
    .selectFrom("workflowVersions")
    .selectAll()
    .where("workflowId", "=", workflowId)
    .orderBy("version", "asc")
    .execute();
const workflowRow = (id: string) =>
  kysely().selectFrom("workflows").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
/** The workspace's sandbox API key (the actor of the changes made with it). */
const sandboxKeyRow = (workspaceId: string) =>
  kysely()
    .selectFrom("apiKeys")
    .selectAll()
    .where("workspaceId", "=", workspaceId)
    .where("environment", "=", "sandbox")
    .executeTakeFirstOrThrow();
/** The audit events of `action` on `targetId` in `workspaceId`. */
const auditQuery = (action: string, targetId: string, workspaceId: string) =>
  kysely()
    .selectFrom("auditEvents")
    .where("action", "=", action)
    .where("targetId", "=", targetId)
    .where("workspaceId", "=", workspaceId);

const positions = {
  start: { x: 0, y: 0 },
  verify: { x: 0, y: 120 },
  loa: { x: 0, y: 240 },
  end: { x: 0, y: 360 },
};

const otherNodes = [
  { id: "start", type: "request", next: "verify" },
  {
    id: "verify",
    type: "verification",
    next: "end",
    config: { channel: "oidc", claims: ["birthdate"], mode: "age_verification", minimumAge: 21 },
  },
  { id: "end", type: "response" },
];

describe("positions and version on the workflow resource", () => {
  it('stores positions given at creation and answers version 1 with ETag "1" on POST and GET', async () => {
    const { base, headers } = await makeWorkflowsApp();
    const res = await call("POST", `${base}/workflows`, { headers, body: workflowBody({ positions }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ positions, version: 1 });
    expect(res.headers.get("etag")).toBe('"1"');
    expect(res.headers.get("location")).toBe(`${base}/workflows/${res.body.workflowId}`);
    const got = await call("GET", `${base}/workflows/${res.body.workflowId}`, { headers });
    expect(got.body).toMatchObject({ positions, version: 1 });
    expect(got.headers.get("etag")).toBe('"1"');
  });

  it("answers positions {} when none were given, also for the starter workflow and in the app", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    expect(wf).toMatchObject({ positions: {}, version: 1 });
    const list = await call("GET", `${base}/workflows`, { headers });
    expect(list.body[0]).toMatchObject({ workflowId: app.defaultWorkflowId, positions: {}, version: 1 });
    const appJson = await call("GET", base, { headers });
    expect(appJson.body.workflows[0]).toMatchObject({ positions: {}, version: 1 });
  });

  it("refuses positions of unknown nodes on create and PATCH, naming positions.<id>, and stores nothing", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const create = await call("POST", `${base}/workflows`, {
      headers,
      body: workflowBody({ positions: { ...positions, ghost: { x: 1, y: 2 } } }),
    });
    expect(create.status).toBe(400);
    expect(create.body.error.code).toBe("VALIDATION_ERROR");
    expect(create.body.error.details).toEqual([
      { path: "positions.ghost", message: '"ghost" is not a node of this workflow' },
    ]);
    expect(await countRows(kysely().selectFrom("workflows").where("appId", "=", app.clientId))).toBe(1);

    const wf = await createWorkflow(key, app.clientId);
    const patch = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { positions: { start: { x: 0, y: 0 }, nope: { x: 0, y: 0 } } },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.error.details.map((d: { path: string }) => d.path)).toEqual(["positions.nope"]);
    // positions naming nodes that a PATCH of the nodes removes are refused too
    const both = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { nodes: otherNodes, positions },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.details.map((d: { path: string }) => d.path)).toEqual(["positions.loa"]);
    expect(await versionRows(wf.workflowId)).toHaveLength(1);
  });

  it.each([
    [{ start: { x: "0", y: 0 } }, "positions.start.x", "must be a number"],
    [{ start: { x: 0 } }, "positions.start.y", "Required"],
    [{ start: { x: 0, y: 0, z: 1 } }, "positions.start.z", "Unknown field"],
    [{ start: [0, 0] }, "positions.start", "must be an object {x, y}"],
    [{ start: { x: 1e9, y: 0 } }, "positions.start.x", "must be at most 1000000"],
  ])("refuses malformed positions %j naming %s", async (bad, pathName, message) => {
    const { base, headers } = await makeWorkflowsApp();
    const res = await call("POST", `${base}/workflows`, { headers, body: workflowBody({ positions: bad }) });
    expect(res.status).toBe(400);
    const detail = (res.body.error.details as { path: string; message: string }[]).find(
      (d) => d.path === pathName,
    );
    expect(detail, JSON.stringify(res.body.error.details)).toBeDefined();
    expect(detail!.message).toContain(message);
  });

  it("a positions-only PATCH is a new version; nodes without positions drop the positions of removed nodes", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId, workflowBody({ positions }));
    const moved = { ...positions, verify: { x: 50.5, y: -10 } };
    const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { positions: moved },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ positions: moved, version: 2 });
    expect(res.headers.get("etag")).toBe('"2"');

    const renodes = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { nodes: otherNodes },
    });
    expect(renodes.status).toBe(200);
    expect(renodes.body.version).toBe(3);
    expect(renodes.body.positions).toEqual({ start: moved.start, verify: moved.verify, end: moved.end });
  });

  it("a PATCH that changes nothing saves no version (same name, same nodes, empty body)", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    for (const body of [{}, { name: wf.name }, { nodes: wf.nodes, entryNodeId: wf.entryNodeId }]) {
      const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, { headers, body });
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(1);
      expect(res.headers.get("etag")).toBe('"1"');
    }
    expect(await versionRows(wf.workflowId)).toHaveLength(1);
  });

  it("the engine ignores positions: a session starts on a workflow with them", async () => {
    const { app, base, headers } = await makeWorkflowsApp();
    const patched = await call("PATCH", `${base}/workflows/${app.defaultWorkflowId}`, {
      headers,
      body: {
        positions: { request: { x: 1, y: 1 }, verification: { x: 1, y: 2 }, response: { x: 1, y: 3 } },
      },
    });
    expect(patched.status).toBe(200);
    const started = await call("POST", "/api/sandbox/v1/verifications", {
      headers: basic(app.clientId, app.clientSecret),
      body: { providerId: "passport" },
    });
    expect(started.status).toBe(201);
  });
});

describe("If-Match on PATCH", () => {
  it("applies the change when If-Match is the current version, refuses a stale one with 412", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const url = `${base}/workflows/${wf.workflowId}`;
    const ok = await call("PATCH", url, {
      headers: { ...headers, "if-match": '"1"' },
      body: { name: "Two" },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).toBe('"2"');

    const stale = await call("PATCH", url, {
      headers: { ...headers, "if-match": '"1"' },
      body: { name: "Three" },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe("WORKFLOW_VERSION_CONFLICT");
    expect(stale.body.error.message).toContain("version 2 is the current one");
    expect(stale.body.error.details).toEqual([{ path: "If-Match", message: expect.stringContaining('"2"') }]);
    const row = await workflowRow(wf.workflowId);
    expect(row).toMatchObject({ name: "Two", version: 2 });
    expect(await countRows(auditQuery("workflow.updated", wf.workflowId, ws.workspaceId))).toBe(1);

    // weak tags and garbage never match; * and lists do; no If-Match keeps working
    for (const value of ['W/"2"', "2", "garbage"]) {
      const res = await call("PATCH", url, {
        headers: { ...headers, "if-match": value },
        body: { name: "X" },
      });
      expect(res.status, value).toBe(412);
    }
    expect(
      (await call("PATCH", url, { headers: { ...headers, "if-match": '"7", "2"' }, body: { name: "Four" } }))
        .status,
    ).toBe(200);
    expect(
      (await call("PATCH", url, { headers: { ...headers, "if-match": "*" }, body: { name: "Five" } })).status,
    ).toBe(200);
    const plain = await call("PATCH", url, { headers, body: { name: "Six" } });
    expect(plain.status).toBe(200);
    expect(plain.body.version).toBe(5);
  });

  it("a stale If-Match is refused before the body is judged (no 400 for an invalid change)", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers: { ...headers, "if-match": '"9"' },
      body: { entryNodeId: "ghost" },
    });
    expect(res.status).toBe(412);
  });

  it("of two concurrent edits based on the same version exactly one wins; the other is 412", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const url = `${base}/workflows/${wf.workflowId}`;
    const results = await Promise.all(
      ["Alice's edit", "Bob's edit"].map((name) =>
        call("PATCH", url, { headers: { ...headers, "if-match": '"1"' }, body: { name } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    const winner = results.find((r) => r.status === 200)!;
    const rows = await versionRows(wf.workflowId);
    expect(rows.map((r) => [r.version, r.name])).toEqual([
      [1, "Custom workflow"],
      [2, winner.body.name],
    ]);
  });

  it("concurrent edits without If-Match get consecutive versions, each stored", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const url = `${base}/workflows/${wf.workflowId}`;
    const results = await Promise.all(
      ["A", "B", "C"].map((name) => call("PATCH", url, { headers, body: { name } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.map((r) => r.body.version).sort()).toEqual([2, 3, 4]);
    const rows = await versionRows(wf.workflowId);
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4]);
    const row = await workflowRow(wf.workflowId);
    expect(row.version).toBe(4);
    expect(row.name).toBe(rows[3]!.name);
  });
});

describe("versions are written with every change", () => {
  it("create writes version 1 with the author; each PATCH writes the content it leaves behind", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId, workflowBody({ positions }));
    await call("PATCH", `${base}/workflows/${wf.workflowId}`, { headers, body: { name: "Renamed" } });
    await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { nodes: otherNodes, positions: { start: { x: 9, y: 9 } } },
    });
    const rows = await versionRows(wf.workflowId);
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3]);
    expect(rows[0]).toMatchObject({
      name: "Custom workflow",
      entryNodeId: "start",
      positions,
      actorType: "api_key",
    });
    expect(rows[0]!.nodes).toEqual(wf.nodes);
    expect(rows[1]).toMatchObject({ name: "Renamed", positions });
    expect(rows[2]).toMatchObject({
      name: "Renamed",
      nodes: otherNodes,
      positions: { start: { x: 9, y: 9 } },
    });
    const keyRow = await sandboxKeyRow(ws.workspaceId);
    expect(rows.every((r) => r.actorId === keyRow.id)).toBe(true);
  });

  it("a new app's starter workflow is version 1", async () => {
    const { app } = await makeWorkflowsApp();
    const rows = await versionRows(app.defaultWorkflowId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ version: 1, name: "Default workflow", entryNodeId: "request" });
  });

  it("PATCH …/verification writes a new version of the default workflow; an unchanged one none", async () => {
    const { app, base, headers } = await makeWorkflowsApp();
    const res = await call("PATCH", `${base}/verification`, {
      headers,
      body: { verification_type: "age_verification", minimum_age: 18 },
    });
    expect(res.status).toBe(200);
    const rows = await versionRows(app.defaultWorkflowId);
    expect(rows.map((r) => r.version)).toEqual([1, 2]);
    const node = (rows[1]!.nodes as { type: string; config?: Record<string, unknown> }[]).find(
      (n) => n.type === "verification",
    )!;
    expect(node.config).toMatchObject({ mode: "age_verification", minimumAge: 18 });
    const wf = await call("GET", `${base}/workflows/${app.defaultWorkflowId}`, { headers });
    expect(wf.body.version).toBe(2);
    expect(wf.headers.get("etag")).toBe('"2"');

    const same = await call("PATCH", `${base}/verification`, { headers, body: { minimum_age: 18 } });
    expect(same.status).toBe(200);
    expect(await versionRows(app.defaultWorkflowId)).toHaveLength(2);
  });

  it("refused changes write no version", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const bad = await call("PATCH", `${base}/workflows/${wf.workflowId}`, {
      headers,
      body: { entryNodeId: "loa" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ path: "entryNodeId" });
    const badSettings = await call("PATCH", `${base}/verification`, {
      headers,
      body: { verification_type: "age_verification" },
    });
    expect(badSettings.status).toBe(400);
    expect(await versionRows(wf.workflowId)).toHaveLength(1);
    expect(await versionRows(app.defaultWorkflowId)).toHaveLength(1);
  });

  it("400 details of create and PATCH carry the nodeId of the node they point into", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const nodes = [...wf.nodes];
    nodes[2] = { ...nodes[2], config: { minLoa: 7 } };
    const res = await call("PATCH", `${base}/workflows/${wf.workflowId}`, { headers, body: { nodes } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: "nodes[2].config.minLoa", message: expect.stringContaining('node "loa"'), nodeId: "loa" },
    ]);
  });
});

describe("GET …/versions and GET …/versions/{version}", () => {
  it("lists versions newest first with author and node count, paginated", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const url = `${base}/workflows/${wf.workflowId}`;
    await call("PATCH", url, { headers, body: { name: "Two" } });
    await call("PATCH", url, { headers, body: { nodes: otherNodes } });
    const keyRow = await sandboxKeyRow(ws.workspaceId);

    const res = await call("GET", `${url}/versions`, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, limit: 20, offset: 0, hasMore: false });
    expect(res.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(res.body.data[0]).toEqual({
      version: 3,
      name: "Two",
      nodeCount: 3,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      author: { type: "api_key", id: keyRow.id, display: keyRow.name },
      restoredFrom: null,
    });
    expect(res.body.data[2]).toMatchObject({ version: 1, name: "Custom workflow", nodeCount: 4 });

    const paged = await call("GET", `${url}/versions?limit=1&offset=1`, { headers });
    expect(paged.body).toMatchObject({ total: 3, limit: 1, offset: 1, hasMore: true });
    expect(paged.body.data.map((v: { version: number }) => v.version)).toEqual([2]);
    const badLimit = await call("GET", `${url}/versions?limit=0`, { headers });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.details[0].path).toBe("limit");
  });

  it("returns one version's content; 404 for versions the workflow does not have", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId, workflowBody({ positions }));
    const url = `${base}/workflows/${wf.workflowId}`;
    await call("PATCH", url, { headers, body: { nodes: otherNodes } });
    const v1 = await call("GET", `${url}/versions/1`, { headers });
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({
      version: 1,
      name: "Custom workflow",
      entryNodeId: "start",
      nodes: wf.nodes,
      positions,
      author: { type: "api_key" },
      restoredFrom: null,
    });
    const v2 = await call("GET", `${url}/versions/2`, { headers });
    expect(v2.body.nodes).toEqual(otherNodes);
    expect(v2.body.positions).toEqual({
      start: positions.start,
      verify: positions.verify,
      end: positions.end,
    });
    for (const missing of ["3", "0", "-1", "abc", "1.5", "01"]) {
      const res = await call("GET", `${url}/versions/${missing}`, { headers });
      expect(res.status, missing).toBe(404);
      expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
    }
  });

  it("shows a console user's email as the author", async () => {
    const { ws, app, base } = await makeWorkflowsApp();
    const member = await addMember(ws.workspaceId, "developer");
    const session = await sessionHeaders(member.userId, { workspaceId: ws.workspaceId });
    const patched = await call("PATCH", `${base}/workflows/${app.defaultWorkflowId}`, {
      headers: session,
      body: { name: "By a person" },
    });
    expect(patched.status).toBe(200);
    const res = await call("GET", `${base}/workflows/${app.defaultWorkflowId}/versions/2`, {
      headers: session,
    });
    expect(res.body.author).toEqual({ type: "user", id: member.userId, display: member.email });
  });
});

describe("POST …/versions/{version}/restore", () => {
  it("saves the old content as the newest version, leaving older versions as they were", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId, workflowBody({ positions }));
    const url = `${base}/workflows/${wf.workflowId}`;
    await call("PATCH", url, { headers, body: { name: "Second", nodes: otherNodes } });
    const before = await versionRows(wf.workflowId);

    const res = await call("POST", `${url}/versions/1/restore`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe('"3"');
    expect(res.body).toMatchObject({
      workflowId: wf.workflowId,
      name: "Custom workflow",
      entryNodeId: "start",
      nodes: wf.nodes,
      positions,
      version: 3,
    });
    const after = await versionRows(wf.workflowId);
    expect(after.slice(0, 2)).toEqual(before);
    expect(after[2]).toMatchObject({ version: 3, name: "Custom workflow", restoredFrom: 1, positions });
    expect(after[2]!.nodes).toEqual(wf.nodes);
    const list = await call("GET", `${url}/versions`, { headers });
    expect(list.body.data[0]).toMatchObject({ version: 3, restoredFrom: 1 });
    const audit = await auditQuery("workflow.restored", wf.workflowId, ws.workspaceId)
      .selectAll()
      .executeTakeFirst();
    expect(audit?.data).toMatchObject({ fromVersion: 1, version: 3 });

    // the restored workflow is what sessions now run
    const row = await workflowRow(wf.workflowId);
    expect(row.nodes).toEqual(wf.nodes);
  });

  it("honours If-Match like PATCH", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    const url = `${base}/workflows/${wf.workflowId}`;
    await call("PATCH", url, { headers, body: { name: "Second" } });
    const stale = await call("POST", `${url}/versions/1/restore`, {
      headers: { ...headers, "if-match": '"1"' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe("WORKFLOW_VERSION_CONFLICT");
    expect(await versionRows(wf.workflowId)).toHaveLength(2);
    const ok = await call("POST", `${url}/versions/1/restore`, {
      headers: { ...headers, "if-match": '"2"' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(3);
  });

  it("validates the old content against the app's current providers", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    await addAppProvider(app.clientId, "de_eid");
    const nodes = workflowBody().nodes.map((n) =>
      n.type === "verification"
        ? { ...n, config: { ...n.config, providers: { de_eid: { enabled: true } } } }
        : n,
    );
    const wf = await createWorkflow(key, app.clientId, workflowBody({ nodes }));
    const url = `${base}/workflows/${wf.workflowId}`;
    await call("PATCH", url, { headers, body: { nodes: otherNodes } });
    await kysely()
      .deleteFrom("appProviders")
      .where("appId", "=", app.clientId)
      .where("providerId", "=", "de_eid")
      .returning("providerId")
      .executeTakeFirstOrThrow();
    const res = await call("POST", `${url}/versions/1/restore`, { headers });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual({
      path: "nodes[1].config.providers.de_eid",
      message: expect.stringContaining("is not a provider of this app"),
      nodeId: "verify",
    });
    expect(await versionRows(wf.workflowId)).toHaveLength(2);
  });

  it("is 404 for an unknown version or workflow", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const wf = await createWorkflow(key, app.clientId);
    expect(
      (await call("POST", `${base}/workflows/${wf.workflowId}/versions/5/restore`, { headers })).status,
    ).toBe(404);
    expect((await call("POST", `${base}/workflows/wf_nope/versions/1/restore`, { headers })).status).toBe(
      404,
    );
  });
});

describe("roles and ownership", () => {
  it("a viewer reads versions but cannot PATCH or restore", async () => {
    const { ws, app, base } = await makeWorkflowsApp();
    const viewer = await addMember(ws.workspaceId, "viewer");
    const headers = await sessionHeaders(viewer.userId, { workspaceId: ws.workspaceId });
    const url = `${base}/workflows/${app.defaultWorkflowId}`;
    expect((await call("GET", url, { headers })).status).toBe(200);
    expect((await call("GET", `${url}/versions`, { headers })).status).toBe(200);
    expect((await call("GET", `${url}/versions/1`, { headers })).status).toBe(200);
    const patch = await call("PATCH", url, { headers, body: { name: "No" } });
    expect(patch.status).toBe(403);
    expect(patch.body.error.code).toBe("RESOURCE_FORBIDDEN");
    expect((await call("POST", `${url}/versions/1/restore`, { headers })).status).toBe(403);
    expect(await versionRows(app.defaultWorkflowId)).toHaveLength(1);
  });

  it("another workspace gets 403, another app's workflow and another environment 404", async () => {
    const { ws, app, base, headers, key } = await makeWorkflowsApp();
    const other = await makeWorkspace();
    const sibling = await makeApp(key, "sandbox", "Sibling");
    const url = `${base}/workflows/${app.defaultWorkflowId}`;
    for (const [method, suffix] of [
      ["GET", "/versions"],
      ["GET", "/versions/1"],
      ["POST", "/versions/1/restore"],
    ] as const) {
      const foreign = await call(method, `${url}${suffix}`, { headers: bearer(other.keys.sandbox) });
      expect(foreign.status, `${method} ${suffix}`).toBe(403);
      const siblings = await call(method, `${base}/workflows/${sibling.defaultWorkflowId}${suffix}`, {
        headers,
      });
      expect(siblings.status, `${method} ${suffix}`).toBe(404);
      const cross = await call(
        method,
        `/api/production/v1/apps/${app.clientId}/workflows/${app.defaultWorkflowId}${suffix}`,
        { headers: bearer(ws.keys.production) },
      );
      expect(cross.status, `${method} ${suffix}`).toBe(404);
    }
    expect(await versionRows(app.defaultWorkflowId)).toHaveLength(1);
  });
});

describe("verification sessions record the workflow version", () => {
  it("POST /v1/verifications stores the current version; the activity JSON shows it", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const creds = basic(app.clientId, app.clientSecret);
    const first = await call("POST", "/api/sandbox/v1/verifications", {
      headers: creds,
      body: { providerId: "passport" },
    });
    expect(first.status).toBe(201);
    await call("PATCH", `${base}/workflows/${app.defaultWorkflowId}`, { headers, body: { name: "v2" } });
    const second = await call("POST", "/api/sandbox/v1/verifications", {
      headers: creds,
      body: { providerId: "passport" },
    });
    const rows = await kysely()
      .selectFrom("verifications")
      .select(["id", "workflowVersion"])
      .where("id", "in", [first.body.verificationId, second.body.verificationId])
      .execute();
    const byId = Object.fromEntries(rows.map((r) => [r.id, r.workflowVersion]));
    expect(byId).toEqual({ [first.body.verificationId]: 1, [second.body.verificationId]: 2 });

    const activity = await call(
      "GET",
      `/api/sandbox/v1/verifications/${second.body.verificationId}/activity`,
      {
        headers: bearer(key),
      },
    );
    expect(activity.status).toBe(200);
    expect(activity.body.verification).toMatchObject({
      workflowId: app.defaultWorkflowId,
      workflowVersion: 2,
    });
  });

  it("a session runs the version it was planned on, even when the workflow changes meanwhile", async () => {
    const { app, base, headers } = await makeWorkflowsApp();
    const creds = basic(app.clientId, app.clientSecret);
    const started = await call("POST", "/api/sandbox/v1/verifications", {
      headers: creds,
      body: { providerId: "passport" },
    });
    expect(started.status).toBe(201);
    // version 2 demands LoA 3, which passport never gives
    const current = await call("GET", `${base}/workflows/${app.defaultWorkflowId}`, { headers });
    const nodes = current.body.nodes as { id: string; type: string; next?: string }[];
    const verify = nodes.find((n) => n.type === "verification")!;
    const strict = [
      ...nodes.map((n) => (n.id === verify.id ? { ...n, next: "loa3" } : n)),
      { id: "loa3", type: "check-min-loa", next: verify.next, config: { minLoa: 3 } },
    ];
    const patched = await call("PATCH", `${base}/workflows/${app.defaultWorkflowId}`, {
      headers,
      body: { nodes: strict },
    });
    expect(patched.status).toBe(200);
    const done = await call(
      "POST",
      `/api/sandbox/v1/sandbox/verifications/${started.body.verificationId}/simulate`,
      {
        headers: creds,
        body: { outcome: "success" },
      },
    );
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("completed");
    // a session planned on version 2 is held to it
    const later = await call("POST", "/api/sandbox/v1/verifications", {
      headers: creds,
      body: { providerId: "passport" },
    });
    const failed = await call(
      "POST",
      `/api/sandbox/v1/sandbox/verifications/${later.body.verificationId}/simulate`,
      {
        headers: creds,
        body: { outcome: "success" },
      },
    );
    expect(failed.body.status).toBe("failed");
  });

  it("plans every session on the current version's content, whichever versions were planned on before", async () => {
    const { app, base, headers, key } = await makeWorkflowsApp();
    const creds = basic(app.clientId, app.clientSecret);
    const wf = await createWorkflow(key, app.clientId, workflowBody());
    const url = `${base}/workflows/${wf.workflowId}`;
    const start = async () => {
      const res = await call("POST", "/api/sandbox/v1/verifications", {
        headers: creds,
        body: { providerId: "passport", workflowId: wf.workflowId },
      });
      expect(res.status).toBe(201);
      const v = await kysely()
        .selectFrom("verifications")
        .selectAll()
        .where("id", "=", res.body.verificationId)
        .executeTakeFirstOrThrow();
      const event = await kysely()
        .selectFrom("verificationEvents")
        .selectAll()
        .where("verificationId", "=", v.id)
        .where("type", "=", "verification.workflow.started")
        .executeTakeFirstOrThrow();
      return { version: v.workflowVersion, node: v.verificationNodeId, payload: event.payload };
    };
    // twice on version 1: the second plans on what the first parsed
    const first = await start();
    const again = await start();
    expect(first.version).toBe(1);
    expect(again).toMatchObject({ version: 1, node: first.node });

    expect((await call("PATCH", url, { headers, body: { nodes: otherNodes } })).status).toBe(200);
    const second = await start();
    expect(second).toMatchObject({ version: 2, node: "verify" });
    expect(second.payload).toMatchObject({
      data: { event: { metadata: { verificationNodeId: "verify", mode: "age_verification" } } },
    });

    // restoring version 1 is version 3, with version 1's content again
    expect((await call("POST", `${url}/versions/1/restore`, { headers })).status).toBe(200);
    const third = await start();
    expect(third).toMatchObject({ version: 3, node: first.node });
    const ageCheck = { data: { event: { metadata: { mode: "age_verification" } } } };
    expect(first.payload).not.toMatchObject(ageCheck);
    expect(third.payload).not.toMatchObject(ageCheck);
  });

  it("sessions started by the OpenID Provider (/oidc/…/auth) record it too", async () => {
    const { app, base, headers } = await makeWorkflowsApp();
    const redirect = "https://rp.example.com/cb";
    expect(
      (await call("PATCH", base, { headers, body: { redirectUris: [redirect], pkceRequired: false } }))
        .status,
    ).toBe(200);
    await call("PATCH", `${base}/workflows/${app.defaultWorkflowId}`, { headers, body: { name: "v2" } });
    const v = await postAuthorization({
      client_id: app.clientId,
      redirect_uri: redirect,
      response_type: "code",
      scope: "openid profile",
      provider: "passport",
    });
    expect(v).toMatchObject({ workflowId: app.defaultWorkflowId, workflowVersion: 2 });
  });
});

describe("migration 20261124000000_workflow_versions: backfill", () => {
  it("writes version 1 from each workflow's content and the version of sessions created after it", async () => {
    const migration = fs.readFileSync(
      path.join(process.cwd(), "prisma/migrations/20261124000000_workflow_versions/migration.sql"),
      "utf8",
    );
    const backfill = migration
      .slice(migration.indexOf("-- Backfill"))
      .split(/;\s*\n/)
      .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
      .filter(Boolean);
    expect(backfill).toHaveLength(2);

    const rollback = new Error("rollback");
    await expect(
      inTransaction(kysely(), async (tx) => {
        // the same statements run against temporary tables of the same shape, which
        // shadow the real ones (pg_temp comes first in the search path)
        await sql
          .raw(`CREATE TEMP TABLE workflows (LIKE public.workflows INCLUDING DEFAULTS) ON COMMIT DROP`)
          .execute(tx);
        await sql
          .raw(
            `CREATE TEMP TABLE workflow_versions (LIKE public.workflow_versions INCLUDING ALL) ON COMMIT DROP`,
          )
          .execute(tx);
        await sql
          .raw(
            `CREATE TEMP TABLE verifications (id text, workflow_id text, created_at timestamp(3), workflow_version int) ON COMMIT DROP`,
          )
          .execute(tx);
        await sql
          .raw(
            `
          INSERT INTO workflows (id, app_id, name, entry_node_id, nodes, created_at, updated_at) VALUES
            ('wf_a', 'app_1', 'Old A', 'start', '[{"id":"start","type":"request"}]', '2026-01-01', '2026-02-01'),
            ('wf_b', 'app_1', 'Old B', 'begin', '[]', '2026-01-05', '2026-01-05')`,
          )
          .execute(tx);
        await sql
          .raw(
            `
          INSERT INTO verifications (id, workflow_id, created_at) VALUES
            ('ver_before_edit', 'wf_a', '2026-01-15'),
            ('ver_after_edit', 'wf_a', '2026-02-02'),
            ('ver_b', 'wf_b', '2026-01-06')`,
          )
          .execute(tx);
        for (const statement of backfill) await sql.raw(statement).execute(tx);

        const versions = (
          await sql
            .raw<Record<string, unknown>>(
              `SELECT workflow_id, version, name, entry_node_id, nodes, positions, actor_type, actor_id, created_at
           FROM workflow_versions ORDER BY workflow_id`,
            )
            .execute(tx)
        ).rows;
        expect(versions).toEqual([
          {
            workflowId: "wf_a",
            version: 1,
            name: "Old A",
            entryNodeId: "start",
            nodes: [{ id: "start", type: "request" }],
            positions: {},
            actorType: "system",
            actorId: null,
            createdAt: new Date("2026-02-01T00:00:00Z"),
          },
          expect.objectContaining({ workflowId: "wf_b", version: 1, name: "Old B", actorType: "system" }),
        ]);
        const workflows = (
          await sql
            .raw<{ id: string; version: number; positions: unknown }>(
              `SELECT id, version, positions FROM workflows ORDER BY id`,
            )
            .execute(tx)
        ).rows;
        expect(workflows).toEqual([
          { id: "wf_a", version: 1, positions: {} },
          { id: "wf_b", version: 1, positions: {} },
        ]);
        const sessions = (
          await sql
            .raw<{ id: string; workflowVersion: number | null }>(
              `SELECT id, workflow_version FROM verifications ORDER BY id`,
            )
            .execute(tx)
        ).rows;
        expect(sessions).toEqual([
          { id: "ver_after_edit", workflowVersion: 1 },
          { id: "ver_b", workflowVersion: 1 },
          { id: "ver_before_edit", workflowVersion: null },
        ]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });
});
