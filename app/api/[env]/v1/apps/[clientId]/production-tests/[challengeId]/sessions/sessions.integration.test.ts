/** POST /v1/apps/{client_id}/production-tests/{challenge_id}/sessions: taking part from the console. */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { flushRequestLog } from "@/lib/request-log/writer";
import { addMember, makeApp, makeOperator, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { connectTestProviders } from "@/lib/testing/connections";
import { requestProductionTest, scheduleProductionTest } from "@/lib/testing/production-tests";
import { basic, bearer, call } from "@/lib/testing/router";
import { activateProviders, eventTypes } from "@/lib/testing/verifications";

type Env = "sandbox" | "production";

async function setup(
  env: Env = "sandbox",
  request: Record<string, unknown> = {},
  schedule: Record<string, unknown> = {},
) {
  const ws = await makeWorkspace();
  const key = ws.keys[env];
  const app = await makeApp(key, env);
  const operator = await makeOperator();
  const req = await requestProductionTest(key, app.clientId, env, request);
  const { challenge } = await scheduleProductionTest(operator.operatorKey, req.request.id, env, schedule);
  const path = (challengeId = challenge.id, clientId = app.clientId, e: Env = env) =>
    `/api/${e}/v1/apps/${clientId}/production-tests/${challengeId}/sessions`;
  const report = async () =>
    (
      await call("GET", `/api/${env}/v1/apps/${app.clientId}/production-tests/${challenge.id}/report`, {
        headers: bearer(key),
      })
    ).body;
  return { ws, key, app, operator, req, challenge, path, report, env };
}

const countSessions = (appId: string) =>
  countRows(kysely().selectFrom("verifications").where("appId", "=", appId));
const verificationRow = (id: string) =>
  kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const disableProvider = (appId: string, providerId: string) =>
  kysely()
    .updateTable("appProviders")
    .set({ enabled: false, updatedAt: new Date() })
    .where("appId", "=", appId)
    .where("providerId", "=", providerId)
    .execute();

describe("POST /v1/apps/{client_id}/production-tests/{challenge_id}/sessions", () => {
  it("starts a session for the challenge whose outcome becomes a participation and a stamp", async () => {
    const s = await setup("sandbox", { maxStampClaims: 2 });
    const developer = await addMember(s.ws.workspaceId, "developer");
    const res = await call("POST", s.path(), { headers: await sessionHeaders(developer.userId) });
    expect(res.status).toBe(201);
    const id = res.body.verificationId as string;
    expect(res.body).toEqual({
      verificationId: expect.stringMatching(/^ver_/),
      status: "awaiting_user_action",
      providerId: "passport",
      workflowId: s.app.defaultWorkflowId,
      flowType: "qr",
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      url: `http://localhost:3000/verify/${id}`,
      challengeId: s.challenge.id,
    });
    const row = await verificationRow(id);
    expect(row).toMatchObject({ challengeId: s.challenge.id, appId: s.app.clientId, environment: "sandbox" });
    expect(await eventTypes(id)).toEqual([
      "verification.created",
      "verification.requested",
      "verification.workflow.started",
    ]);
    // nothing counts before the session ends
    expect((await s.report()).stats).toMatchObject({ totalParticipations: 0, totalClaims: 0 });

    const creds = basic(s.app.clientId, s.app.clientSecret);
    const simulated = await call("POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
      headers: creds,
      body: { outcome: "success" },
    });
    expect(simulated.body.status).toBe("completed");
    const declined = await call("POST", s.path(), { headers: bearer(s.key) });
    await call("POST", `/api/sandbox/v1/sandbox/verifications/${declined.body.verificationId}/simulate`, {
      headers: creds,
      body: { outcome: "failure" },
    });
    const report = await s.report();
    expect(report.stats).toEqual({
      totalParticipations: 2,
      totalClaims: 1,
      providerBreakdown: [{ providerId: "passport", providerName: "Passport (NFC)", claimCount: 1 }],
    });
    expect(report.challenge).toMatchObject({ isActive: true, completedAt: null });

    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", id)
      .where("action", "=", "production_test.session_started")
      .executeTakeFirst();
    expect(audit).toMatchObject({
      actorType: "user",
      actorId: developer.userId,
      environment: "sandbox",
      data: { clientId: s.app.clientId, challengeId: s.challenge.id, providerId: "passport" },
    });
    await flushRequestLog();
    const logged = await kysely()
      .selectFrom("apiRequestLogs")
      .selectAll()
      .where("id", "=", res.headers.get("x-request-id")!)
      .executeTakeFirst();
    expect(logged).toMatchObject({ verificationId: id, appId: s.app.clientId, credentialType: "session" });
  });

  it("works in production with the real provider's hosted page", async () => {
    const s = await setup("production");
    // a production session needs a connected provider (issue 24)
    await connectTestProviders(["passport"]);
    const res = await call("POST", s.path(), { headers: bearer(s.key), body: { providerId: "passport" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ providerId: "passport", challengeId: s.challenge.id });
    expect(res.body.url).toBe(`http://localhost:3000/verify/${res.body.verificationId}`);
    const row = await verificationRow(res.body.verificationId);
    expect(row).toMatchObject({ environment: "production", challengeId: s.challenge.id });
  });

  it("defaults to the first of the test's providers that the app can run", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    await activateProviders(app.clientId, ["nl_digid", "bank_data_match"]);
    const operator = await makeOperator();
    const req = await requestProductionTest(ws.keys.sandbox, app.clientId, "sandbox", {
      providerIds: ["bank_data_match", "passport", "nl_digid"],
    });
    const { challenge } = await scheduleProductionTest(operator.operatorKey, req.request.id);
    // passport comes first among the disclosure providers, but it is switched off
    await disableProvider(app.clientId, "passport");
    const path = `/api/sandbox/v1/apps/${app.clientId}/production-tests/${challenge.id}/sessions`;
    const res = await call("POST", path, { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(201);
    expect(res.body.providerId).toBe("nl_digid");

    const match = await call("POST", path, {
      headers: bearer(ws.keys.sandbox),
      body: { providerId: "bank_data_match" },
    });
    expect(match.status).toBe(400);
    expect(match.body.error).toMatchObject({
      code: "PROVIDER_NOT_AVAILABLE",
      details: [{ path: "providerId" }],
    });
    const disabled = await call("POST", path, {
      headers: bearer(ws.keys.sandbox),
      body: { providerId: "passport" },
    });
    expect(disabled.status).toBe(400);
    expect(disabled.body.error).toMatchObject({
      code: "PROVIDER_NOT_AVAILABLE",
      details: [{ path: "providerId" }],
    });

    await disableProvider(app.clientId, "nl_digid");
    const none = await call("POST", path, { headers: bearer(ws.keys.sandbox) });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({
      code: "PROVIDER_NOT_AVAILABLE",
      details: [{ path: "providerId" }],
    });
    expect(await countSessions(app.clientId)).toBe(1);
  });

  it.each([
    [{ providerId: "nl_digid" }, "providerId", "VALIDATION_ERROR"],
    [{ providerId: "" }, "providerId", "VALIDATION_ERROR"],
    [{ providerId: 7 }, "providerId", "VALIDATION_ERROR"],
    [{ challengeId: "chl_x" }, "challengeId", "VALIDATION_ERROR"],
  ])("refuses %j naming %s, starting nothing", async (body, field, code) => {
    const s = await setup();
    const res = await call("POST", s.path(), { headers: bearer(s.key), body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details[0].path).toBe(field);
    expect(await countSessions(s.app.clientId)).toBe(0);
  });

  it("refuses completed and expired challenges, naming challenge_id", async () => {
    const s = await setup("sandbox", { maxStampClaims: 1 });
    const first = await call("POST", s.path(), { headers: bearer(s.key) });
    await call("POST", `/api/sandbox/v1/sandbox/verifications/${first.body.verificationId}/simulate`, {
      headers: basic(s.app.clientId, s.app.clientSecret),
      body: { outcome: "success" },
    });
    const completed = await call("POST", s.path(), { headers: bearer(s.key) });
    expect(completed.status).toBe(400);
    expect(completed.body.error.code).toBe("VALIDATION_ERROR");
    expect(completed.body.error.details).toEqual([
      { path: "challenge_id", message: expect.stringContaining("ended") },
    ]);

    const other = await setup();
    await kysely()
      .updateTable("productionTestChallenges")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", other.challenge.id)
      .execute();
    const expired = await call("POST", other.path(), { headers: bearer(other.key) });
    expect(expired.status).toBe(400);
    expect(expired.body.error.details).toEqual([
      { path: "challenge_id", message: expect.stringContaining("expired") },
    ]);
    expect(await countSessions(s.app.clientId)).toBe(1);
    expect(await countSessions(other.app.clientId)).toBe(0);
  });

  it("is 404 for a request id, an unknown id, another app's challenge and across environments", async () => {
    const s = await setup();
    const byRequest = await call("POST", s.path(s.req.request.id), { headers: bearer(s.key) });
    expect(byRequest.status).toBe(404);
    expect(byRequest.body.error.message).toContain("not the request id");
    const unknown = await call("POST", s.path("chl_01HZZZZZZZZZZZZZZZZZZZZZZZ"), { headers: bearer(s.key) });
    expect(unknown.status).toBe(404);
    const sibling = await makeApp(s.key);
    const wrongApp = await call("POST", s.path(s.challenge.id, sibling.clientId), { headers: bearer(s.key) });
    expect(wrongApp.status).toBe(404);
    const crossEnv = await call("POST", s.path(s.challenge.id, s.app.clientId, "production"), {
      headers: bearer(s.ws.keys.production),
    });
    expect(crossEnv.status).toBe(404);
    expect(await countSessions(s.app.clientId)).toBe(0);
    expect(await countSessions(sibling.clientId)).toBe(0);
  });

  it("refuses viewers, other workspaces, app credentials, no credential and a foreign Origin", async () => {
    const s = await setup();
    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const asViewer = await call("POST", s.path(), { headers: await sessionHeaders(viewer.userId) });
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error.code).toBe("RESOURCE_FORBIDDEN");

    const stranger = await makeWorkspace();
    const foreign = await call("POST", s.path(), { headers: bearer(stranger.keys.sandbox) });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("RESOURCE_FORBIDDEN");

    const asApp = await call("POST", s.path(), { headers: basic(s.app.clientId, s.app.clientSecret) });
    expect(asApp.status).toBe(401);
    expect((await call("POST", s.path())).status).toBe(401);

    const developer = await addMember(s.ws.workspaceId, "developer");
    const csrf = await call("POST", s.path(), {
      headers: await sessionHeaders(developer.userId, { origin: "https://evil.example" }),
    });
    expect(csrf.status).toBe(403);
    expect(csrf.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    expect(await countSessions(s.app.clientId)).toBe(0);
  });
});
