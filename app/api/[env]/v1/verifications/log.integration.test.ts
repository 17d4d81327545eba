/**
 * The workspace's view of verification sessions: the list, one session's activity, revealing its
 * claims, cancelling it — filters, pagination, roles and isolation between workspaces and
 * environments.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { flushRequestLog } from "@/lib/request-log/writer";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";
import { eventTypes, makeVerifyingApp } from "@/lib/testing/verifications";
import { purgeExpiredPersonalData } from "@/lib/verifications/personal-data";

const LIST = "/api/sandbox/v1/verifications";
const ids = (body: { data: { verificationId: string }[] }) => body.data.map((v) => v.verificationId);

/** A workspace with two apps and sessions ending in each status. */
async function seeded() {
  const t = await makeVerifyingApp(["nl_digid"]);
  const key = t.ws.keys.sandbox;
  const other = await makeApp(key, "sandbox", "Second app");
  const otherCreds = basic(other.clientId, other.clientSecret);
  const start = async (body: Record<string, unknown>, creds = t.creds) => {
    const res = await call("POST", LIST, { headers: creds, body });
    expect(res.status).toBe(201);
    return res.body.verificationId as string;
  };
  const completed = await start({ providerId: "passport" });
  await t.simulate(completed, { outcome: "success", identity: "passport-anna-eriksson" });
  const failed = await start({ providerId: "nl_digid" });
  await t.simulate(failed, { outcome: "failure" });
  const cancelled = await start({ providerId: "passport" });
  await t.cancel(cancelled);
  const open = await start({ providerId: "passport" }, otherCreds);
  return { ...t, key, other, completed, failed, cancelled, open };
}

