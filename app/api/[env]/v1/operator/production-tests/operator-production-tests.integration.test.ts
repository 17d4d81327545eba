import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { makeApp, makeOperator, makeWorkspace } from "@/lib/testing/factories";
import { requestProductionTest, scheduleProductionTest } from "@/lib/testing/production-tests";
import { basic, bearer, call } from "@/lib/testing/router";

const opBase = (env = "sandbox") => `/api/${env}/v1/operator/production-tests`;
const DAY = 24 * 60 * 60 * 1000;

async function setup(env: "sandbox" | "production" = "sandbox") {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys[env], env);
  const operator = await makeOperator();
  const req = await requestProductionTest(ws.keys[env], app.clientId, env, { title: "Berlin launch" });
  const schedule = (body?: unknown, id = req.request.id, key = operator.operatorKey, e: string = env) =>
    call("POST", `${opBase(e)}/${id}/schedule`, { headers: bearer(key), body });
  const fail = (body?: unknown, id = req.request.id, key = operator.operatorKey, e: string = env) =>
    call("POST", `${opBase(e)}/${id}/fail`, { headers: bearer(key), body });
  return { ws, app, operator, req, requestId: req.request.id, schedule, fail };
}

async function expectUntouched(requestId: string) {
  const row = await requestRow(requestId);
  expect(row.status).toBe("pending");
  expect(row.failureReason).toBeNull();
  expect(await challengeCount(requestId)).toBe(0);
}

