/** GET /v1/request-logs and the request log's retention purge. */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { purgeRequestLogs } from "@/lib/request-log/purge";
import { flushRequestLog } from "@/lib/request-log/writer";
import { addMember, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";
import { makeVerifyingApp } from "@/lib/testing/verifications";

const LOGS = "/api/sandbox/v1/request-logs";
type Row = { method: string; path: string; status: number; credentialType: string };
const summary = (body: { data: Row[] }) => body.data.map((r) => `${r.method} ${r.path} ${r.status}`);

/** Workspace key, App credentials and a console session each make a few calls. */
async function seeded() {
  const t = await makeVerifyingApp();
  const key = t.ws.keys.sandbox;
  const base = "/api/sandbox/v1";
  const id = (await t.start({ providerId: "passport" })).body.verificationId as string;
  await t.status(id);
  await t.status("ver_unknown");
  await call("GET", `${base}/apps/${t.app.clientId}`, { headers: bearer(key) });
  await call("GET", `${base}/apps?limit=0`, { headers: bearer(key) });
  await call("GET", `${base}/workspace`, { headers: await sessionHeaders(t.ws.userId) });
  await flushRequestLog();
  const keyRow = await kysely()
    .selectFrom("apiKeys")
    .selectAll()
    .where("workspaceId", "=", t.ws.workspaceId)
    .where("environment", "=", "sandbox")
    .executeTakeFirstOrThrow();
  return { ...t, key, id, base, keyRow };
}

describe("GET /v1/request-logs", () => {
  it("lists the workspace's requests in this environment, newest first, with credential and ids", async () => {
    const s = await seeded();
    const res = await call("GET", LOGS, { headers: bearer(s.key) });
    expect(res.status).toBe(200);
    // makeApp's POST /apps comes first
    expect(summary(res.body)).toEqual([
      `GET ${s.base}/workspace 200`,
      `GET ${s.base}/apps 400`,
      `GET ${s.base}/apps/${s.app.clientId} 200`,
      `GET ${s.base}/verifications/ver_unknown 404`,
      `GET ${s.base}/verifications/${s.id} 200`,
      `POST ${s.base}/verifications 201`,
      `POST ${s.base}/apps 201`,
    ]);
    const [session, badList, , notFound, , created] = res.body.data;
    expect(session).toMatchObject({
      credentialType: "session",
      credentialId: s.ws.userId,
      environment: "sandbox",
      errorCode: null,
    });
    expect(badList).toMatchObject({
      credentialType: "api_key",
      credentialId: s.keyRow.id,
      credentialName: s.keyRow.name,
      errorCode: "VALIDATION_ERROR",
    });
    expect(notFound).toMatchObject({ errorCode: "RESOURCE_NOT_FOUND", verificationId: "ver_unknown" });
    expect(created).toMatchObject({
      credentialType: "app",
      credentialId: s.app.clientId,
      appId: s.app.clientId,
      verificationId: s.id,
    });
    expect(created.requestId).toMatch(/^req_/);
    expect(typeof created.durationMs).toBe("number");
  });

  it("filters by status class, method, path, app, credential, verification and time; paginates", async () => {
    const s = await seeded();
    const get = (q: string) => call("GET", `${LOGS}?${q}`, { headers: bearer(s.key) });

    expect(summary((await get("statusClass=4xx")).body)).toEqual([
      `GET ${s.base}/apps 400`,
      `GET ${s.base}/verifications/ver_unknown 404`,
    ]);
    expect((await get("statusClass=5xx")).body.total).toBe(0);
    expect(summary((await get("method=post")).body)).toEqual([
      `POST ${s.base}/verifications 201`,
      `POST ${s.base}/apps 201`,
    ]);
    expect((await get("path=/verifications")).body.total).toBe(3);
    // LIKE wildcards in the substring are literal
    expect((await get("path=%25")).body.total).toBe(0);
    expect((await get("path=v1_apps")).body.total).toBe(0);
    expect((await get("path=v1/apps")).body.total).toBe(3);
    expect((await get(`appId=${s.app.clientId}`)).body.total).toBe(4);
    expect((await get(`credentialId=${s.keyRow.id}`)).body.total).toBe(3);
    expect(summary((await get(`verificationId=${s.id}`)).body)).toEqual([
      `GET ${s.base}/verifications/${s.id} 200`,
      `POST ${s.base}/verifications 201`,
    ]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(`from=${future}`)).body.total).toBe(0);

    const first = await get("limit=5");
    expect(first.body).toMatchObject({ total: 7, limit: 5, offset: 0, hasMore: true });
    const rest = await get("limit=5&offset=5");
    expect(rest.body).toMatchObject({ total: 7, hasMore: false });
    expect(rest.body.data).toHaveLength(2);
  });

  it.each([
    ["statusClass=6xx", "statusClass"],
    ["method=FETCH", "method"],
    ["path=", "path"],
    ["to=tomorrow", "to"],
    ["offset=x", "offset"],
  ])("refuses %s naming %s", async (q, field) => {
    const ws = await makeWorkspace();
    const res = await call("GET", `${LOGS}?${q}`, { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("shows nothing of other workspaces or the other environment; viewers may read", async () => {
    const s = await seeded();
    const stranger = await makeWorkspace();
    const theirs = await call("GET", `${LOGS}?appId=${s.app.clientId}`, {
      headers: bearer(stranger.keys.sandbox),
    });
    expect(theirs.body.total).toBe(0);
    const prod = await call("GET", "/api/production/v1/request-logs", {
      headers: bearer(s.ws.keys.production),
    });
    expect(prod.status).toBe(200);
    expect(prod.body.total).toBe(0);
    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const asViewer = await call("GET", LOGS, { headers: await sessionHeaders(viewer.userId) });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.total).toBeGreaterThanOrEqual(7);
  });
});

describe("request log retention", () => {
  it("deletes rows older than the retention period in bounded batches and keeps fresh ones", async () => {
    const ws = await makeWorkspace();
    const db = kysely();
    const day = 24 * 3600 * 1000;
    const row = (ageDays: number) => ({
      id: newId("req"),
      workspaceId: ws.workspaceId,
      environment: "sandbox" as const,
      method: "GET",
      path: "/api/sandbox/v1/apps",
      status: 200,
      durationMs: 3,
      credentialType: "api_key",
      createdAt: new Date(Date.now() - ageDays * day),
    });
    const old = Array.from({ length: 23 }, (_, i) => row(15 + i / 10));
    const fresh = [row(13.9), row(1), row(0)];
    await db
      .insertInto("apiRequestLogs")
      .values([...old, ...fresh])
      .execute();

    const deleted = await purgeRequestLogs(db, { batchSize: 5 });
    expect(deleted).toBeGreaterThanOrEqual(old.length);
    const ids = () =>
      db.selectFrom("apiRequestLogs").select("id").where("workspaceId", "=", ws.workspaceId).execute();
    const left = await ids();
    expect(left.map((r) => r.id).sort()).toEqual(fresh.map((r) => r.id).sort());

    process.env.IDV_REQUEST_LOG_RETENTION_DAYS = "0.5";
    try {
      await purgeRequestLogs(db);
    } finally {
      delete process.env.IDV_REQUEST_LOG_RETENTION_DAYS;
    }
    const kept = await ids();
    expect(kept.map((r) => r.id)).toEqual([fresh[2]!.id]);
  });

  it("is scheduled hourly", async () => {
    const { CRONTAB, jobNamed } = await import("@/lib/jobs/handlers");
    expect(typeof (await jobNamed("request_log_purge")!.handler())).toBe("function");
    expect(CRONTAB).toContainEqual(expect.stringMatching(/^\d+ \* \* \* \* request_log_purge$/));
  });
});
