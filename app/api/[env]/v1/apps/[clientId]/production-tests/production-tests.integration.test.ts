import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { PROVIDERS } from "@/lib/providers/catalog";
import { makeApp, makeOperator, makeWorkspace } from "@/lib/testing/factories";
import { participate, requestProductionTest, scheduleProductionTest } from "@/lib/testing/production-tests";
import { basic, bearer, call } from "@/lib/testing/router";

const base = (clientId: string, env = "sandbox") => `/api/${env}/v1/apps/${clientId}/production-tests`;

async function setup(env: "sandbox" | "production" = "sandbox") {
  const ws = await makeWorkspace();
  const key = ws.keys[env];
  const app = await makeApp(key, env);
  return { ws, key, app, env };
}

const countRequests = (appId: string) =>
  countRows(kysely().selectFrom("productionTestRequests").where("appId", "=", appId));

describe("POST /v1/apps/{client_id}/production-tests", () => {
  it("creates a pending request item, stores it and audits it", async () => {
    const { ws, key, app } = await setup();
    const res = await call("POST", base(app.clientId), {
      headers: bearer(key),
      body: { title: "  Launch in Berlin ", providerIds: ["passport", "passport"], maxStampClaims: 250 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      type: "request",
      challenge: null,
      request: {
        id: expect.stringMatching(/^ptr_[0-9A-Z]{26}$/),
        clientId: app.clientId,
        status: "pending",
        payload: {
          title: "Launch in Berlin",
          providerIds: ["passport"],
          maxStampClaims: 250,
          targetPlatform: null,
        },
        challengeId: null,
        failureReason: null,
        createdAt: expect.any(String),
      },
    });
    const row = await kysely()
      .selectFrom("productionTestRequests")
      .selectAll()
      .where("id", "=", res.body.request.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ appId: app.clientId, workspaceId: ws.workspaceId, status: "pending" });
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", row.id)
      .where("action", "=", "production_test.requested")
      .executeTakeFirst();
    expect(audit).toMatchObject({
      workspaceId: ws.workspaceId,
      environment: "sandbox",
      actorType: "api_key",
    });
  });

  it("works in production and keeps the target platform", async () => {
    const { key, app } = await setup("production");
    const res = await call("POST", base(app.clientId, "production"), {
      headers: bearer(key),
      body: { title: "Go live", providerIds: ["passport"], maxStampClaims: 1, targetPlatform: "ios" },
    });
    expect(res.status).toBe(201);
    expect(res.body.request.payload.targetPlatform).toBe("ios");
    const nulled = await call("POST", base(app.clientId, "production"), {
      headers: bearer(key),
      body: { title: "Go live", providerIds: ["passport"], maxStampClaims: 1, targetPlatform: null },
    });
    expect(nulled.body.request.payload.targetPlatform).toBeNull();
  });

  it("honours Idempotency-Key", async () => {
    const { key, app } = await setup();
    const body = { title: "Once", providerIds: ["passport"], maxStampClaims: 5 };
    const headers = { ...bearer(key), "idempotency-key": "pt-once" };
    const first = await call("POST", base(app.clientId), { headers, body });
    const again = await call("POST", base(app.clientId), { headers, body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body.request.id).toBe(first.body.request.id);
    const other = await call("POST", base(app.clientId), { headers, body: { ...body, maxStampClaims: 6 } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("IDEMPOTENCY_KEY_CONFLICT");
    expect(await countRequests(app.clientId)).toBe(1);
  });

  const valid = { title: "T", providerIds: ["passport"], maxStampClaims: 3 };
  it.each([
    [{ ...valid, title: undefined }, "title"],
    [{ ...valid, title: "   " }, "title"],
    [{ ...valid, title: "x".repeat(201) }, "title"],
    [{ ...valid, title: 7 }, "title"],
    [{ ...valid, providerIds: undefined }, "providerIds"],
    [{ ...valid, providerIds: [] }, "providerIds"],
    [{ ...valid, providerIds: "passport" }, "providerIds"],
    [{ ...valid, providerIds: Array.from({ length: 21 }, () => "passport") }, "providerIds"],
    [{ ...valid, providerIds: ["passport", 42] }, "providerIds[1]"],
    [{ ...valid, maxStampClaims: undefined }, "maxStampClaims"],
    [{ ...valid, maxStampClaims: 0 }, "maxStampClaims"],
    [{ ...valid, maxStampClaims: 2.5 }, "maxStampClaims"],
    [{ ...valid, maxStampClaims: "3" }, "maxStampClaims"],
    [{ ...valid, maxStampClaims: 100_001 }, "maxStampClaims"],
    [{ ...valid, targetPlatform: "desktop" }, "targetPlatform"],
    [{ ...valid, sponsor: "me" }, "sponsor"],
  ])("refuses %j naming %s, writing nothing", async (body, field) => {
    const { key, app } = await setup();
    const res = await call("POST", base(app.clientId), { headers: bearer(key), body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(await countRequests(app.clientId)).toBe(0);
  });

  it("refuses providers outside the catalog and providers not activated for the app", async () => {
    const { key, app } = await setup();
    const unknown = await call("POST", base(app.clientId), {
      headers: bearer(key),
      body: { ...valid, providerIds: ["passport", "no-such-eid"] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("VALIDATION_ERROR");
    expect(unknown.body.error.details).toEqual([
      { path: "providerIds[1]", message: 'unknown provider "no-such-eid"' },
    ]);

    await kysely()
      .updateTable("appProviders")
      .set({ status: "activation_requested", updatedAt: new Date() })
      .where("appId", "=", app.clientId)
      .where("providerId", "=", "passport")
      .execute();
    const inactive = await call("POST", base(app.clientId), { headers: bearer(key), body: valid });
    expect(inactive.status).toBe(400);
    expect(inactive.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(inactive.body.error.details[0].path).toBe("providerIds[0]");

    await kysely()
      .deleteFrom("appProviders")
      .where("appId", "=", app.clientId)
      .where("providerId", "=", "passport")
      .executeTakeFirstOrThrow();
    const missing = await call("POST", base(app.clientId), { headers: bearer(key), body: valid });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(await countRequests(app.clientId)).toBe(0);
  });

  it("refuses malformed JSON", async () => {
    const { key, app } = await setup();
    const res = await call("POST", base(app.clientId), {
      headers: { ...bearer(key), "content-type": "application/json" },
      rawBody: '{"title": ',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_JSON");
    expect(await countRequests(app.clientId)).toBe(0);
  });

  it("requires a workspace key: none, an operator key or app credentials are 401", async () => {
    const { app } = await setup();
    const operator = await makeOperator();
    for (const headers of [{}, bearer(operator.operatorKey), basic(app.clientId, app.clientSecret)]) {
      const res = await call("POST", base(app.clientId), { headers, body: valid });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("INVALID_API_KEY");
    }
    expect(await countRequests(app.clientId)).toBe(0);
  });

  it("is 403 for another workspace's app and 404 across environments, unknown or deleted apps", async () => {
    const { ws, key, app } = await setup();
    const other = await makeWorkspace();
    const forbidden = await call("POST", base(app.clientId), {
      headers: bearer(other.keys.sandbox),
      body: valid,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("RESOURCE_FORBIDDEN");
    const crossEnv = await call("POST", base(app.clientId, "production"), {
      headers: bearer(ws.keys.production),
      body: valid,
    });
    expect(crossEnv.status).toBe(404);
    expect(crossEnv.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const unknown = await call("POST", base("app_01HZZZZZZZZZZZZZZZZZZZZZZZ"), {
      headers: bearer(key),
      body: valid,
    });
    expect(unknown.status).toBe(404);
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(key) });
    const deleted = await call("POST", base(app.clientId), { headers: bearer(key), body: valid });
    expect(deleted.status).toBe(404);
    expect(await countRequests(app.clientId)).toBe(0);
  });
});

describe("GET /v1/apps/{client_id}/production-tests", () => {
  it("lists requests newest first; scheduled ones become challenges, failed ones carry the reason", async () => {
    const { key, app } = await setup();
    const operator = await makeOperator();
    const empty = await call("GET", base(app.clientId), { headers: bearer(key) });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);

    const first = await requestProductionTest(key, app.clientId, "sandbox", { title: "first" });
    const second = await requestProductionTest(key, app.clientId, "sandbox", { title: "second" });
    const third = await requestProductionTest(key, app.clientId, "sandbox", { title: "third" });
    const scheduled = await scheduleProductionTest(operator.operatorKey, first.request.id, "sandbox", {
      description: "Come and try",
    });
    const failed = await call("POST", `/api/sandbox/v1/operator/production-tests/${second.request.id}/fail`, {
      headers: bearer(operator.operatorKey),
      body: { reason: "Provider under maintenance" },
    });
    expect(failed.status).toBe(200);

    const res = await call("GET", base(app.clientId), { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body.map((i: { request: { id: string } }) => i.request.id)).toEqual([
      third.request.id,
      second.request.id,
      first.request.id,
    ]);
    const [pending, failedItem, challengeItem] = res.body;
    expect(pending).toMatchObject({ type: "request", challenge: null, request: { status: "pending" } });
    expect(failedItem).toMatchObject({
      type: "request",
      challenge: null,
      request: { status: "failed", failureReason: "Provider under maintenance", challengeId: null },
    });
    expect(challengeItem).toEqual({
      type: "challenge",
      challenge: {
        id: scheduled.challenge.id,
        title: "first",
        description: "Come and try",
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
        completedAt: null,
        isActive: true,
        challengeMode: "stamp",
        sponsor: null,
        sources: null,
      },
      request: expect.objectContaining({
        id: first.request.id,
        status: "scheduled",
        challengeId: scheduled.challenge.id,
        failureReason: null,
      }),
    });
    expect(challengeItem.challenge.id).toMatch(/^chl_[0-9A-Z]{26}$/);
  });

  it("shows expired and completed challenges as inactive", async () => {
    const { key, app } = await setup();
    const operator = await makeOperator();
    const a = await requestProductionTest(key, app.clientId, "sandbox", { maxStampClaims: 1 });
    const b = await requestProductionTest(key, app.clientId);
    const done = await scheduleProductionTest(operator.operatorKey, a.request.id);
    const expired = await scheduleProductionTest(operator.operatorKey, b.request.id);
    await participate(done.challenge.id, { claim: true });
    await kysely()
      .updateTable("productionTestChallenges")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", expired.challenge.id)
      .execute();
    const res = await call("GET", base(app.clientId), { headers: bearer(key) });
    const byId = new Map(
      res.body.map((i: { challenge: { id: string } }) => [i.challenge.id, i.challenge] as const),
    );
    expect(byId.get(done.challenge.id)).toMatchObject({ isActive: false, completedAt: expect.any(String) });
    expect(byId.get(expired.challenge.id)).toMatchObject({ isActive: false, completedAt: null });
  });

  it("lists only the app's own tests and refuses foreign access", async () => {
    const { ws, key, app } = await setup();
    const sibling = await makeApp(key);
    await requestProductionTest(key, sibling.clientId);
    const own = await call("GET", base(app.clientId), { headers: bearer(key) });
    expect(own.body).toEqual([]);

    const other = await makeWorkspace();
    const forbidden = await call("GET", base(app.clientId), { headers: bearer(other.keys.sandbox) });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("RESOURCE_FORBIDDEN");
    const crossEnv = await call("GET", base(app.clientId, "production"), {
      headers: bearer(ws.keys.production),
    });
    expect(crossEnv.status).toBe(404);
    const operator = await makeOperator();
    const wrongKey = await call("GET", base(app.clientId), { headers: bearer(operator.operatorKey) });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.error.code).toBe("INVALID_API_KEY");
    const none = await call("GET", base(app.clientId));
    expect(none.status).toBe(401);
  });
});

describe("GET /v1/apps/{client_id}/production-tests/{challenge_id}/report", () => {
  async function scheduled(maxStampClaims = 10) {
    const ctx = await setup();
    const operator = await makeOperator();
    const req = await requestProductionTest(ctx.key, ctx.app.clientId, "sandbox", { maxStampClaims });
    const item = await scheduleProductionTest(operator.operatorKey, req.request.id);
    const report = (id = item.challenge.id, key = ctx.key, env = "sandbox", clientId = ctx.app.clientId) =>
      call("GET", `${base(clientId, env)}/${id}/report`, { headers: bearer(key) });
    return { ...ctx, operator, req, challengeId: item.challenge.id, report };
  }

  it("reports zeros for a fresh challenge", async () => {
    const { report, challengeId } = await scheduled();
    const res = await report();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      challenge: expect.objectContaining({ id: challengeId, isActive: true, challengeMode: "stamp" }),
      stats: {
        totalParticipations: 0,
        totalClaims: 0,
        providerBreakdown: [{ providerId: "passport", providerName: "Passport (NFC)", claimCount: 0 }],
      },
    });
    expect(res.body).not.toHaveProperty("completed");
  });

  it("counts every attempt and every claimed stamp", async () => {
    const { report, challengeId } = await scheduled(3);
    await participate(challengeId, { successful: false });
    await participate(challengeId, { successful: true, claim: true });
    await participate(challengeId, { successful: true }); // successful but never claimed
    const refused = await participate(challengeId, { successful: false, claim: true });
    expect(refused.claimed).toEqual({ ok: false, reason: "not_successful" });
    await participate(challengeId, { successful: true, claim: true });

    const res = await report();
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({
      totalParticipations: 5,
      totalClaims: 2,
      providerBreakdown: [{ providerId: "passport", providerName: "Passport (NFC)", claimCount: 2 }],
    });
    expect(res.body.challenge).toMatchObject({ isActive: true, completedAt: null });

    await participate(challengeId, { successful: true, claim: true });
    const full = await report();
    expect(full.body.stats).toMatchObject({ totalParticipations: 6, totalClaims: 3 });
    expect(full.body.challenge).toMatchObject({ isActive: false, completedAt: expect.any(String) });
  });

  const second = PROVIDERS.find((p) => p.id !== "passport");
  it.skipIf(!second)("breaks claims down per provider, in the order of the request", async () => {
    const ctx = await setup();
    const operator = await makeOperator();
    await kysely()
      .insertInto("appProviders")
      .values({
        appId: ctx.app.clientId,
        providerId: second!.id,
        status: "activated",
        activatedAt: new Date(),
        updatedAt: new Date(),
      })
      .execute();
    const req = await requestProductionTest(ctx.key, ctx.app.clientId, "sandbox", {
      providerIds: [second!.id, "passport"],
      maxStampClaims: 10,
    });
    const { challenge } = await scheduleProductionTest(operator.operatorKey, req.request.id);
    await participate(challenge.id, { providerId: "passport", claim: true });
    await participate(challenge.id, { providerId: second!.id, claim: true });
    await participate(challenge.id, { providerId: second!.id, claim: true });
    await participate(challenge.id, { providerId: second!.id, successful: false });
    const res = await call("GET", `${base(ctx.app.clientId)}/${challenge.id}/report`, {
      headers: bearer(ctx.key),
    });
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({
      totalParticipations: 4,
      totalClaims: 3,
      providerBreakdown: [
        { providerId: second!.id, providerName: second!.name, claimCount: 2 },
        { providerId: "passport", providerName: "Passport (NFC)", claimCount: 1 },
      ],
    });
  });

  it("is 404 for a request id, an unknown id and another app's challenge", async () => {
    const { report, req, key, app } = await scheduled();
    const byRequestId = await report(req.request.id);
    expect(byRequestId.status).toBe(404);
    expect(byRequestId.body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect(byRequestId.body.error.message).toContain("not the request id");

    const pending = await requestProductionTest(key, app.clientId);
    expect((await report(pending.request.id)).status).toBe(404);
    expect((await report("chl_01HZZZZZZZZZZZZZZZZZZZZZZZ")).status).toBe(404);

    const sibling = await makeApp(key);
    const elsewhere = await scheduled();
    // a challenge of another app (even of the same workspace) is not found under this app
    const wrongApp = await report(elsewhere.challengeId, key, "sandbox", app.clientId);
    expect(wrongApp.status).toBe(404);
    expect((await report(elsewhere.challengeId, key, "sandbox", sibling.clientId)).status).toBe(404);
  });

  it("is 403 for another workspace, 404 across environments and 401 without a workspace key", async () => {
    const { report, ws, operator } = await scheduled();
    const other = await makeWorkspace();
    const forbidden = await report(undefined, other.keys.sandbox);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("RESOURCE_FORBIDDEN");
    const crossEnv = await report(undefined, ws.keys.production, "production");
    expect(crossEnv.status).toBe(404);
    expect(crossEnv.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const wrongKey = await report(undefined, operator.operatorKey);
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.error.code).toBe("INVALID_API_KEY");
  });
});
