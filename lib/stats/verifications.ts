/**
 * Verification statistics of a workspace and environment (console dashboard).
 * Rules:
 * - computed by PostgreSQL in one statement over the sessions created in the period (index
 *   ranges of verifications(workspace_id, environment, created_at)); no session rows are loaded;
 * - OpenID Provider sessions no end-user has acted on (`untouched`, lib/verifications/create.ts)
 *   are not counted: anonymous /auth requests change no figure;
 * - every figure counts the sessions created in the period (a cohort), by their status now:
 *   a bucket's `completed` is the sessions created in that bucket that have completed since;
 * - buckets are UTC: 24h → 24 hours ending with the current one ("YYYY-MM-DDTHH:00"),
 *   7d / 30d → 7 / 30 days ending with today ("YYYY-MM-DD"); empty buckets are listed with zeros;
 * - `open` counts sessions not yet terminal; the funnel counts sessions that reached each step
 *   (startedAt / authenticatedAt stamps, then completed);
 * - medianSecondsToComplete: median of verifiedAt − createdAt of the provider's completed sessions,
 *   to the second;
 * - day buckets (7d, 30d) of settled days are read from the per-day rollup
 *   (verification_daily_stats, lib/stats/rollup.ts) when it has them, the rest is scanned live; the
 *   answer is the same as the all-live computation (counts add up, second histograms merge).
 */
import type { z } from "zod";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { Prisma, type Tx } from "../db/client";
import { sessionTtlSeconds } from "../verifications/settings";
import type { TStatsPeriod, TVerificationStats, ZStatsCountsJson } from "./endpoints";

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

const PERIODS: Record<TStatsPeriod, { unit: "hour" | "day"; buckets: number }> = {
  "24h": { unit: "hour", buckets: 24 },
  "7d": { unit: "day", buckets: 7 },
  "30d": { unit: "day", buckets: 30 },
};

export interface TStatsWindow {
  period: TStatsPeriod;
  unit: "hour" | "day";
  from: Date;
  to: Date;
  /** bucket labels, oldest first */
  labels: string[];
}

function label(date: Date, unit: "hour" | "day"): string {
  const iso = date.toISOString();
  return unit === "hour" ? `${iso.slice(0, 13)}:00` : iso.slice(0, 10);
}

export function statsWindow(period: TStatsPeriod, now = new Date()): TStatsWindow {
  const { unit, buckets } = PERIODS[period];
  const step = unit === "hour" ? HOUR_MS : DAY_MS;
  const current = Math.floor(now.getTime() / step) * step;
  const from = new Date(current - (buckets - 1) * step);
  const labels = Array.from({ length: buckets }, (_, i) => label(new Date(from.getTime() + i * step), unit));
  return { period, unit, from, to: now, labels };
}

/** The UTC day (YYYY-MM-DD) of a date. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Days before the returned UTC midnight are "settled": they ended more than the session TTL
 * plus an hour (at least 2 hours) ago, so no session is created on them any more and every
 * session created on them has reached its expiry. Only settled days are rolled up, and only
 * their rollup rows are read.
 */
export function settledBefore(now = new Date()): Date {
  const margin = Math.max(2 * HOUR_MS, (sessionTtlSeconds() + 3600) * 1000);
  return new Date(Math.floor((now.getTime() - margin) / DAY_MS) * DAY_MS);
}

export type TStatsCounts = z.infer<typeof ZStatsCountsJson>;

interface StatsRow {
  /** GROUPING(bucket, provider_id): 1 per-bucket row, 2 per-provider row, 3 the grand total */
  grouping: number;
  /** 0-based bucket number (per-bucket rows) */
  bucket: number | null;
  providerId: string | null;
  created: number;
  completed: number;
  failed: number;
  cancelled: number;
  expired: number;
  started: number;
  authenticated: number;
  /** per-provider rows */
  medianSeconds: number | null;
}

// timestamps are stored as UTC `timestamp without time zone`: a literal's Z is ignored on the cast
const ts = (d: Date) => Prisma.sql`${d.toISOString()}::timestamp`;

/**
 * Per-session expressions over `verifications v`, shared by the live query and the rollup
 * (lib/stats/rollup.ts) so both count exactly alike: whole seconds from creation to verification
 * of a completed session (null otherwise), and the counts of a group of sessions. `timed` counts
 * the sessions that have `sec` (the ones the median is taken over).
 */