function requestRow(id: string) {
  return kysely()
    .selectFrom("productionTestRequests")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

function challengeCount(requestId: string): Promise<number> {
  return countRows(kysely().selectFrom("productionTestChallenges").where("requestId", "=", requestId));
}

function auditOf(targetId: string, action: string) {
  return kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("targetId", "=", targetId)
    .where("action", "=", action)
    .executeTakeFirst();
}

describe("POST /v1/operator/production-tests/{request_id}/schedule", () => {
  it("schedules with defaults: challenge from the request, 14 days, audited with the operator", async () => {
    const { app, ws, operator, requestId, schedule } = await setup();
    const before = Date.now();
    const res = await schedule();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "challenge",
      challenge: {
        title: "Berlin launch",
        description: null,
        completedAt: null,
        isActive: true,
        challengeMode: "stamp",
        sponsor: null,
        sources: null,
      },
      request: { id: requestId, status: "scheduled", clientId: app.clientId },
      app: { clientId: app.clientId, workspaceId: ws.workspaceId, name: "Test app" },
    });
    expect(res.body.request.challengeId).toBe(res.body.challenge.id);
    const expiresAt = Date.parse(res.body.challenge.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 14 * DAY);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 14 * DAY);

    const row = await kysely()
      .selectFrom("productionTestChallenges")
      .selectAll()
      .where("requestId", "=", requestId)
      .executeTakeFirstOrThrow();
    expect(row.id).toBe(res.body.challenge.id);
    const audit = await auditOf(requestId, "production_test.scheduled");
    expect(audit).toMatchObject({
      actorType: "operator",
      actorId: operator.userId,
      workspaceId: ws.workspaceId,
      environment: "sandbox",
    });
  });

  it("takes expiresAt, description, sponsor and sources, in production too", async () => {
    const { schedule, ws, app } = await setup("production");
    const expiresAt = new Date(Date.now() + 3 * DAY).toISOString();
    const res = await schedule({
      expiresAt,
      description: "Verify and win a stamp",
      sponsor: { name: "Acme", url: "https://acme.example" },
      sources: ["newsletter", { channel: "social" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.challenge).toMatchObject({
      expiresAt,
      description: "Verify and win a stamp",
      sponsor: { name: "Acme", url: "https://acme.example" },
      sources: ["newsletter", { channel: "social" }],
    });
    const list = await call("GET", `/api/production/v1/apps/${app.clientId}/production-tests`, {
      headers: bearer(ws.keys.production),
    });
    expect(list.body[0]).toMatchObject({ type: "challenge", challenge: { id: res.body.challenge.id } });
  });

  it.each([
    [{ expiresAt: "2001-01-01T00:00:00Z" }, "expiresAt"],
    [{ expiresAt: "tomorrow" }, "expiresAt"],
    [{ expiresAt: "2030-01-01" }, "expiresAt"],
    [{ expiresAt: new Date(Date.now() + 400 * DAY).toISOString() }, "expiresAt"],
    [{ description: 5 }, "description"],
    [{ description: "x".repeat(2001) }, "description"],
    [{ sources: "web" }, "sources"],
    [{ sources: Array.from({ length: 51 }, (_, i) => i) }, "sources"],
    [{ title: "renamed" }, "title"],
  ])("refuses %j naming %s, leaving the request pending", async (body, field) => {
    const { schedule, requestId } = await setup();
    const res = await schedule(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    await expectUntouched(requestId);
  });

  it("refuses requests that are not pending with their status in the message", async () => {
    const { schedule, requestId } = await setup();
    expect((await schedule()).status).toBe(200);
    const again = await schedule();
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("PRODUCTION_TEST_NOT_PENDING");
    expect(again.body.error.message).toContain("is scheduled");
    expect(await challengeCount(requestId)).toBe(1);

    const failed = await setup();
    expect((await failed.fail({ reason: "no" })).status).toBe(200);
    const late = await failed.schedule();
    expect(late.status).toBe(400);
    expect(late.body.error.message).toContain("is failed");
    expect(await challengeCount(failed.requestId)).toBe(0);
  });

  it("lets exactly one of two concurrent schedules win", async () => {
    const { schedule, requestId } = await setup();
    const results = await Promise.all([schedule(), schedule(), schedule()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect(await challengeCount(requestId)).toBe(1);
  });

  it("is 404 for unknown requests, other environments and deleted apps", async () => {
    const { schedule, requestId, ws, app } = await setup();
    const unknown = await schedule(undefined, "ptr_01HZZZZZZZZZZZZZZZZZZZZZZZ");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const crossEnv = await schedule(undefined, requestId, undefined, "production");
    expect(crossEnv.status).toBe(404);
    await expectUntouched(requestId);
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.sandbox) });
    expect((await schedule()).status).toBe(404);
    await expectUntouched(requestId);
  });

  it("requires an operator key: none, workspace keys and app credentials are 401", async () => {
    const { schedule, ws, app, requestId } = await setup();
    for (const headers of [{}, bearer(ws.keys.sandbox), basic(app.clientId, app.clientSecret)]) {
      const res = await call("POST", `${opBase()}/${requestId}/schedule`, { headers, body: {} });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("INVALID_OPERATOR_KEY");
    }
    expect((await schedule(undefined, requestId, ws.keys.sandbox)).status).toBe(401);
    await expectUntouched(requestId);
  });
});

describe("POST /v1/operator/production-tests/{request_id}/fail", () => {
  it("fails a pending request with the reason, shown to the integrator, and audits it", async () => {
    const { fail, requestId, app, ws, operator } = await setup();
    const res = await fail({ reason: "  eID provider in maintenance  " });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "request",
      challenge: null,
      request: {
        id: requestId,
        status: "failed",
        failureReason: "eID provider in maintenance",
        challengeId: null,
      },
    });
    const list = await call("GET", `/api/sandbox/v1/apps/${app.clientId}/production-tests`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(list.body[0].request).toMatchObject({
      status: "failed",
      failureReason: "eID provider in maintenance",
    });
    const audit = await auditOf(requestId, "production_test.failed");
    expect(audit).toMatchObject({ actorType: "operator", actorId: operator.userId });
  });

  it.each([
    [undefined],
    [{}],
    [{ reason: "" }],
    [{ reason: "   " }],
    [{ reason: 1 }],
    [{ reason: "x".repeat(501) }],
  ])("refuses %j naming reason", async (body) => {
    const { fail, requestId } = await setup();
    const res = await fail(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(
      body === undefined ? "(body)" : "reason",
    );
    await expectUntouched(requestId);
  });

  it("refuses unknown fields, non-pending requests, other environments and workspace keys", async () => {
    const { fail, schedule, requestId, ws } = await setup();
    const extra = await fail({ reason: "x", note: "y" });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details[0].path).toBe("note");
    expect((await fail({ reason: "x" }, requestId, undefined, "production")).status).toBe(404);
    const wrongKey = await fail({ reason: "x" }, requestId, ws.keys.sandbox);
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.error.code).toBe("INVALID_OPERATOR_KEY");
    await expectUntouched(requestId);

    expect((await schedule()).status).toBe(200);
    const late = await fail({ reason: "too late" });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toContain("is scheduled");
    const row = await requestRow(requestId);
    expect(row).toMatchObject({ status: "scheduled", failureReason: null });
  });
});