describe("GET /v1/verifications (workspace)", () => {
  it("lists the workspace's sessions newest first, with app names and no personal data", async () => {
    const s = await seeded();
    const res = await call("GET", LIST, { headers: bearer(s.key) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, limit: 20, offset: 0, hasMore: false });
    expect(ids(res.body)).toEqual([s.open, s.cancelled, s.failed, s.completed]);
    const [open, cancelled, failed, completed] = res.body.data;
    expect(open).toMatchObject({
      clientId: s.other.clientId,
      appName: "Second app",
      status: "awaiting_user_action",
      statusReason: null,
      providerId: "passport",
      flowType: "qr",
      channel: "oidc",
      loa: null,
      verifiedAt: null,
      endedAt: null,
    });
    expect(cancelled).toMatchObject({ status: "cancelled", statusReason: "cancelled_by_integrator" });
    expect(cancelled.endedAt).not.toBeNull();
    expect(failed).toMatchObject({ status: "failed", providerId: "nl_digid", appName: "Test app" });
    expect(completed).toMatchObject({ status: "completed", loa: 2, clientId: s.app.clientId });
    expect(completed.verifiedAt).not.toBeNull();
    expect(res.text).not.toContain("Eriksson");
  });

  it("filters by status (one or several), provider, app and creation time, and paginates", async () => {
    const s = await seeded();
    const get = (q: string) => call("GET", `${LIST}?${q}`, { headers: bearer(s.key) });

    expect(ids((await get("status=completed")).body)).toEqual([s.completed]);
    const several = await get("status=failed,cancelled");
    expect(several.body.total).toBe(2);
    expect(ids(several.body)).toEqual([s.cancelled, s.failed]);
    expect(ids((await get("providerId=nl_digid")).body)).toEqual([s.failed]);
    expect(ids((await get(`appId=${s.other.clientId}`)).body)).toEqual([s.open]);
    expect((await get("providerId=se_bankid")).body).toMatchObject({ total: 0, data: [] });

    // the completed session was created three days ago
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    await kysely()
      .updateTable("verifications")
      .set({ createdAt: threeDaysAgo, updatedAt: new Date() })
      .where("id", "=", s.completed)
      .execute();
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    expect(ids((await get(`from=${yesterday}`)).body)).toEqual([s.open, s.cancelled, s.failed]);
    expect(ids((await get(`to=${encodeURIComponent(yesterday)}`)).body)).toEqual([s.completed]);
    // a date-only `to` includes that whole day
    const day = threeDaysAgo.toISOString().slice(0, 10);
    expect(ids((await get(`from=${day}&to=${day}`)).body)).toEqual([s.completed]);

    const first = await get("limit=2");
    expect(first.body).toMatchObject({ total: 4, limit: 2, offset: 0, hasMore: true });
    expect(ids(first.body)).toEqual([s.open, s.cancelled]);
    const second = await get("limit=2&offset=2");
    expect(second.body).toMatchObject({ total: 4, limit: 2, offset: 2, hasMore: false });
    expect(ids(second.body)).toEqual([s.failed, s.completed]);
  });

  it.each([
    ["status=done", "status"],
    ["status=completed,nope", "status"],
    ["status=", "status"],
    ["from=yesterday", "from"],
    ["to=2026-02-30", "to"],
    ["from=2026-01-01T10:00:00", "from"],
    ["from=2026-02-01&to=2026-01-01", "to"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["offset=-1", "offset"],
  ])("refuses %s naming %s", async (q, field) => {
    const ws = await makeWorkspace();
    const res = await call("GET", `${LIST}?${q}`, { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it("shows nothing of other workspaces or the other environment", async () => {
    const s = await seeded();
    const stranger = await makeWorkspace();
    const theirs = await call("GET", LIST, { headers: bearer(stranger.keys.sandbox) });
    expect(theirs.body).toMatchObject({ total: 0, data: [] });
    const production = await call("GET", "/api/production/v1/verifications", {
      headers: bearer(s.ws.keys.production),
    });
    expect(production.status).toBe(200);
    expect(production.body.total).toBe(0);
  });

  it("is readable by every role through the console session, and refuses App credentials", async () => {
    const s = await seeded();
    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const res = await call("GET", LIST, { headers: await sessionHeaders(viewer.userId) });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    const asApp = await call("GET", LIST, { headers: s.creds });
    expect(asApp.status).toBe(401);
    expect((await call("GET", LIST)).status).toBe(401);
  });
});

describe("GET /v1/verifications/{id}/activity", () => {
  it("shows the session, its events, webhook deliveries and the API requests that named it", async () => {
    const t = await makeVerifyingApp();
    const key = t.ws.keys.sandbox;
    const hook = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}/webhook-config`, {
      headers: bearer(key),
      body: {
        url: "https://hooks.example.com/idv",
        enabled: true,
        events: ["verification.created", "verification.completed"],
      },
    });
    expect(hook.status).toBe(200);
    const started = await t.start({ providerId: "passport" });
    const id = started.body.verificationId as string;
    await t.status(id);
    await t.simulate(id, { outcome: "success" });
    await flushRequestLog();

    const res = await call("GET", `/api/sandbox/v1/verifications/${id}/activity`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body.verification).toMatchObject({
      verificationId: id,
      clientId: t.app.clientId,
      appName: "Test app",
      status: "completed",
      workflowId: t.app.defaultWorkflowId,
      redirectUri: null,
      personalData: { available: true, deletedAt: null },
    });
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(await eventTypes(id));
    expect(res.body.events[1]).toMatchObject({
      type: "verification.requested",
      metadata: { channel: "oidc", flowType: "qr" },
    });
    expect(res.body.deliveries.map((d: { eventType: string }) => d.eventType)).toEqual([
      "verification.created",
      "verification.completed",
    ]);
    const createdEvent = res.body.events.find((e: { type: string }) => e.type === "verification.created");
    expect(res.body.deliveries[0].eventId).toBe(createdEvent.eventId);

    // the create names the new session in the request log, like the calls on its path
    expect(
      res.body.requests.map((r: { method: string; path: string; status: number }) => [
        r.method,
        r.path,
        r.status,
      ]),
    ).toEqual([
      ["POST", "/api/sandbox/v1/verifications", 201],
      ["GET", `/api/sandbox/v1/verifications/${id}`, 200],
      ["POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, 200],
    ]);
    expect(res.body.requests[0]).toMatchObject({
      requestId: started.headers.get("x-request-id"),
      credentialType: "app",
      errorCode: null,
    });
    expect(res.text).not.toContain("Eriksson");
  });

  it("is 404 for another workspace's session and in the other environment", async () => {
    const t = await makeVerifyingApp();
    const id = (await t.start({ providerId: "passport" })).body.verificationId;
    const stranger = await makeWorkspace();
    const theirs = await call("GET", `/api/sandbox/v1/verifications/${id}/activity`, {
      headers: bearer(stranger.keys.sandbox),
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const production = await call("GET", `/api/production/v1/verifications/${id}/activity`, {
      headers: bearer(t.ws.keys.production),
    });
    expect(production.status).toBe(404);
  });
});

describe("POST /v1/verifications/{id}/reveal", () => {
  async function completedSession() {
    const t = await makeVerifyingApp();
    const id = (await t.start({ providerId: "passport" })).body.verificationId as string;
    await t.simulate(id, { outcome: "success", identity: "passport-anna-eriksson" });
    return { ...t, id, reveal: `/api/sandbox/v1/verifications/${id}/reveal` };
  }

  it("returns the userinfo to an admin and audits who revealed it, without the values", async () => {
    const s = await completedSession();
    const admin = await addMember(s.ws.workspaceId, "admin");
    const res = await call("POST", s.reveal, { headers: await sessionHeaders(admin.userId) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await s.userinfo(s.id)).body);
    expect(res.body.user).toMatchObject({ given_name: "Anna", family_name: "Eriksson" });

    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", s.id)
      .where("action", "=", "verification.personal_data_revealed")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      workspaceId: s.ws.workspaceId,
      environment: "sandbox",
      actorType: "user",
      actorId: admin.userId,
      targetType: "verification",
      requestId: res.headers.get("x-request-id"),
    });
    expect(JSON.stringify(audit[0]!.data)).not.toMatch(/Anna|Eriksson/);

    // an API key may reveal too (it acts as admin)
    expect((await call("POST", s.reveal, { headers: bearer(s.ws.keys.sandbox) })).status).toBe(200);
  });

  it("refuses viewers and developers (403) and writes no audit entry", async () => {
    const s = await completedSession();
    for (const role of ["viewer", "developer"] as const) {
      const member = await addMember(s.ws.workspaceId, role);
      const res = await call("POST", s.reveal, { headers: await sessionHeaders(member.userId) });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("RESOURCE_FORBIDDEN");
      expect(res.text).not.toContain("Eriksson");
    }
    expect(await countRows(kysely().selectFrom("auditEvents").where("targetId", "=", s.id))).toBe(0);
  });

  it("is 409 before completion, 410 once retention deleted the data, 404 across workspaces", async () => {
    const t = await makeVerifyingApp();
    const key = bearer(t.ws.keys.sandbox);
    const open = (await t.start({ providerId: "passport" })).body.verificationId;
    const early = await call("POST", `/api/sandbox/v1/verifications/${open}/reveal`, { headers: key });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("VERIFICATION_NOT_COMPLETED");

    const s = await completedSession();
    const stranger = await makeWorkspace();
    expect((await call("POST", s.reveal, { headers: bearer(stranger.keys.sandbox) })).status).toBe(404);

    // the session ended longer ago than the retention period
    await kysely()
      .updateTable("verifications")
      .set({ endedAt: new Date(Date.now() - 31 * 24 * 3600 * 1000), updatedAt: new Date() })
      .where("id", "=", s.id)
      .execute();
    await purgeExpiredPersonalData(kysely());
    const gone = await call("POST", s.reveal, { headers: bearer(s.ws.keys.sandbox) });
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe("VERIFICATION_DATA_DELETED");
    const activity = await call("GET", `/api/sandbox/v1/verifications/${s.id}/activity`, {
      headers: bearer(s.ws.keys.sandbox),
    });
    expect(activity.body.verification.personalData.available).toBe(false);
    expect(activity.body.verification.personalData.deletedAt).not.toBeNull();
  });

  it("keeps the App API userinfo closed to workspace keys", async () => {
    const s = await completedSession();
    const res = await call("GET", `/api/sandbox/v1/verifications/${s.id}/userinfo`, {
      headers: bearer(s.ws.keys.sandbox),
    });
    expect(res.status).toBe(401);
  });
});

describe("POST /v1/verifications/{id}/cancel", () => {
  it("cancels an open session like DELETE does: event, personal data gone, audited", async () => {
    const t = await makeVerifyingApp();
    const id = (await t.start({ providerId: "passport" })).body.verificationId;
    const developer = await addMember(t.ws.workspaceId, "developer");
    const res = await call("POST", `/api/sandbox/v1/verifications/${id}/cancel`, {
      headers: await sessionHeaders(developer.userId),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verificationId: id,
      status: "cancelled",
      reason: "cancelled_by_integrator",
    });
    expect((await t.status(id)).body.status).toBe("cancelled");
    expect((await eventTypes(id)).at(-1)).toBe("verification.workflow.cancelled");
    const row = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.personalDataDeletedAt).not.toBeNull();
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", id)
      .where("action", "=", "verification.cancelled")
      .executeTakeFirst();
    expect(audit).toMatchObject({ actorType: "user", actorId: developer.userId });
  });

  it("refuses a terminal session (400 VERIFICATION_TERMINAL), viewers, other workspaces and environments", async () => {
    const t = await makeVerifyingApp();
    const key = bearer(t.ws.keys.sandbox);
    const done = (await t.start({ providerId: "passport" })).body.verificationId;
    await t.simulate(done, { outcome: "success" });
    const terminal = await call("POST", `/api/sandbox/v1/verifications/${done}/cancel`, { headers: key });
    expect(terminal.status).toBe(400);
    expect(terminal.body.error.code).toBe("VERIFICATION_TERMINAL");
    expect((await t.status(done)).body.status).toBe("completed");

    const open = (await t.start({ providerId: "passport" })).body.verificationId;
    const path = `/api/sandbox/v1/verifications/${open}/cancel`;
    const viewer = await addMember(t.ws.workspaceId, "viewer");
    expect((await call("POST", path, { headers: await sessionHeaders(viewer.userId) })).status).toBe(403);
    const stranger = await makeWorkspace();
    expect((await call("POST", path, { headers: bearer(stranger.keys.sandbox) })).status).toBe(404);
    const production = `/api/production/v1/verifications/${open}/cancel`;
    expect((await call("POST", production, { headers: bearer(t.ws.keys.production) })).status).toBe(404);
    // a cookie write without a same-origin Origin is refused (CSRF)
    const owner = await sessionHeaders(t.ws.userId, { origin: null });
    expect((await call("POST", path, { headers: owner })).status).toBe(403);
    expect((await t.status(open)).body.status).toBe("awaiting_user_action");
  });
});

describe("the request log of App API calls", () => {
  it("carries the verification id of a create and of calls on the session's path", async () => {
    const t = await makeVerifyingApp();
    const created = await t.start({ providerId: "passport" });
    const id = created.body.verificationId;
    await t.status(id);
    await flushRequestLog();
    const rows = await kysely()
      .selectFrom("apiRequestLogs")
      .selectAll()
      .where("appId", "=", t.app.clientId)
      .orderBy("createdAt", "asc")
      .orderBy("id", "asc")
      .execute();
    expect(rows.map((r) => [r.method, r.verificationId, r.credentialType])).toEqual([
      ["POST", id, "app"],
      ["GET", id, "app"],
    ]);
  });
});