export const SESSION_SECONDS_TO_COMPLETE = Prisma.sql`CASE WHEN v.status = 'completed' AND v.verified_at IS NOT NULL
                  THEN date_part('epoch', v.verified_at - v.created_at)::int END`;
export const SESSION_COUNTS = Prisma.sql`count(*)::int AS created,
             count(*) FILTER (WHERE v.status = 'completed')::int AS completed,
             count(*) FILTER (WHERE v.status = 'failed')::int AS failed,
             count(*) FILTER (WHERE v.status = 'cancelled')::int AS cancelled,
             count(*) FILTER (WHERE v.status = 'expired')::int AS expired,
             count(v.started_at)::int AS started,
             count(v.authenticated_at)::int AS authenticated,
             count(*) FILTER (WHERE v.status = 'completed' AND v.verified_at IS NOT NULL)::int AS timed`;

/**
 * The one statement behind GET /v1/stats/verifications (exported for the benchmark's EXPLAIN).
 * How it stays cheap on a large workspace:
 * - `rolled` (day buckets only): the settled days of the window whose rollup rows exist and
 *   have no open session (such a day can no longer change); their rows are read from
 *   verification_daily_stats (a few rows per day: one per app and provider, with a histogram of
 *   seconds to complete);
 * - `per`: every other bucket in one pass, as one index range scan of (workspace_id,
 *   environment, created_at) per bucket (the join to generate_series), hash-aggregated by
 *   (bucket, provider, whole seconds to complete) — a few thousand groups, no sort of the
 *   sessions; plus the counts of the rolled-up rows (sec null);
 * - the per-bucket, per-provider and total counts are a rollup of `per`;
 * - the median per provider comes from the seconds histogram of `per` merged with the rolled-up
 *   rows' histograms (percentile_cont's definition over the histogram: the mean of the two
 *   middle values), exact to the second.
 * `useRollup: false` scans everything live (the benchmark's and the tests' reference).
 */
