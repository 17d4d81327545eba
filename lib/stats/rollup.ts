/**
 * Per-day rollup of verification statistics (verification_daily_stats), so that
 * GET /v1/stats/verifications reads finished days from a small table instead of scanning every
 * session of a 30-day window.
 * Rules:
 * - one row per (workspace, environment, day, app, provider) with the day's counts by status, the
 *   funnel stamps, `open` (not yet terminal) and a histogram {"<seconds>": count} of whole seconds
 *   from creation to verification of the completed sessions — computed with the live query's own
 *   expressions (SESSION_COUNTS, SESSION_SECONDS_TO_COMPLETE), so the medians stay exact;
 * - only settled days (settledBefore: ended more than the session TTL plus an hour ago) are rolled
 *   up, and the stats query reads a day's rows only when the day is settled and none of its rows
 *   has an open session: such a day's sessions are all terminal and can no longer change;
 * - a run (the hourly `verification_stats_rollup` job) recomputes the last ROLLUP_RECENT_DAYS
 *   settled days (insurance against late changes), then the days of the stats window with
 *   sessions but no rows (newest first), then the days rolled up with open sessions (least
 *   recently rolled first), at most `maxDays` days in all; a day's scopes (workspace,
 *   environment) are replaced in one transaction. The job enqueues a follow-up run while days
 *   without rows remain, so a backlog (first deployment, an outage) clears in minutes;
 * - sessions no end-user acted on (`untouched`) are neither counted nor make a day active, as in
 *   the live query (a day of them alone would otherwise stay "missing" for ever);
 * - finding the work is cheap: per (workspace, environment), the days with sessions come from a
 *   skip scan of the (workspace_id, environment, created_at) index (one probe per active day),
 *   not from reading the sessions; rows older than the 30-day window are deleted.
 */
import { getDb, Prisma, type Db } from "../db/client";
import { verificationStatsRollupJob } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";
import { logger } from "../log";
import {
  SESSION_COUNTS,
  SESSION_SECONDS_TO_COMPLETE,
  settledBefore,
  statsWindow,
  utcDay,
} from "./verifications";

/** The last settled days recomputed on every run. */
export const ROLLUP_RECENT_DAYS = 2;
/** Days (all their pending workspaces) rolled up per run at most, the recent ones included. */
export const ROLLUP_DAYS_PER_RUN = 7;

const DAY_MS = 24 * 3600 * 1000;

type TRollupReason = "recent" | "missing" | "open";

interface PendingRow {
  workspaceId: string;
  environment: string;
  day: string;
  reason: TRollupReason;
  rolledAt: Date | null;
}

export interface TRollupDay {
  day: string;
  reason: TRollupReason;
  /** (workspace, environment) pairs recomputed */
  scopes: number;
}

export interface TRollupResult {
  /** the days rolled up by this run, in the order processed */
  days: TRollupDay[];
  /** days of the window with sessions and no rollup rows, left for a later run */
  missingLeft: number;
  /** days rolled up with open sessions, left for a later run */
  openLeft: number;
}

/**
 * The (workspace, environment, day) scopes to roll up, of settled days within the stats window:
 * `active` walks the days that have sessions with one index probe per day (min(created_at)
 * from the day after the last one found), for every workspace and environment.
 */
async function pendingScopes(
  db: Pick<Db, "$queryRaw">,
  {
    start,
    end,
    recentFrom,
    workspaceId,
  }: { start: string; end: string; recentFrom: string; workspaceId?: string },
): Promise<PendingRow[]> {
  const next = (after: Prisma.Sql) => Prisma.sql`(SELECT min(v.created_at) FROM verifications v
           WHERE v.workspace_id = s.workspace_id AND v.environment = s.environment
             AND v.created_at >= ${after} AND v.created_at < ${end}::date::timestamp
             AND NOT v.untouched)::date`;
  return db.$queryRaw<PendingRow[]>`
    WITH RECURSIVE scopes AS (
      SELECT w.id AS workspace_id, e.environment
        FROM workspaces w CROSS JOIN unnest(enum_range(NULL::"Environment")) AS e(environment)
       ${workspaceId ? Prisma.sql`WHERE w.id = ${workspaceId}` : Prisma.empty}
    ), active(workspace_id, environment, day) AS (
      SELECT s.workspace_id, s.environment, ${next(Prisma.sql`${start}::date::timestamp`)}
        FROM scopes s
      UNION ALL
      SELECT s.workspace_id, s.environment, ${next(Prisma.sql`(s.day + 1)::timestamp`)}
        FROM active s WHERE s.day IS NOT NULL
    )
    SELECT a.workspace_id AS "workspaceId", a.environment::text AS environment,
           to_char(a.day, 'YYYY-MM-DD') AS day,
           CASE WHEN a.day >= ${recentFrom}::date THEN 'recent'
                WHEN r.n = 0 THEN 'missing' ELSE 'open' END AS reason,
           r.rolled_at AS "rolledAt"
      FROM active a
     CROSS JOIN LATERAL (
       SELECT count(*) AS n, max(d.open) AS open, min(d.updated_at) AS rolled_at
         FROM verification_daily_stats d
        WHERE d.workspace_id = a.workspace_id AND d.environment = a.environment AND d.day = a.day) r
     WHERE a.day IS NOT NULL
       AND (a.day >= ${recentFrom}::date OR r.n = 0 OR r.open > 0)`;
}

