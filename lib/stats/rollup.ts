/**
 * Per-day rollup of verification statistics (verification_daily_stats), so that
 * GET /v1/stats/verifications reads finished days from a small table instead of scanning every
 * session of a 30-day window.
 * Rules:
 * - one row per (workspace, environment, day, app, provider) with the day's counts by status, the
 *   funnel stamps, `open` (not yet terminal) and a histogram {"<seconds>": count} of whole seconds
 *   from creation to verification of the completed sessions — computed with the live query's own
 *   expressions (lib/stats/store/sql.ts SESSION_COUNTS, SESSION_SECONDS_TO_COMPLETE), so the
 *   medians stay exact;
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
import { kysely, type Db } from "../db/client";
import { verificationStatsRollupJob } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";
import { logger } from "../log";
import {
  deleteRollupRowsBefore,
  pendingRollupScopes,
  replaceRollupDay,
  type TPendingScope,
  type TRollupReason,
} from "./store/rollup";
import { settledBefore, statsWindow, utcDay } from "./verifications";

/** The last settled days recomputed on every run. */
export const ROLLUP_RECENT_DAYS = 2;
/** Days (all their pending workspaces) rolled up per run at most, the recent ones included. */
export const ROLLUP_DAYS_PER_RUN = 7;

const DAY_MS = 24 * 3600 * 1000;

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

const PRIORITY: Record<TRollupReason, number> = { recent: 0, missing: 1, open: 2 };

/**
 * One bounded run of the rollup (see the rules above). `workspaceId` limits it to one workspace
 * (tests, manual repair); `now` is the time the settled days are judged from. `db` is the
 * pool, never a transaction: each day is replaced in a transaction of its own on it.
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

  await deleteRollupRowsBefore(db, start, workspaceId);
  if (end <= start) return { days: [], missingLeft: 0, openLeft: 0 };

  const rows = await pendingRollupScopes(db, { start, end, recentFrom, workspaceId });
  const byDay = new Map<
    string,
    { day: string; reason: TRollupReason; rolledAt: number; scopes: TPendingScope[] }
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
  for (const entry of batch) await replaceRollupDay(db, entry.day, entry.scopes);
  return {
    days: batch.map((e) => ({ day: e.day, reason: e.reason, scopes: e.scopes.length })),
    missingLeft: left.filter((e) => e.reason === "missing").length,
    openLeft: left.filter((e) => e.reason === "open").length,
  };
}

/** The `verification_stats_rollup` job (hourly; re-enqueued soon while days without rows remain). */
export async function verificationStatsRollupTask(): Promise<void> {
  const db = kysely();
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
