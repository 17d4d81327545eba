/** POST /v1/apps/{client_id}/test-verifications: a sandbox session started from the console. */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { flushRequestLog } from "@/lib/request-log/writer";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";
import { activateProviders, eventTypes } from "@/lib/testing/verifications";

const OPENING = ["verification.created", "verification.requested", "verification.workflow.started"];

const countSessions = (appId: string) =>
  countRows(kysely().selectFrom("verifications").where("appId", "=", appId));
const disablePassport = (appId: string) =>
  kysely()
    .updateTable("appProviders")
    .set({ enabled: false, updatedAt: new Date() })
    .where("appId", "=", appId)
    .where("providerId", "=", "passport")
    .execute();

async function setup() {
  const ws = await makeWorkspace();
  const key = ws.keys.sandbox;
  const app = await makeApp(key);
  return { ws, key, app, path: `/api/sandbox/v1/apps/${app.clientId}/test-verifications` };
}

describe("POST /v1/apps/{client_id}/test-verifications", () => {
  it("starts a real session with the default workflow's provider, shown in the list", async () => {
    const s = await setup();
    const developer = await addMember(s.ws.workspaceId, "developer");
    const res = await call("POST", s.path, { headers: await sessionHeaders(developer.userId) });
    expect(res.status).toBe(201);
    const id = res.body.verificationId as string;
    expect(res.body).toMatchObject({
      status: "awaiting_user_action",
      providerId: "passport",
      workflowId: s.app.defaultWorkflowId,
      flowType: "qr",
      url: `http://localhost:3000/verify/${id}`,
    });
    expect(await eventTypes(id)).toEqual(OPENING);

    const list = await call("GET", "/api/sandbox/v1/verifications", { headers: bearer(s.key) });
    expect(list.body.data.map((v: { verificationId: string }) => v.verificationId)).toEqual([id]);
    expect(list.body.data[0]).toMatchObject({ clientId: s.app.clientId, status: "awaiting_user_action" });

    // the app's own credentials see and drive it like any session
    const creds = basic(s.app.clientId, s.app.clientSecret);
    const sim = await call("POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
      headers: creds,
      body: { outcome: "success" },
    });
    expect(sim.body.status).toBe("completed");

    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", id)
      .where("action", "=", "verification.test_started")
      .executeTakeFirst();
    expect(audit).toMatchObject({ actorType: "user", actorId: developer.userId, environment: "sandbox" });
    await flushRequestLog();
    const logged = await kysely()
      .selectFrom("apiRequestLogs")
      .selectAll()
      .where("id", "=", res.headers.get("x-request-id")!)
      .executeTakeFirst();
    expect(logged).toMatchObject({ verificationId: id, appId: s.app.clientId, credentialType: "session" });
  });

  it("takes a named provider and a registered redirect URI", async () => {
    const s = await setup();
    await activateProviders(s.app.clientId, ["nl_digid"]);
    await call("PATCH", `/api/sandbox/v1/apps/${s.app.clientId}`, {
      headers: bearer(s.key),
      body: { redirectUris: ["https://shop.example.com/done"] },
    });
    const res = await call("POST", s.path, {
      headers: bearer(s.key),
      body: { providerId: "nl_digid", redirectUri: "https://shop.example.com/done" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ providerId: "nl_digid", flowType: "redirect" });
    const row = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", res.body.verificationId)
      .executeTakeFirstOrThrow();
    expect(row.redirectUri).toBe("https://shop.example.com/done");
  });

  it("uses another enabled provider when the workflow's own is disabled", async () => {
    const s = await setup();
    await activateProviders(s.app.clientId, ["nl_digid"]);
    await disablePassport(s.app.clientId);
    const res = await call("POST", s.path, { headers: bearer(s.key) });
    expect(res.status).toBe(201);
    expect(res.body.providerId).toBe("nl_digid");
  });

  it.each([
    [{ providerId: "nope" }, "providerId", "PROVIDER_NOT_AVAILABLE"],
    [{ providerId: "se_bankid" }, "providerId", "PROVIDER_NOT_AVAILABLE"],
    [{ redirectUri: "https://evil.example.com/cb" }, "redirectUri", "VALIDATION_ERROR"],
    [{ clientSecret: "x" }, "clientSecret", "VALIDATION_ERROR"],
  ])("refuses %j naming %s, creating nothing", async (body, field, code) => {
    const s = await setup();
    const res = await call("POST", s.path, { headers: bearer(s.key), body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details[0].path).toBe(field);
    expect(await countSessions(s.app.clientId)).toBe(0);
  });

  it("says which field to fill when no provider of the app can run", async () => {
    const s = await setup();
    await disablePassport(s.app.clientId);
    const res = await call("POST", s.path, { headers: bearer(s.key) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "PROVIDER_NOT_AVAILABLE",
      details: [{ path: "providerId" }],
    });
  });

  it("does not exist in production, refuses viewers and other workspaces' apps", async () => {
    const s = await setup();
    const prodApp = await makeApp(s.ws.keys.production, "production");
    const prod = await call("POST", `/api/production/v1/apps/${prodApp.clientId}/test-verifications`, {
      headers: bearer(s.ws.keys.production),
    });
    expect(prod.status).toBe(404);
    expect(prod.body.error.code).toBe("ROUTE_NOT_FOUND");
    expect(await countSessions(prodApp.clientId)).toBe(0);

    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const asViewer = await call("POST", s.path, { headers: await sessionHeaders(viewer.userId) });
    expect(asViewer.status).toBe(403);

    const stranger = await makeWorkspace();
    const foreign = await call("POST", s.path, { headers: bearer(stranger.keys.sandbox) });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("RESOURCE_FORBIDDEN");
    expect(await countSessions(s.app.clientId)).toBe(0);
  });
});

describe("POST /v1/apps/{client_id}/test-verifications with a workflowId", () => {
  it("runs the named workflow of the app, and refuses another app's workflow naming the field", async () => {
    const s = await setup();
    const created = await call("POST", `/api/sandbox/v1/apps/${s.app.clientId}/workflows`, {
      headers: bearer(s.key),
      body: {
        name: "Email only",
        entryNodeId: "start",
        nodes: [
          { id: "start", type: "request", next: "verify" },
          { id: "verify", type: "verification", next: "end", config: { channel: "api", claims: ["email"] } },
          { id: "end", type: "response" },
        ],
      },
    });
    expect(created.status).toBe(201);
    const workflowId = created.body.workflowId as string;
    const res = await call("POST", s.path, { headers: bearer(s.key), body: { workflowId } });
    expect(res.status).toBe(201);
    expect(res.body.workflowId).toBe(workflowId);
    expect(res.body.workflowId).not.toBe(s.app.defaultWorkflowId);

    const other = await makeApp(s.key);
    const foreign = await call("POST", s.path, {
      headers: bearer(s.key),
      body: { workflowId: other.defaultWorkflowId },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.details).toEqual([
      { path: "workflowId", message: "is not a workflow of this app" },
    ]);
  });
});

describe("GET /v1/apps/{client_id}/test-identities", () => {
  it("lists a provider's test identities to workspace credentials, in the sandbox only", async () => {
    const s = await setup();
    const url = `/api/sandbox/v1/apps/${s.app.clientId}/test-identities?providerId=passport`;
    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const res = await call("GET", url, { headers: await sessionHeaders(viewer.userId) });
    expect(res.status).toBe(200);
    const app = await call("GET", "/api/sandbox/v1/sandbox/identities?providerId=passport", {
      headers: basic(s.app.clientId, s.app.clientSecret),
    });
    expect(res.body).toEqual(app.body);
    expect(res.body.map((i: { scenario: string }) => i.scenario)).toContain("low_loa");

    const unknown = await call("GET", url.replace("passport", "nope"), { headers: bearer(s.key) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("providerId");
    expect((await call("GET", url)).status).toBe(401);
    const other = await makeWorkspace();
    expect((await call("GET", url, { headers: bearer(other.keys.sandbox) })).status).toBe(403);
    const prod = await makeApp(s.ws.keys.production, "production");
    const production = await call(
      "GET",
      `/api/production/v1/apps/${prod.clientId}/test-identities?providerId=passport`,
      { headers: bearer(s.ws.keys.production) },
    );
    expect(production.status).toBe(404);
  });
});