/** Recomputes the rows of one day for the given (workspace, environment) pairs, atomically. */
async function rollupDay(db: Db, day: string, scopes: { workspaceId: string; environment: string }[]) {
  const ws = scopes.map((s) => s.workspaceId);
  const envs = scopes.map((s) => s.environment);
  const pairs = Prisma.sql`unnest(${ws}::text[], ${envs}::text[]::"Environment"[]) AS p(workspace_id, environment)`;
  await db.$transaction([
    db.$executeRaw`
      DELETE FROM verification_daily_stats d USING ${pairs}
       WHERE d.workspace_id = p.workspace_id AND d.environment = p.environment AND d.day = ${day}::date`,
    db.$executeRaw`
      INSERT INTO verification_daily_stats AS d (workspace_id, environment, app_id, provider_id, day,
        created, completed, failed, cancelled, expired, open, started, authenticated,
        complete_seconds_histogram, updated_at)
      SELECT p.workspace_id, p.environment, per.app_id, per.provider_id, ${day}::date,
             sum(per.created)::int, sum(per.completed)::int, sum(per.failed)::int,
             sum(per.cancelled)::int, sum(per.expired)::int,
             (sum(per.created) - sum(per.completed) - sum(per.failed) - sum(per.cancelled)
               - sum(per.expired))::int,
             sum(per.started)::int, sum(per.authenticated)::int,
             COALESCE(jsonb_object_agg(per.sec::text, per.timed) FILTER (WHERE per.sec IS NOT NULL),
                      '{}'::jsonb),
             now() AT TIME ZONE 'UTC'
        FROM ${pairs}
       CROSS JOIN LATERAL (
         SELECT v.app_id, v.provider_id, ${SESSION_SECONDS_TO_COMPLETE} AS sec, ${SESSION_COUNTS}
           FROM verifications v
          WHERE v.workspace_id = p.workspace_id AND v.environment = p.environment
            AND v.created_at >= ${day}::date::timestamp
            AND v.created_at < (${day}::date + 1)::timestamp
            AND NOT v.untouched
          GROUP BY 1, 2, 3) per
       GROUP BY p.workspace_id, p.environment, per.app_id, per.provider_id
      ON CONFLICT (workspace_id, environment, day, app_id, provider_id) DO UPDATE SET
        created = EXCLUDED.created, completed = EXCLUDED.completed, failed = EXCLUDED.failed,
        cancelled = EXCLUDED.cancelled, expired = EXCLUDED.expired, open = EXCLUDED.open,
        started = EXCLUDED.started, authenticated = EXCLUDED.authenticated,
        complete_seconds_histogram = EXCLUDED.complete_seconds_histogram,
        updated_at = EXCLUDED.updated_at`,
  ]);
}

const PRIORITY: Record<TRollupReason, number> = { recent: 0, missing: 1, open: 2 };

/**
 * One bounded run of the rollup (see the rules above). `workspaceId` limits it to one workspace
 * (tests, manual repair); `now` is the time the settled days are judged from.
 */
export async function rollupVerificationStats(
  db: Db,
  {
    now = new Date(),
    maxDays = ROLLUP_DAYS_PER_RUN,
    workspaceId,
  }: { now?: Date; maxDays?: number; workspaceId?: string } = {},
): Promise<TRollupResult> {
  const start = utcDay(statsWindow("30d", now).from);
  const settled = settledBefore(now);
  const end = utcDay(settled);
  const recentFrom = utcDay(new Date(settled.getTime() - ROLLUP_RECENT_DAYS * DAY_MS));

  await db.$executeRaw`
    DELETE FROM verification_daily_stats WHERE day < ${start}::date
     ${workspaceId ? Prisma.sql`AND workspace_id = ${workspaceId}` : Prisma.empty}`;
  if (end <= start) return { days: [], missingLeft: 0, openLeft: 0 };

  const rows = await pendingScopes(db, { start, end, recentFrom, workspaceId });
  const byDay = new Map<
    string,
    { day: string; reason: TRollupReason; rolledAt: number; scopes: PendingRow[] }
  >();
  for (const row of rows) {
    const entry = byDay.get(row.day) ?? { day: row.day, reason: row.reason, rolledAt: Infinity, scopes: [] };
    if (PRIORITY[row.reason] < PRIORITY[entry.reason]) entry.reason = row.reason;
    if (row.rolledAt) entry.rolledAt = Math.min(entry.rolledAt, new Date(row.rolledAt).getTime());
    entry.scopes.push(row);
    byDay.set(row.day, entry);
  }
  // recent and missing days newest first; days with open sessions least recently rolled first
  const queue = [...byDay.values()].sort(
    (a, b) =>
      PRIORITY[a.reason] - PRIORITY[b.reason] ||
      (a.reason === "open" ? a.rolledAt - b.rolledAt : 0) ||
      b.day.localeCompare(a.day),
  );
  const batch = queue.slice(0, Math.max(0, maxDays));
  const left = queue.slice(batch.length);
  for (const entry of batch) await rollupDay(db, entry.day, entry.scopes);
  return {
    days: batch.map((e) => ({ day: e.day, reason: e.reason, scopes: e.scopes.length })),
    missingLeft: left.filter((e) => e.reason === "missing").length,
    openLeft: left.filter((e) => e.reason === "open").length,
  };
}

/** The `verification_stats_rollup` job (hourly; re-enqueued soon while days without rows remain). */
export async function verificationStatsRollupTask(): Promise<void> {
  const db = getDb();
  const result = await rollupVerificationStats(db);
  if (result.days.length > 0) {
    logger.info(
      {
        days: result.days.map((d) => `${d.day} (${d.reason}, ${d.scopes} scopes)`),
        missingLeft: result.missingLeft,
        openLeft: result.openLeft,
      },
      "verification statistics rolled up",
    );
  }
  if (result.missingLeft > 0) {
    await enqueue(db, verificationStatsRollupJob, {}, { runAt: new Date(Date.now() + 60_000) });
  }
}
