/** GET /v1/stats/verifications: counts of real sessions by bucket, provider, funnel step and status. */
import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { rollupVerificationStats } from "@/lib/stats/rollup";
import type { TStatsPeriod } from "@/lib/stats/endpoints";
import { getVerificationStats, settledBefore } from "@/lib/stats/verifications";
import { addMember, makeApp, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";
import { activateProviders, makeVerifyingApp } from "@/lib/testing/verifications";
import { sql } from "kysely";

const STATS = "/api/sandbox/v1/stats/verifications";
const DAY_MS = 24 * 3600 * 1000;

function verificationRow(id: string) {
  return kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** The UTC day `day` (YYYY-MM-DD) as the `date` column compares it. */
function dateOf(day: string) {
  return sql<Date>`${day}::date`;
}

/**
 * App A (passport): two completed, one failed, one cancelled by the integrator before the user
 * started, one expired, one open. App B (nl_digid): one completed two days ago, one open.
 */
async function seeded() {
  const t = await makeVerifyingApp();
  const key = t.ws.keys.sandbox;
  const b = await makeApp(key, "sandbox", "App B");
  await activateProviders(b.clientId, ["nl_digid"]);
  const bCreds = basic(b.clientId, b.clientSecret);
  const start = async (providerId: string, creds = t.creds) =>
    (await call("POST", "/api/sandbox/v1/verifications", { headers: creds, body: { providerId } })).body
      .verificationId as string;
  const simulate = (id: string, outcome: string, creds = t.creds) =>
    call("POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
      headers: creds,
      body: { outcome },
    });

  const c1 = await start("passport");
  await simulate(c1, "success");
  const c2 = await start("passport");
  await simulate(c2, "success");
  const failed = await start("passport");
  await simulate(failed, "failure");
  const cancelled = await start("passport");
  await t.cancel(cancelled);
  const expired = await start("passport");
  await simulate(expired, "expire");
  await start("passport");
  const c3 = await start("nl_digid", bCreds);
  await simulate(c3, "success", bCreds);
  await start("nl_digid", bCreds);

  // deterministic durations: 30 s and 90 s for passport, 10 s for nl_digid (created 2 days ago)
  for (const [id, seconds] of [
    [c1, 30],
    [c2, 90],
  ] as const) {
    const row = await verificationRow(id);
    await kysely()
      .updateTable("verifications")
      .set({ verifiedAt: new Date(row.createdAt.getTime() + seconds * 1000), updatedAt: new Date() })
      .where("id", "=", id)
      .execute();
  }
  const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
  await kysely()
    .updateTable("verifications")
    .set({
      createdAt: twoDaysAgo,
      verifiedAt: new Date(twoDaysAgo.getTime() + 10_000),
      updatedAt: new Date(),
    })
    .where("id", "=", c3)
    .execute();
  return { ...t, key, b, c1, failed, cancelled, twoDaysAgo };
}

describe("GET /v1/stats/verifications", () => {
  it("counts what was created, by status, day, provider and funnel step (7d default)", async () => {
    const s = await seeded();
    const res = await call("GET", STATS, { headers: bearer(s.key) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      period: "7d",
      bucket: "day",
      totals: { created: 8, completed: 3, failed: 1, cancelled: 1, expired: 1, open: 2 },
      funnel: { created: 8, started: 5, authenticated: 3, completed: 3 },
    });
    expect(res.body.providers).toEqual([
      {
        providerId: "passport",
        total: 6,
        completed: 2,
        completionRate: 2 / 6,
        medianSecondsToComplete: 60,
      },
      { providerId: "nl_digid", total: 2, completed: 1, completionRate: 0.5, medianSecondsToComplete: 10 },
    ]);

    const days = res.body.days as { date: string; created: number; completed: number }[];
    expect(days).toHaveLength(7);
    expect(days.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10));
    expect(days[0]!.date).toBe(new Date(Date.now() - 6 * DAY_MS).toISOString().slice(0, 10));
    expect(res.body.from).toBe(`${days[0]!.date}T00:00:00.000Z`);
    const twoDaysAgo = days.find((d) => d.date === s.twoDaysAgo.toISOString().slice(0, 10));
    expect(twoDaysAgo).toMatchObject({ created: 1, completed: 1, failed: 0 });
    const sum = (k: "created" | "completed" | "failed" | "cancelled" | "expired") =>
      days.reduce((n, d) => n + (d as unknown as Record<string, number>)[k]!, 0);
    expect([sum("created"), sum("completed"), sum("failed"), sum("cancelled"), sum("expired")]).toEqual([
      8, 3, 1, 1, 1,
    ]);
  });

  it("has 24 hour buckets for 24h and 30 days for 30d, and narrows to one app", async () => {
    const s = await seeded();
    const get = (q: string) => call("GET", `${STATS}?${q}`, { headers: bearer(s.key) });

    const day = await get("period=24h");
    expect(day.body).toMatchObject({ period: "24h", bucket: "hour" });
    expect(day.body.days).toHaveLength(24);
    expect(day.body.days.at(-1).date).toBe(`${new Date().toISOString().slice(0, 13)}:00`);
    // the session created two days ago is outside the last 24 hours
    expect(day.body.totals).toMatchObject({ created: 7, completed: 2 });
    expect(day.body.days.reduce((n: number, d: { created: number }) => n + d.created, 0)).toBe(7);

    const month = await get("period=30d");
    expect(month.body.days).toHaveLength(30);
    expect(month.body.totals.created).toBe(8);

    const onlyB = await get(`appId=${s.b.clientId}`);
    expect(onlyB.body.totals).toMatchObject({ created: 2, completed: 1, open: 1 });
    expect(onlyB.body.providers.map((p: { providerId: string }) => p.providerId)).toEqual(["nl_digid"]);
  });

  it("stamps the funnel on the transitions that reach each step", async () => {
    const s = await seeded();
    const row = verificationRow;
    const completed = await row(s.c1);
    expect(completed.startedAt).not.toBeNull();
    expect(completed.authenticatedAt).not.toBeNull();
    expect(completed.startedAt!.getTime()).toBeLessThanOrEqual(completed.authenticatedAt!.getTime());
    const failed = await row(s.failed);
    expect(failed.startedAt).not.toBeNull();
    expect(failed.authenticatedAt).toBeNull();
    const cancelled = await row(s.cancelled);
    expect(cancelled.startedAt).toBeNull();
    expect(cancelled.authenticatedAt).toBeNull();
  });

  it("shows nothing of other workspaces or environments; viewers may read it", async () => {
    await seeded();
    const stranger = await makeWorkspace();
    const theirs = await call("GET", STATS, { headers: bearer(stranger.keys.sandbox) });
    expect(theirs.status).toBe(200);
    expect(theirs.body.totals).toEqual({
      created: 0,
      completed: 0,
      failed: 0,
      cancelled: 0,
      expired: 0,
      open: 0,
    });
    expect(theirs.body.providers).toEqual([]);
    expect(theirs.body.days.every((d: { created: number }) => d.created === 0)).toBe(true);

    const s = await seeded();
    const production = await call("GET", "/api/production/v1/stats/verifications", {
      headers: bearer(s.ws.keys.production),
    });
    expect(production.body.totals.created).toBe(0);
    const viewer = await addMember(s.ws.workspaceId, "viewer");
    const asViewer = await call("GET", STATS, { headers: await sessionHeaders(viewer.userId) });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.totals.created).toBe(8);
  });

  it.each([
    ["period=1y", "period"],
    ["appId=", "appId"],
  ])("refuses %s naming %s", async (q, field) => {
    const ws = await makeWorkspace();
    const res = await call("GET", `${STATS}?${q}`, { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });
});

/** YYYY-MM-DD of the UTC day `n` days before the first unsettled day (n = 1: the last settled). */
function settledDay(n: number, now = new Date()): string {
  return new Date(settledBefore(now).getTime() - n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Moves a session to 06:00 UTC of `day` with every timestamp shifted alike, so it looks created
 * then; `seconds` sets verifiedAt that long after creation.
 */
async function place(id: string, day: string, seconds?: number) {
  const target = `${day}T06:00:00`;
  await sql`
    UPDATE verifications SET
      created_at = ${target}::timestamp,
      updated_at = updated_at - (created_at - ${target}::timestamp),
      expires_at = expires_at - (created_at - ${target}::timestamp),
      started_at = started_at - (created_at - ${target}::timestamp),
      authenticated_at = authenticated_at - (created_at - ${target}::timestamp),
      ended_at = ended_at - (created_at - ${target}::timestamp),
      verified_at = CASE WHEN ${seconds ?? null}::int IS NULL THEN verified_at - (created_at - ${target}::timestamp)
                         ELSE ${target}::timestamp + ${seconds ?? 0}::int * interval '1 second' END
    WHERE id = ${id}`.execute(kysely());
}

/** A workspace with apps A (passport) and B (nl_digid) and App API helpers. */
async function twoApps() {
  const t = await makeVerifyingApp();
  const b = await makeApp(t.ws.keys.sandbox, "sandbox", "App B");
  await activateProviders(b.clientId, ["nl_digid"]);
  const bCreds = basic(b.clientId, b.clientSecret);
  const start = async (providerId: string, creds = t.creds) =>
    (await call("POST", "/api/sandbox/v1/verifications", { headers: creds, body: { providerId } })).body
      .verificationId as string;
  const simulate = async (id: string, outcome: string, creds = t.creds) =>
    expect(
      (
        await call("POST", `/api/sandbox/v1/sandbox/verifications/${id}/simulate`, {
          headers: creds,
          body: { outcome },
        })
      ).status,
    ).toBe(200);
  /** a session of app A (passport) or B (nl_digid) ending with `outcome` (open: none) */
  const session = async (app: "A" | "B", outcome: "success" | "failure" | "expire" | "cancel" | "open") => {
    const creds = app === "A" ? t.creds : bCreds;
    const id = await start(app === "A" ? "passport" : "nl_digid", creds);
    if (outcome === "cancel") {
      expect((await call("DELETE", `/api/sandbox/v1/verifications/${id}`, { headers: creds })).status).toBe(
        204,
      );
    } else if (outcome !== "open") await simulate(id, outcome, creds);
    return id;
  };
  const workspaceId = t.ws.workspaceId;
  const key = t.ws.keys.sandbox;
  const scope = { workspaceId, environment: "sandbox" as const };
  return { ...t, b, key, workspaceId, scope, session };
}

type TStatsAnswer = Record<string, unknown>;

describe("GET /v1/stats/verifications with the per-day rollup", () => {
  const QUERIES = (appB: string) => ["period=7d", "period=30d", `period=30d&appId=${appB}`, "period=24h"];

  /** The endpoint's answers (without `to`, the time of the query). */
  async function answers(key: string, queries: string[]): Promise<TStatsAnswer[]> {
    const out: TStatsAnswer[] = [];
    for (const q of queries) {
      const res = await call("GET", `${STATS}?${q}`, { headers: bearer(key) });
      expect(res.status).toBe(200);
      out.push({ ...res.body, to: undefined });
    }
    return out;
  }

  /** The all-live computation of the same queries (no rollup rows read). */
  async function liveAnswers(scope: { workspaceId: string; environment: "sandbox" }, appB: string) {
    const out: TStatsAnswer[] = [];
    for (const q of QUERIES(appB)) {
      const params = new URLSearchParams(q);
      const stats = await getVerificationStats(
        kysely(),
        scope,
        { period: params.get("period") as TStatsPeriod, appId: params.get("appId") ?? undefined },
        new Date(),
        { useRollup: false },
      );
      out.push({ ...stats, to: undefined });
    }
    return out;
  }

  /** Sessions on several settled days (one of them with a session still open) and today. */
  async function history() {
    const t = await twoApps();
    const days = { recent: settledDay(1), d3: settledDay(3), d4: settledDay(4), d9: settledDay(9) };
    const put = async (
      day: string,
      app: "A" | "B",
      outcome: "success" | "failure" | "expire" | "cancel" | "open",
      seconds?: number,
    ) => place(await t.session(app, outcome), day, seconds);
    await put(days.recent, "A", "success", 40);
    await put(days.recent, "A", "failure");
    await put(days.d3, "A", "success", 20);
    await put(days.d3, "A", "success", 100);
    await put(days.d3, "B", "success", 5);
    await put(days.d3, "B", "cancel");
    await put(days.d4, "A", "expire");
    const openOnD4 = await t.session("A", "open");
    await place(openOnD4, days.d4);
    await put(days.d9, "B", "success", 7);
    await put(days.d9, "A", "success", 60);
    const today = await t.session("A", "success");
    await sql`
      UPDATE verifications SET verified_at = created_at + interval '30 seconds' WHERE id = ${today}`.execute(
      kysely(),
    );
    await t.session("A", "open");
    return { ...t, days, openOnD4 };
  }

  const rowsOf = (workspaceId: string, day: string) =>
    kysely()
      .selectFrom("verificationDailyStats")
      .selectAll()
      .where("workspaceId", "=", workspaceId)
      .where("day", "=", dateOf(day))
      .execute();

  it("answers exactly as the live scan before and after the rollup, and reads rolled-up days from it", async () => {
    const s = await history();
    const queries = QUERIES(s.b.clientId);
    const before = await answers(s.key, queries);
    expect(before).toEqual(await liveAnswers(s.scope, s.b.clientId));
    expect(before[1]).toMatchObject({
      totals: { created: 12, completed: 7, failed: 1, cancelled: 1, expired: 1, open: 2 },
      funnel: { created: 12, completed: 7 },
    });

    const result = await rollupVerificationStats(kysely(), { workspaceId: s.workspaceId });
    expect(result.days.map((d) => d.day)).toEqual(
      expect.arrayContaining([s.days.recent, s.days.d3, s.days.d4, s.days.d9]),
    );
    expect(result).toMatchObject({ missingLeft: 0, openLeft: 0 });
    const d3 = await rowsOf(s.workspaceId, s.days.d3);
    expect(
      d3.map((r) => [r.appId, r.providerId, r.created, r.completed, r.cancelled, r.open]).sort(),
    ).toEqual(
      [
        [s.app.clientId, "passport", 2, 2, 0, 0],
        [s.b.clientId, "nl_digid", 2, 1, 1, 0],
      ].sort(),
    );
    expect(d3.find((r) => r.providerId === "passport")!.completeSecondsHistogram).toEqual({
      "20": 1,
      "100": 1,
    });
    expect((await rowsOf(s.workspaceId, s.days.d4))[0]).toMatchObject({ created: 2, expired: 1, open: 1 });
    // today (unsettled) is never rolled up
    expect(await rowsOf(s.workspaceId, new Date().toISOString().slice(0, 10))).toEqual([]);

    const after = await answers(s.key, queries);
    expect(after).toEqual(before);

    // the settled days without open sessions are read from the rollup rows: altering one shows
    const month = (a: TStatsAnswer) => a.days as { date: string; created: number }[];
    const d3Created = month(after[1]!).find((d) => d.date === s.days.d3)!.created;
    await kysely()
      .updateTable("verificationDailyStats")
      .set((eb) => ({ created: eb("created", "+", 100), updatedAt: new Date() }))
      .where("workspaceId", "=", s.workspaceId)
      .where("day", "=", dateOf(s.days.d3))
      .where("providerId", "=", "passport")
      .execute();
    // … the day with an open session is not (its sessions may still change): it is scanned live
    await kysely()
      .updateTable("verificationDailyStats")
      .set((eb) => ({ created: eb("created", "+", 100), updatedAt: new Date() }))
      .where("workspaceId", "=", s.workspaceId)
      .where("day", "=", dateOf(s.days.d4))
      .execute();
    const altered = await answers(s.key, ["period=30d"]);
    expect(month(altered[0]!).find((d) => d.date === s.days.d3)!.created).toBe(d3Created + 100);
    expect(month(altered[0]!).find((d) => d.date === s.days.d4)!.created).toBe(2);
  });

  it("counts a session that changes after its day was rolled up with it open, then rolls the day up again", async () => {
    const s = await history();
    await rollupVerificationStats(kysely(), { workspaceId: s.workspaceId });
    expect((await rowsOf(s.workspaceId, s.days.d4))[0]).toMatchObject({ expired: 1, open: 1 });

    // the expiry job catches up with the open session of d4
    await sql`
      UPDATE verifications SET status = 'expired', status_reason = 'session_timed_out',
             ended_at = expires_at, updated_at = expires_at
       WHERE id = ${s.openOnD4}`.execute(kysely());
    const changed = await answers(s.key, QUERIES(s.b.clientId));
    expect(changed).toEqual(await liveAnswers(s.scope, s.b.clientId));
    const d4 = (changed[1]!.days as { date: string; expired: number }[]).find((d) => d.date === s.days.d4);
    expect(d4).toMatchObject({ created: 2, expired: 2 });

    // the next run recomputes the day (it had open sessions), now final and read from the rollup
    const again = await rollupVerificationStats(kysely(), { workspaceId: s.workspaceId });
    expect(again.days).toContainEqual({ day: s.days.d4, reason: "open", scopes: 1 });
    expect((await rowsOf(s.workspaceId, s.days.d4))[0]).toMatchObject({ expired: 2, open: 0 });
    expect(await answers(s.key, QUERIES(s.b.clientId))).toEqual(changed);
  });

  it("reads an unsettled day live even when rollup rows exist for it", async () => {
    const s = await twoApps();
    const today = new Date().toISOString().slice(0, 10);
    await s.session("A", "success");
    await s.session("A", "failure");
    // a run that judges settled days from 3 days ahead rolls today up, with no open session
    const ahead = await rollupVerificationStats(kysely(), {
      workspaceId: s.workspaceId,
      now: new Date(Date.now() + 3 * DAY_MS),
    });
    expect(ahead.days.map((d) => d.day)).toContain(today);
    expect(await rowsOf(s.workspaceId, today)).toMatchObject([
      { created: 2, completed: 1, failed: 1, open: 0 },
    ]);

    // sessions created and changed after that run are counted
    const late = await s.session("A", "open");
    await s.session("A", "cancel");
    const week = await answers(s.key, ["period=7d"]);
    expect((week[0]!.days as { date: string }[]).at(-1)).toMatchObject({
      date: today,
      created: 4,
      completed: 1,
      failed: 1,
      cancelled: 1,
    });
    const res = await call("POST", `/api/sandbox/v1/sandbox/verifications/${late}/simulate`, {
      headers: s.creds,
      body: { outcome: "success" },
    });
    expect(res.status).toBe(200);
    const [after] = await answers(s.key, ["period=7d"]);
    expect(after!.totals).toMatchObject({ created: 4, completed: 2, failed: 1, cancelled: 1, open: 0 });
    expect([after]).toEqual((await liveAnswers(s.scope, s.b.clientId)).filter((a) => a.period === "7d"));
  });

  it("rolls up in bounded runs: the recent settled days every run, then missing days newest first", async () => {
    const s = await twoApps();
    const now = new Date();
    const day = (n: number) => settledDay(n, now);
    // one completed session on each of these settled days, taking n seconds
    for (const n of [1, 2, 3, 5, 6, 8]) await place(await s.session(n % 2 ? "A" : "B", "success"), day(n), n);
    const statRows = () =>
      countRows(kysely().selectFrom("verificationDailyStats").where("workspaceId", "=", s.workspaceId));
    const run = async () => {
      const r = await rollupVerificationStats(kysely(), { workspaceId: s.workspaceId, now, maxDays: 3 });
      return { days: r.days.map((d) => [d.day, d.reason]), missingLeft: r.missingLeft };
    };
    const recent = [
      [day(1), "recent"],
      [day(2), "recent"],
    ];
    expect(await run()).toEqual({ days: [...recent, [day(3), "missing"]], missingLeft: 3 });
    expect(await run()).toEqual({ days: [...recent, [day(5), "missing"]], missingLeft: 2 });

    // a change to a recent day is picked up by the next run; settled, final days are not rescanned
    const alter = (n: number) =>
      kysely()
        .updateTable("verificationDailyStats")
        .set({ created: 50, updatedAt: new Date() })
        .where("workspaceId", "=", s.workspaceId)
        .where("day", "=", dateOf(day(n)))
        .execute();
    await alter(1);
    await alter(3);
    expect(await run()).toEqual({ days: [...recent, [day(6), "missing"]], missingLeft: 1 });
    expect((await rowsOf(s.workspaceId, day(1)))[0]!.created).toBe(1);
    expect((await rowsOf(s.workspaceId, day(3)))[0]!.created).toBe(50);

    expect(await run()).toEqual({ days: [...recent, [day(8), "missing"]], missingLeft: 0 });
    expect(await run()).toEqual({ days: recent, missingLeft: 0 });
    expect(await statRows()).toBe(6);
    const eight = (await rowsOf(s.workspaceId, day(8)))[0]!;
    expect(eight).toMatchObject({ created: 1, completed: 1, completeSecondsHistogram: { "8": 1 } });

    // rows older than the 30-day window are deleted
    await kysely()
      .insertInto("verificationDailyStats")
      .values({
        workspaceId: s.workspaceId,
        environment: "sandbox",
        appId: s.app.clientId,
        providerId: "passport",
        // the day before the first day of the 30-day window
        day: new Date(now.getTime() - 30 * DAY_MS).toISOString().slice(0, 10),
        created: 1,
        completed: 1,
        failed: 0,
        cancelled: 0,
        expired: 0,
        open: 0,
        started: 1,
        authenticated: 1,
        completeSecondsHistogram: JSON.stringify({ "1": 1 }),
        updatedAt: new Date(),
      })
      .execute();
    await run();
    expect(await statRows()).toBe(6);
  });

  it("is scheduled hourly", async () => {
    const { CRONTAB, jobNamed } = await import("@/lib/jobs/handlers");
    expect(typeof (await jobNamed("verification_stats_rollup")!.handler())).toBe("function");
    expect(CRONTAB).toContainEqual(expect.stringMatching(/^\d+ \* \* \* \* verification_stats_rollup$/));
  });
});
