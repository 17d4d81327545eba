import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { makeApp, makeOperator, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { requestProductionTest, scheduleProductionTest } from "@/lib/testing/production-tests";
import { bearer, call } from "@/lib/testing/router";

const base = (env = "sandbox") => `/api/${env}/v1/operator/audit-events`;
const DAY = 24 * 3600 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

/** Two operators acting on requests of two workspaces, in both environments. */
async function setup() {
  const first = await makeOperator();
  const second = await makeOperator();
  const a = await makeWorkspace("Audit A");
  const b = await makeWorkspace("Audit B");
  const appA = await makeApp(a.keys.sandbox);
  const appB = await makeApp(b.keys.sandbox);
  const prodB = await makeApp(b.keys.production, "production");
  const r1 = await requestProductionTest(a.keys.sandbox, appA.clientId);
  const r2 = await requestProductionTest(b.keys.sandbox, appB.clientId);
  const r3 = await requestProductionTest(b.keys.production, prodB.clientId, "production");
  await scheduleProductionTest(first.operatorKey, r1.request.id);
  const failed = await call("POST", `/api/sandbox/v1/operator/production-tests/${r2.request.id}/fail`, {
    headers: bearer(first.operatorKey),
    body: { reason: "Provider not live yet" },
  });
  expect(failed.status).toBe(200);
  await scheduleProductionTest(second.operatorKey, r3.request.id, "production");
  return { first, second, a, b, r1, r2, r3, headers: bearer(second.operatorKey) };
}

describe("GET /v1/operator/audit-events", () => {
  it("lists operator actions across workspaces, newest first, with the operator's email", async () => {
    const s = await setup();
    const res = await call("GET", `${base()}?operatorId=${s.first.userId}`, { headers: s.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, limit: 50, offset: 0, hasMore: false });
    expect(res.body.data.map((e: { action: string }) => e.action)).toEqual([
      "production_test.failed",
      "production_test.scheduled",
    ]);
    const { email } = await kysely()
      .selectFrom("users")
      .select("email")
      .where("id", "=", s.first.userId)
      .executeTakeFirstOrThrow();
    expect(res.body.data[0]).toMatchObject({
      actor: { type: "operator", id: s.first.userId, display: email },
      targetType: "production_test_request",
      targetId: s.r2.request.id,
      workspaceId: s.b.workspaceId,
      environment: "sandbox",
      data: { reason: "Provider not live yet" },
    });
    expect(res.body.data[1]).toMatchObject({ targetId: s.r1.request.id, workspaceId: s.a.workspaceId });

    // only operator actors: the integrators' requests (api_key) are not listed
    const all = await call("GET", `${base()}?limit=100`, { headers: s.headers });
    expect(all.body.data.every((e: { actor: { type: string } }) => e.actor.type === "operator")).toBe(true);
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    const times = all.body.data.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it("keeps environments apart", async () => {
    const s = await setup();
    const sandbox = await call("GET", `${base()}?operatorId=${s.second.userId}`, { headers: s.headers });
    expect(sandbox.body.total).toBe(0);
    const production = await call("GET", `${base("production")}?operatorId=${s.second.userId}`, {
      headers: s.headers,
    });
    expect(production.body.data.map((e: { targetId: string }) => e.targetId)).toEqual([s.r3.request.id]);
    const firstInProduction = await call("GET", `${base("production")}?operatorId=${s.first.userId}`, {
      headers: s.headers,
    });
    expect(firstInProduction.body.total).toBe(0);
  });

  it("filters by action (exact or prefix) and date, and paginates", async () => {
    const s = await setup();
    const q = (qs: string) =>
      call("GET", `${base()}?operatorId=${s.first.userId}&${qs}`, { headers: s.headers });
    expect(
      (await q("action=production_test.scheduled")).body.data.map((e: { targetId: string }) => e.targetId),
    ).toEqual([s.r1.request.id]);
    expect((await q("action=production_test.*")).body.total).toBe(2);
    expect((await q("action=activation.*")).body.total).toBe(0);
    expect((await q("action=production_test")).body.total).toBe(0);

    expect((await q(`from=${day(0)}`)).body.total).toBe(2);
    expect((await q(`from=${day(1)}`)).body.total).toBe(0);
    expect((await q(`to=${day(0)}`)).body.total).toBe(2); // a date-only `to` includes its day
    expect((await q(`to=${day(-1)}`)).body.total).toBe(0);
    expect(
      (await q(`from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.total,
    ).toBe(0);

    const first = await q("limit=1");
    expect(first.body).toMatchObject({ total: 2, limit: 1, offset: 0, hasMore: true });
    expect(first.body.data[0].action).toBe("production_test.failed");
    const second = await q("limit=1&offset=1");
    expect(second.body).toMatchObject({ total: 2, hasMore: false });
    expect(second.body.data[0].action).toBe("production_test.scheduled");
  });

  it("refuses bad filters naming the field", async () => {
    const operator = await makeOperator();
    for (const [qs, field] of [
      ["from=yesterday", "from"],
      ["to=2026-02-30", "to"],
      [`from=${day(1)}&to=${day(-1)}`, "to"],
      ["action=app created", "action"],
      ["operatorId=", "operatorId"],
      ["limit=0", "limit"],
      ["offset=-3", "offset"],
    ] as const) {
      const res = await call("GET", `${base()}?${qs}`, { headers: bearer(operator.operatorKey) });
      expect(res.status, qs).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0].path, qs).toBe(field);
    }
  });

  it("401 without credentials, with a workspace key or a workspace member's session", async () => {
    const ws = await makeWorkspace();
    expect((await call("GET", base())).status).toBe(401);
    for (const key of [ws.keys.sandbox, ws.keys.production]) {
      const res = await call("GET", base(), { headers: bearer(key) });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("INVALID_OPERATOR_KEY");
    }
    const session = await call("GET", base(), { headers: await sessionHeaders(ws.userId) });
    expect([401, 403]).toContain(session.status);
  });
});
