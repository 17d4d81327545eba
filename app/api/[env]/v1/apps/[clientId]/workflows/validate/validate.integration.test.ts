/** POST /v1/apps/{client_id}/workflows/validate: the checks of create as a dry run. */
import { describe, expect, it } from "vitest";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";
import { workflowBody } from "@/lib/testing/workflows";
import { kysely } from "@/lib/db/client";
import { countRows, likeLiteral } from "@/lib/db/kysely";

async function setup() {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  const base = `/api/sandbox/v1/apps/${app.clientId}`;
  return { ws, app, base, url: `${base}/workflows/validate`, headers: bearer(ws.keys.sandbox) };
}

async function storedState(appId: string, workspaceId: string) {
  const workflows = await kysely()
    .selectFrom("workflows")
    .selectAll()
    .where("appId", "=", appId)
    .orderBy("id")
    .execute();
  const versions = await kysely()
    .selectFrom("workflowVersions")
    .innerJoin("workflows", "workflows.id", "workflowVersions.workflowId")
    .selectAll("workflowVersions")
    .where("workflows.appId", "=", appId)
    .orderBy("workflowVersions.workflowId")
    .orderBy("workflowVersions.version")
    .execute();
  const audits = await countRows(
    kysely()
      .selectFrom("auditEvents")
      .where("workspaceId", "=", workspaceId)
      .where("action", "like", `${likeLiteral("workflow.")}%`),
  );
  return { workflows, versions, audits };
}

type TNode = { id: string; type: string; next?: string; then?: string; else?: string; config?: object };
function withNode(index: number, change: Partial<TNode>) {
  const body = workflowBody();
  body.nodes[index] = { ...body.nodes[index]!, ...change } as (typeof body.nodes)[number];
  return body;
}

describe("POST /v1/apps/{client_id}/workflows/validate", () => {
  it("answers valid for a valid draft (with or without name and positions) and stores nothing", async () => {
    const { ws, app, url, headers } = await setup();
    const before = await storedState(app.clientId, ws.workspaceId);
    const positions = { start: { x: 0, y: 0 }, end: { x: 0, y: 300 } };
    for (const body of [workflowBody(), { ...workflowBody({ positions }), name: undefined }]) {
      const res = await call("POST", url, { headers, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ valid: true, details: [] });
    }
    expect(await storedState(app.clientId, ws.workspaceId)).toEqual(before);
  });

  it.each([
    [
      "an unknown claim",
      withNode(1, { config: { channel: "api", claims: ["shoe_size"] } }),
      "nodes[1].config.claims[0]",
      "verify",
      '"shoe_size" is not a known claim name',
    ],
    ["a broken link", withNode(2, { next: "nowhere" }), "nodes[2].next", "loa", '"nowhere" is not a node'],
    ["an unknown type", withNode(2, { type: "teleport" }), "nodes[2].type", "loa", 'unknown type "teleport"'],
    [
      "a duplicate id",
      withNode(2, { id: "verify" }),
      "nodes[2].id",
      "verify",
      "duplicates the id of nodes[1]",
    ],
    [
      "a provider the app lacks",
      withNode(1, {
        config: { channel: "api", claims: ["email"], providers: { de_eid: { enabled: true } } },
      }),
      "nodes[1].config.providers.de_eid",
      "verify",
      '"de_eid" is not a provider of this app',
    ],
    [
      "a missing verification",
      withNode(0, { next: "loa" }),
      "nodes[2]",
      "loa",
      "a verification node must come before it",
    ],
    [
      "a bad config value",
      withNode(2, { config: { minLoa: 9 } }),
      "nodes[2].config.minLoa",
      "loa",
      "must be 1, 2 or 3",
    ],
  ])("names %s with its path, message and nodeId", async (_, body, path, nodeId, message) => {
    const { ws, app, url, headers } = await setup();
    const res = await call("POST", url, { headers, body });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    const detail = (res.body.details as { path: string; message: string; nodeId?: string }[]).find(
      (d) => d.path === path,
    );
    expect(detail, JSON.stringify(res.body.details)).toBeDefined();
    expect(detail!.message).toContain(message);
    expect(detail!.nodeId).toBe(nodeId);
    // the same draft is refused by create with the same details
    const created = await call("POST", `/api/sandbox/v1/apps/${app.clientId}/workflows`, { headers, body });
    expect(created.status).toBe(400);
    expect(created.body.error.details).toEqual(res.body.details);
    expect((await storedState(app.clientId, ws.workspaceId)).workflows).toHaveLength(1);
  });

  it("reports findings outside nodes without nodeId: entry node, positions, name", async () => {
    const { url, headers } = await setup();
    const res = await call("POST", url, {
      headers,
      body: { ...workflowBody({ entryNodeId: "ghost", positions: { phantom: { x: 1, y: 1 } } }), name: "  " },
    });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.details).toEqual([
      { path: "name", message: "must not be empty" },
      { path: "entryNodeId", message: '"ghost" is not a node of this workflow' },
      { path: "positions.phantom", message: '"phantom" is not a node of this workflow' },
    ]);
  });

  it("answers 400 for a body that is not shaped like a workflow", async () => {
    const { url, headers } = await setup();
    const notNodes = await call("POST", url, { headers, body: { entryNodeId: "start", nodes: "x" } });
    expect(notNodes.status).toBe(400);
    expect(notNodes.body.error.details[0].path).toBe("nodes");
    const unknown = await call("POST", url, { headers, body: { ...workflowBody(), extra: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0]).toEqual({ path: "extra", message: "Unknown field" });
  });

  it("is allowed to every role that reads, also a viewer (it changes nothing)", async () => {
    const { ws, url } = await setup();
    const viewer = await addMember(ws.workspaceId, "viewer");
    const headers = await sessionHeaders(viewer.userId, { workspaceId: ws.workspaceId });
    const res = await call("POST", url, { headers, body: workflowBody() });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
  });

  it("is 401 without credentials or with app credentials, 403 for another workspace, 404 for unknown apps and across environments", async () => {
    const { ws, app, url } = await setup();
    const body = workflowBody();
    expect((await call("POST", url, { body })).status).toBe(401);
    expect((await call("POST", url, { headers: basic(app.clientId, app.clientSecret), body })).status).toBe(
      401,
    );
    const other = await makeWorkspace();
    const forbidden = await call("POST", url, { headers: bearer(other.keys.sandbox), body });
    expect(forbidden.status).toBe(403);
    expect(
      (
        await call("POST", "/api/sandbox/v1/apps/app_nope/workflows/validate", {
          headers: bearer(ws.keys.sandbox),
          body,
        })
      ).status,
    ).toBe(404);
    const cross = await call("POST", `/api/production/v1/apps/${app.clientId}/workflows/validate`, {
      headers: bearer(ws.keys.production),
      body,
    });
    expect(cross.status).toBe(404);
  });
});