export function verificationStatsSql(
  scope: Pick<WorkspaceAuth, "workspaceId" | "environment">,
  window: TStatsWindow,
  appId?: string,
  { useRollup = true }: { useRollup?: boolean } = {},
): Prisma.Sql {
  const step = window.unit === "hour" ? "1 hour" : "1 day";
  const byApp = (column: Prisma.Sql) => (appId ? Prisma.sql`AND ${column} = ${appId}` : Prisma.empty);
  const rollup = useRollup && window.unit === "day";
  const fromDay = Prisma.sql`${utcDay(window.from)}::date`;
  // the rollup rows of the rolled-up buckets
  const rolledRows = Prisma.sql`
        FROM rolled r
        JOIN verification_daily_stats s
          ON s.workspace_id = ${scope.workspaceId}
         AND s.environment = ${scope.environment}::"Environment"
         AND s.day = ${fromDay} + r.bucket
         ${byApp(Prisma.sql`s.app_id`)}`;
  return Prisma.sql`
    WITH ${
      rollup
        ? Prisma.sql`rolled AS MATERIALIZED (
      SELECT (s.day - ${fromDay})::int AS bucket
        FROM verification_daily_stats s
       WHERE s.workspace_id = ${scope.workspaceId}
         AND s.environment = ${scope.environment}::"Environment"
         AND s.day >= ${fromDay}
         AND s.day < ${utcDay(settledBefore(window.to))}::date
       GROUP BY s.day
      HAVING max(s.open) = 0
    ), `
        : Prisma.empty
    }per AS MATERIALIZED (
      SELECT b.n AS bucket, v.provider_id, ${SESSION_SECONDS_TO_COMPLETE} AS sec,
             ${SESSION_COUNTS}
        FROM generate_series(0, ${window.labels.length - 1}::int) AS b(n)
        JOIN verifications v
          ON v.workspace_id = ${scope.workspaceId}
         AND v.environment = ${scope.environment}::"Environment"
         AND v.created_at >= ${ts(window.from)} + b.n * ${step}::interval
         AND v.created_at < ${ts(window.from)} + (b.n + 1) * ${step}::interval
         AND NOT v.untouched
         ${byApp(Prisma.sql`v.app_id`)}
       ${rollup ? Prisma.sql`WHERE b.n NOT IN (SELECT bucket FROM rolled)` : Prisma.empty}
       GROUP BY 1, 2, 3
      ${
        rollup
          ? Prisma.sql`UNION ALL
      SELECT r.bucket, s.provider_id, NULL::int, s.created, s.completed, s.failed, s.cancelled,
             s.expired, s.started, s.authenticated, 0
        ${rolledRows}`
          : Prisma.empty
      }
    ), histogram AS (
      SELECT provider_id, sec,
             sum(sum(timed)) OVER (PARTITION BY provider_id ORDER BY sec) AS upto,
             sum(sum(timed)) OVER (PARTITION BY provider_id) AS n
        FROM (SELECT provider_id, sec, timed FROM per WHERE sec IS NOT NULL
              ${
                rollup
                  ? Prisma.sql`UNION ALL
              SELECT s.provider_id, h.key::int, h.value::int
                ${rolledRows}
               CROSS JOIN LATERAL jsonb_each_text(s.complete_seconds_histogram) AS h`
                  : Prisma.empty
              }) AS seconds
       GROUP BY provider_id, sec
    ), medians AS (
      SELECT provider_id,
             ((min(sec) FILTER (WHERE upto > floor((n - 1) / 2.0))
               + min(sec) FILTER (WHERE upto > ceil((n - 1) / 2.0))) / 2.0)::float8 AS median
        FROM histogram GROUP BY provider_id
    ), totals AS (
      SELECT GROUPING(bucket, provider_id)::int AS "grouping", bucket, provider_id,
             sum(created)::int AS created, sum(completed)::int AS completed,
             sum(failed)::int AS failed, sum(cancelled)::int AS cancelled,
             sum(expired)::int AS expired, sum(started)::int AS started,
             sum(authenticated)::int AS authenticated
        FROM per GROUP BY GROUPING SETS ((bucket), (provider_id), ())
    )
    SELECT t."grouping", t.bucket, t.provider_id AS "providerId", t.created, t.completed, t.failed,
           t.cancelled, t.expired, t.started, t.authenticated, m.median AS "medianSeconds"
      FROM totals t
      LEFT JOIN medians m ON t."grouping" = 2 AND m.provider_id = t.provider_id`;
}

function counts(row: StatsRow | undefined): TStatsCounts {
  return {
    created: row?.created ?? 0,
    completed: row?.completed ?? 0,
    failed: row?.failed ?? 0,
    cancelled: row?.cancelled ?? 0,
    expired: row?.expired ?? 0,
  };
}

export async function getVerificationStats(
  db: Tx,
  scope: Pick<WorkspaceAuth, "workspaceId" | "environment">,
  query: { period: TStatsPeriod; appId?: string },
  now = new Date(),
  options: { useRollup?: boolean } = {},
): Promise<TVerificationStats> {
  const window = statsWindow(query.period, now);
  const rows = await db.$queryRaw<StatsRow[]>(verificationStatsSql(scope, window, query.appId, options));
  const byBucket = new Map(rows.filter((r) => r.grouping === 1).map((r) => [Number(r.bucket), r]));
  const total = rows.find((r) => r.grouping === 3);
  const totals = counts(total);
  return {
    period: window.period,
    bucket: window.unit,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    days: window.labels.map((date, i) => ({ date, ...counts(byBucket.get(i)) })),
    providers: rows
      .filter((r) => r.grouping === 2 && r.providerId !== null)
      .map((r) => ({
        providerId: r.providerId!,
        total: r.created,
        completed: r.completed,
        completionRate: r.created === 0 ? 0 : r.completed / r.created,
        medianSecondsToComplete: r.medianSeconds === null ? null : Number(r.medianSeconds),
      }))
      .sort((a, b) => b.total - a.total || a.providerId.localeCompare(b.providerId)),
    funnel: {
      created: totals.created,
      started: total?.started ?? 0,
      authenticated: total?.authenticated ?? 0,
      completed: totals.completed,
    },
    totals: {
      ...totals,
      open: totals.created - totals.completed - totals.failed - totals.cancelled - totals.expired,
    },
  };
}
