/** GET /v1/audit-events: the workspace's audit trail, with filters and readable actors. */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";

const AUDIT = "/api/sandbox/v1/audit-events";
type Entry = { action: string; targetId: string | null; environment: string | null };
const actions = (body: { data: Entry[] }) => body.data.map((e) => e.action);

/**
 * workspace.created (CLI, workspace-wide) → app.created (sandbox key) → app.updated (sandbox key)
 * → workspace.renamed (owner's console session, workspace-wide) → app.created in production.
 */
async function seeded() {
  const ws = await makeWorkspace();
  const key = ws.keys.sandbox;
  const app = await makeApp(key, "sandbox", "Shop");
  const patched = await call("PATCH", `/api/sandbox/v1/apps/${app.clientId}`, {
    headers: bearer(key),
    body: { name: "Shop 2" },
  });
  expect(patched.status).toBe(200);
  const renamed = await call("PATCH", "/api/sandbox/v1/workspace", {
    headers: await sessionHeaders(ws.userId),
    body: { name: "Renamed" },
  });
  expect(renamed.status).toBe(200);
  const prodApp = await makeApp(ws.keys.production, "production", "Prod shop");
  const sandboxKey = await kysely()
    .selectFrom("apiKeys")
    .selectAll()
    .where("workspaceId", "=", ws.workspaceId)
    .where("environment", "=", "sandbox")
    .executeTakeFirstOrThrow();
  return { ws, key, app, prodApp, sandboxKey, renamedRequestId: renamed.headers.get("x-request-id") };
}

describe("GET /v1/audit-events", () => {
  it("lists this environment's and workspace-wide entries, newest first, with readable actors", async () => {
    const s = await seeded();
    const res = await call("GET", AUDIT, { headers: bearer(s.key) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, limit: 20, offset: 0, hasMore: false });
    expect(actions(res.body)).toEqual([
      "workspace.renamed",
      "app.updated",
      "app.created",
      "workspace.created",
    ]);
    const [renamed, updated, created, workspaceCreated] = res.body.data;
    expect(renamed).toMatchObject({
      actor: { type: "user", id: s.ws.userId, display: s.ws.email },
      targetType: "workspace",
      targetId: s.ws.workspaceId,
      environment: null,
      requestId: s.renamedRequestId,
      data: { to: "Renamed" },
    });
    expect(updated).toMatchObject({
      actor: { type: "api_key", id: s.sandboxKey.id, display: s.sandboxKey.name },
      targetType: "app",
      targetId: s.app.clientId,
      environment: "sandbox",
    });
    expect(created.auditId).toMatch(/^aud_/);
    expect(workspaceCreated).toMatchObject({
      actor: { type: "cli", display: s.ws.email },
      environment: null,
    });

    // the production key sees production's entries and the workspace-wide ones
    const prod = await call("GET", "/api/production/v1/audit-events", {
      headers: bearer(s.ws.keys.production),
    });
    expect(actions(prod.body)).toEqual(["app.created", "workspace.renamed", "workspace.created"]);
    expect(prod.body.data[0].targetId).toBe(s.prodApp.clientId);
  });

  it("filters by action (exact or prefix*), actor, target and time, and paginates", async () => {
    const s = await seeded();
    const get = (q: string) => call("GET", `${AUDIT}?${q}`, { headers: bearer(s.key) });

    expect(actions((await get("action=app.created")).body)).toEqual(["app.created"]);
    expect(actions((await get("action=app.*")).body)).toEqual(["app.updated", "app.created"]);
    // a prefix's `_` is literal (LIKE would read it as any character): "app_*" is not "app.*"
    expect(actions((await get("action=app_*")).body)).toEqual([]);
    expect(actions((await get("action=workspace*")).body)).toEqual([
      "workspace.renamed",
      "workspace.created",
    ]);
    expect(actions((await get(`actorId=${s.sandboxKey.id}`)).body)).toEqual(["app.updated", "app.created"]);
    expect(actions((await get(`targetType=app&targetId=${s.app.clientId}`)).body)).toEqual([
      "app.updated",
      "app.created",
    ]);
    expect((await get(`targetId=${s.prodApp.clientId}`)).body.total).toBe(0);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(`from=${future}`)).body.total).toBe(0);
    expect((await get(`to=${future}`)).body.total).toBe(4);

    const first = await get("limit=3");
    expect(first.body).toMatchObject({ total: 4, limit: 3, hasMore: true });
    const rest = await get("limit=3&offset=3");
    expect(actions(rest.body)).toEqual(["workspace.created"]);
    expect(rest.body.hasMore).toBe(false);
  });

  it.each([
    ["action=app.*.x", "action"],
    ["action=*app", "action"],
    ["from=last week", "from"],
    ["limit=500", "limit"],
  ])("refuses %s naming %s", async (q, field) => {
    const ws = await makeWorkspace();
    const res = await call("GET", `${AUDIT}?${q}`, { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("shows nothing of other workspaces; every role may read", async () => {
    const s = await seeded();
    const stranger = await makeWorkspace();
    const theirs = await call("GET", `${AUDIT}?targetId=${s.app.clientId}`, {
      headers: bearer(stranger.keys.sandbox),
    });
    expect(theirs.body.total).toBe(0);
    const all = await call("GET", AUDIT, { headers: bearer(stranger.keys.sandbox) });
    expect(actions(all.body)).toEqual(["workspace.created"]);

    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const asViewer = await call("GET", AUDIT, { headers: await sessionHeaders(viewer.userId) });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.total).toBe(4);
  });
});
