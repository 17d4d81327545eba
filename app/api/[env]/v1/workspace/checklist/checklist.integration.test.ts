import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { requestProductionTest } from "@/lib/testing/production-tests";
import { basic, bearer, call } from "@/lib/testing/router";
import { activateProviders } from "@/lib/testing/verifications";

type TStep = { id: string; done: boolean };

async function checklist(headers: Record<string, string>, env = "sandbox") {
  const res = await call("GET", `/api/${env}/v1/workspace/checklist`, { headers });
  expect(res.status).toBe(200);
  const body = res.body as { steps: TStep[]; done: boolean };
  return { ...body, ticked: body.steps.filter((s) => s.done).map((s) => s.id) };
}

describe("GET /v1/workspace/checklist", () => {
  it("lists the five steps in order, none done for a new workspace, for every role", async () => {
    const ws = await makeWorkspace();
    const first = await checklist(await sessionHeaders(ws.userId));
    expect(first.steps.map((s) => s.id)).toEqual([
      "app",
      "test_verification",
      "webhook",
      "teammate",
      "production",
    ]);
    expect(first.ticked).toEqual([]);
    expect(first.done).toBe(false);
    // a viewer reads it too; adding one makes a teammate
    const viewer = await addMember(ws.workspaceId, "viewer");
    const byViewer = await checklist(await sessionHeaders(viewer.userId), "production");
    expect(byViewer.ticked).toEqual(["teammate"]);
  });

  it("ticks each step from the workspace's real state, the same in both environments", async () => {
    const ws = await makeWorkspace();
    const key = bearer(ws.keys.sandbox);
    const app = await makeApp(ws.keys.sandbox);
    expect((await checklist(key)).ticked).toEqual(["app"]);

    // a sandbox verification
    await activateProviders(app.clientId, ["passport"]);
    const started = await call("POST", "/api/sandbox/v1/verifications", {
      headers: basic(app.clientId, app.clientSecret),
      body: { providerId: "passport" },
    });
    expect(started.status, started.text).toBe(201);
    expect((await checklist(key)).ticked).toEqual(["app", "test_verification"]);

    // a webhook URL on an app
    const hook = await call("PATCH", `/api/sandbox/v1/apps/${app.clientId}/webhook-config`, {
      headers: key,
      body: { url: "https://hooks.example.test/idv" },
    });
    expect(hook.status, hook.text).toBe(200);
    expect((await checklist(key)).ticked).toEqual(["app", "test_verification", "webhook"]);

    // an open invitation (a revoked or expired one would not count)
    const invited = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: key,
      body: { email: `mate-${Date.now()}@example.test`, role: "developer" },
    });
    expect(invited.status, invited.text).toBe(201);
    const teammate = await checklist(key);
    expect(teammate.ticked).toEqual(["app", "test_verification", "webhook", "teammate"]);
    await kysely()
      .updateTable("invitations")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("workspaceId", "=", ws.workspaceId)
      .execute();
    expect((await checklist(key)).ticked).not.toContain("teammate");
    await kysely()
      .updateTable("invitations")
      .set({ expiresAt: new Date(Date.now() + 3600_000) })
      .where("workspaceId", "=", ws.workspaceId)
      .execute();

    // a production test requested: the last step; the answer is the same under /api/production
    await activateProviders(app.clientId, ["passport"]);
    await requestProductionTest(ws.keys.sandbox, app.clientId);
    const all = await checklist(key);
    expect(all.ticked).toEqual(["app", "test_verification", "webhook", "teammate", "production"]);
    expect(all.done).toBe(true);
    const inProduction = await checklist(bearer(ws.keys.production), "production");
    expect(inProduction.done).toBe(true);
  });

  it("counts a provider activation submitted in production, not one in the sandbox; deleted apps count for nothing", async () => {
    const ws = await makeWorkspace();
    const sandboxApp = await makeApp(ws.keys.sandbox);
    const sandboxSubmit = await call("POST", `/api/sandbox/v1/apps/${sandboxApp.clientId}/activation`, {
      headers: bearer(ws.keys.sandbox),
      body: { providers: { de_eid: {} } },
    });
    expect(sandboxSubmit.status, sandboxSubmit.text).toBe(200);
    expect((await checklist(bearer(ws.keys.sandbox))).ticked).toEqual(["app"]);

    const prodApp = await makeApp(ws.keys.production, "production");
    const submitted = await call("POST", `/api/production/v1/apps/${prodApp.clientId}/activation`, {
      headers: bearer(ws.keys.production),
      body: { providers: { de_eid: {} } },
    });
    expect(submitted.status, submitted.text).toBe(200);
    expect((await checklist(bearer(ws.keys.sandbox))).ticked).toEqual(["app", "production"]);

    await kysely()
      .updateTable("apps")
      .set({ deletedAt: new Date() })
      .where("workspaceId", "=", ws.workspaceId)
      .execute();
    expect((await checklist(bearer(ws.keys.sandbox))).ticked).toEqual(["production"]);
  });

  it("answers only the caller's workspace", async () => {
    const busy = await makeWorkspace();
    await makeApp(busy.keys.sandbox);
    const fresh = await makeWorkspace();
    expect((await checklist(bearer(fresh.keys.sandbox))).ticked).toEqual([]);
    const anonymous = await call("GET", "/api/sandbox/v1/workspace/checklist", {});
    expect(anonymous.status).toBe(401);
  });
});