describe("GET /v1/operator/production-tests", () => {
  it("lists pending requests of the environment oldest first, other statuses newest first", async () => {
    const ws = await makeWorkspace();
    const operator = await makeOperator();
    const app = await makeApp(ws.keys.sandbox);
    const key = ws.keys.sandbox;
    const a = await requestProductionTest(key, app.clientId, "sandbox", { title: "a" });
    const b = await requestProductionTest(key, app.clientId, "sandbox", { title: "b" });
    const c = await requestProductionTest(key, app.clientId, "sandbox", { title: "c" });
    const d = await requestProductionTest(key, app.clientId, "sandbox", { title: "d" });
    await scheduleProductionTest(operator.operatorKey, c.request.id);
    await scheduleProductionTest(operator.operatorKey, d.request.id);
    const list = (qs: string, env = "sandbox", k = operator.operatorKey) =>
      call("GET", `${opBase(env)}?clientId=${app.clientId}${qs}`, { headers: bearer(k) });

    const pending = await list("");
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ total: 2, limit: 50, offset: 0, hasMore: false });
    expect(pending.body.data.map((i: { request: { id: string } }) => i.request.id)).toEqual([
      a.request.id,
      b.request.id,
    ]);
    expect(pending.body.data[0]).toMatchObject({
      type: "request",
      app: { clientId: app.clientId, workspaceId: ws.workspaceId },
    });

    const scheduled = await list("&status=scheduled");
    expect(scheduled.body.data.map((i: { challenge: { title: string } }) => i.challenge.title)).toEqual([
      "d",
      "c",
    ]);

    const page = await list("&limit=1&offset=1");
    expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 1, hasMore: false });
    expect(page.body.data[0].request.id).toBe(b.request.id);

    expect((await list("&status=failed")).body.total).toBe(0);
    // the production URL lists production requests only
    expect((await list("", "production")).body).toMatchObject({ total: 0, data: [] });

    // requests of deleted apps leave the queue
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(key) });
    expect((await list("")).body.total).toBe(0);
  });

  it("without a filter, lists requests of every workspace in the environment", async () => {
    const operator = await makeOperator();
    const one = await setup();
    const two = await setup();
    const prod = await setup("production");
    const head = await call("GET", `${opBase()}?limit=1`, { headers: bearer(operator.operatorKey) });
    expect(head.status).toBe(200);
    // pending is oldest first, so the requests just made are on the last page of the queue
    const offset = Math.max(0, head.body.total - 100);
    const res = await call("GET", `${opBase()}?limit=100&offset=${offset}`, {
      headers: bearer(operator.operatorKey),
    });
    const ids = res.body.data.map((i: { request: { id: string } }) => i.request.id);
    expect(ids).toContain(one.requestId);
    expect(ids).toContain(two.requestId);
    expect(ids).not.toContain(prod.requestId);
  });

  it.each(["status=done", "limit=0", "limit=101", "offset=-1", "limit=x"])(
    "refuses %s naming the field",
    async (qs) => {
      const operator = await makeOperator();
      const res = await call("GET", `${opBase()}?${qs}`, { headers: bearer(operator.operatorKey) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0].path).toBe(qs.split("=")[0]);
    },
  );

  it("requires an operator key", async () => {
    const ws = await makeWorkspace();
    for (const headers of [{}, bearer(ws.keys.sandbox), bearer("sk_operator_" + "x".repeat(40))]) {
      const res = await call("GET", opBase(), { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("INVALID_OPERATOR_KEY");
    }
  });
});
