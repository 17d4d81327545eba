import { describe, expect, it } from "vitest";
import { makeApp, makeOperator, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { participate, requestProductionTest, scheduleProductionTest } from "@/lib/testing/production-tests";
import { bearer, call } from "@/lib/testing/router";

const base = (env = "sandbox") => `/api/${env}/v1/operator/production-tests`;

async function setup(env: "sandbox" | "production" = "sandbox") {
  const operator = await makeOperator();
  const ws = await makeWorkspace("Campaign workspace");
  const app = await makeApp(ws.keys[env], env, "Campaign app");
  const req = await requestProductionTest(ws.keys[env], app.clientId, env, {
    title: "Berlin launch",
    maxStampClaims: 5,
  });
  const get = (qs = "", id = req.request.id, e: string = env) =>
    call("GET", `${base(e)}/${id}${qs}`, { headers: bearer(operator.operatorKey) });
  return { operator, ws, app, requestId: req.request.id, get };
}

describe("GET /v1/operator/production-tests/{request_id}", () => {
  it("shows a pending request with its app and workspace, no challenge yet", async () => {
    const { ws, app, requestId, get } = await setup();
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "request",
      challenge: null,
      request: {
        id: requestId,
        status: "pending",
        clientId: app.clientId,
        payload: { title: "Berlin launch" },
      },
      app: { clientId: app.clientId, name: "Campaign app", workspaceId: ws.workspaceId },
      workspace: { workspaceId: ws.workspaceId, name: "Campaign workspace" },
      stats: null,
      participations: { data: [], total: 0, limit: 50, offset: 0, hasMore: false },
    });
  });

  it("shows the challenge, its figures and participations with stamps, newest first and paginated", async () => {
    const { operator, requestId, get } = await setup();
    const scheduled = await scheduleProductionTest(operator.operatorKey, requestId);
    const challengeId = scheduled.challenge.id;
    const p1 = await participate(challengeId, { claim: true, verificationId: null });
    const p2 = await participate(challengeId, { successful: false });
    const p3 = await participate(challengeId, { claim: true });

    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "challenge",
      challenge: { id: challengeId, title: "Berlin launch", isActive: true },
      request: { id: requestId, status: "scheduled", challengeId },
      stats: {
        totalParticipations: 3,
        totalClaims: 2,
        providerBreakdown: [{ providerId: "passport", claimCount: 2 }],
      },
      participations: { total: 3, hasMore: false },
    });
    expect(res.body.participations.data.map((p: { id: string }) => p.id)).toEqual([
      p3.participation.id,
      p2.participation.id,
      p1.participation.id,
    ]);
    expect(res.body.participations.data[1]).toEqual({
      id: p2.participation.id,
      verificationId: null,
      providerId: "passport",
      providerName: expect.any(String),
      successful: false,
      claimed: false,
      createdAt: expect.any(String),
    });

    const stamps = await get("?claimed=true");
    expect(stamps.body.participations.data.map((p: { id: string }) => p.id)).toEqual([
      p3.participation.id,
      p1.participation.id,
    ]);
    expect(stamps.body.stats.totalParticipations).toBe(3); // the figures are the whole challenge's
    expect((await get("?claimed=false")).body.participations.total).toBe(1);

    const page = await get("?limit=1&offset=1");
    expect(page.body.participations).toMatchObject({ total: 3, limit: 1, offset: 1, hasMore: true });
    expect(page.body.participations.data[0].id).toBe(p2.participation.id);
  });

  it("is 404 in the other environment, for unknown ids and for deleted apps", async () => {
    const { ws, app, requestId, get } = await setup("production");
    expect((await get("", requestId, "production")).status).toBe(200);
    expect((await get("", requestId, "sandbox")).status).toBe(404);
    expect((await get("", "ptr_unknown")).status).toBe(404);
    await call("DELETE", `/api/production/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.production) });
    const gone = await get();
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("RESOURCE_NOT_FOUND");
  });

  it("refuses bad query values naming the field", async () => {
    const { get } = await setup();
    for (const [qs, field] of [
      ["?claimed=yes", "claimed"],
      ["?limit=101", "limit"],
      ["?offset=-1", "offset"],
    ] as const) {
      const res = await get(qs);
      expect(res.status, qs).toBe(400);
      expect(res.body.error.details[0].path, qs).toBe(field);
    }
  });

  it("401 without credentials, with a workspace key or a workspace member's session", async () => {
    const { ws, requestId } = await setup();
    const url = `${base()}/${requestId}`;
    expect((await call("GET", url)).status).toBe(401);
    for (const key of [ws.keys.sandbox, ws.keys.production]) {
      const res = await call("GET", url, { headers: bearer(key) });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("INVALID_OPERATOR_KEY");
    }
    const session = await call("GET", url, { headers: await sessionHeaders(ws.userId) });
    expect([401, 403]).toContain(session.status);
  });
});
