/**
 * The one statement behind GET /v1/stats/verifications, on the data layer (lib/db/kysely.ts);
 * ../verifications.ts has the rules. A `sql` template (window functions, GROUPING SETS: the
 * builder would only wrap them) whose row type is declared once, on the statement; result columns
 * are named as the row type's keys (the CamelCasePlugin would map snake_case); counts come back
 * as int, a median as float8.
 */
import { sql, type RawBuilder } from "kysely";
import type { Environment } from "../../db/generated/kysely/types";
import type { Db } from "../../db/kysely";
import { empty, SESSION_COUNTS, SESSION_SECONDS_TO_COMPLETE, ts } from "./sql";

export interface TStatsScope {
  workspaceId: string;
  environment: Environment;
}

/** The buckets of a query (verifications.ts `statsWindow`). */
export interface TStatsBuckets {
  unit: "hour" | "day";
  /** start of the first bucket */
  from: Date;
  /** number of buckets */
  count: number;
  /** the UTC day (YYYY-MM-DD) of `from` */
  fromDay: string;
  /** days before this UTC day (YYYY-MM-DD) are settled (verifications.ts `settledBefore`) */
  settledDay: string;
}

/** A row of the statistics statement. */
export interface TStatsRow {
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

/**
 * The one statement behind GET /v1/stats/verifications (also the benchmark's EXPLAIN).
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
export function verificationStatsQuery(
  scope: TStatsScope,
  buckets: TStatsBuckets,
  appId: string | undefined,
  useRollup: boolean,
): RawBuilder<TStatsRow> {
  const step = buckets.unit === "hour" ? "1 hour" : "1 day";
  const byApp = (column: RawBuilder<unknown>) => (appId ? sql`AND ${column} = ${appId}` : empty);
  const rollup = useRollup && buckets.unit === "day";
  const fromDay = sql`${buckets.fromDay}::date`;
  // the rollup rows of the rolled-up buckets
  const rolledRows = sql`
        FROM rolled r
        JOIN verification_daily_stats s
          ON s.workspace_id = ${scope.workspaceId}
         AND s.environment = ${scope.environment}::"Environment"
         AND s.day = ${fromDay} + r.bucket
         ${byApp(sql`s.app_id`)}`;
  return sql<TStatsRow>`
    WITH ${
      rollup
        ? sql`rolled AS MATERIALIZED (
      SELECT (s.day - ${fromDay})::int AS bucket
        FROM verification_daily_stats s
       WHERE s.workspace_id = ${scope.workspaceId}
         AND s.environment = ${scope.environment}::"Environment"
         AND s.day >= ${fromDay}
         AND s.day < ${buckets.settledDay}::date
       GROUP BY s.day
      HAVING max(s.open) = 0
    ), `
        : empty
    }per AS MATERIALIZED (
      SELECT b.n AS bucket, v.provider_id, ${SESSION_SECONDS_TO_COMPLETE} AS sec,
             ${SESSION_COUNTS}
        FROM generate_series(0, ${buckets.count - 1}::int) AS b(n)
        JOIN verifications v
          ON v.workspace_id = ${scope.workspaceId}
         AND v.environment = ${scope.environment}::"Environment"
         AND v.created_at >= ${ts(buckets.from)} + b.n * ${step}::interval
         AND v.created_at < ${ts(buckets.from)} + (b.n + 1) * ${step}::interval
         AND NOT v.untouched
         ${byApp(sql`v.app_id`)}
       ${rollup ? sql`WHERE b.n NOT IN (SELECT bucket FROM rolled)` : empty}
       GROUP BY 1, 2, 3
      ${
        rollup
          ? sql`UNION ALL
      SELECT r.bucket, s.provider_id, NULL::int, s.created, s.completed, s.failed, s.cancelled,
             s.expired, s.started, s.authenticated, 0
        ${rolledRows}`
          : empty
      }
    ), histogram AS (
      SELECT provider_id, sec,
             sum(sum(timed)) OVER (PARTITION BY provider_id ORDER BY sec) AS upto,
             sum(sum(timed)) OVER (PARTITION BY provider_id) AS n
        FROM (SELECT provider_id, sec, timed FROM per WHERE sec IS NOT NULL
              ${
                rollup
                  ? sql`UNION ALL
              SELECT s.provider_id, h.key::int, h.value::int
                ${rolledRows}
               CROSS JOIN LATERAL jsonb_each_text(s.complete_seconds_histogram) AS h`
                  : empty
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

/** The rows of the statistics statement (see `verificationStatsQuery`). */
export async function readVerificationStats(
  db: Db,
  scope: TStatsScope,
  buckets: TStatsBuckets,
  appId: string | undefined,
  useRollup: boolean,
): Promise<TStatsRow[]> {
  return (await verificationStatsQuery(scope, buckets, appId, useRollup).execute(db)).rows;
}
