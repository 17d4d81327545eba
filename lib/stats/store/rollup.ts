/**
 * The per-day rollup's statements (verification_daily_stats), on the data layer
 * (lib/db/kysely.ts); ../rollup.ts has the rules. `sql` templates (a recursive skip scan, an
 * upsert from a lateral aggregate: the builder would only wrap them), each with its row type
 * declared once, on the statement; a day is a `YYYY-MM-DD` string cast to `date`.
 */
import { sql, type RawBuilder } from "kysely";
import { inTransaction, type Db } from "../../db/kysely";
import { empty, SESSION_COUNTS, SESSION_SECONDS_TO_COMPLETE } from "./sql";

export type TRollupReason = "recent" | "missing" | "open";

/** A (workspace, environment, day) to roll up, and why. */
export interface TPendingScope {
  workspaceId: string;
  environment: string;
  /** YYYY-MM-DD */
  day: string;
  reason: TRollupReason;
  /** when the day's rows of the scope were first rolled up (oldest row); null when none */
  rolledAt: Date | null;
}

/** Deletes the rollup rows of days before `start` (YYYY-MM-DD), of one workspace if given. */
export async function deleteRollupRowsBefore(db: Db, start: string, workspaceId?: string): Promise<void> {
  await sql`
    DELETE FROM verification_daily_stats WHERE day < ${start}::date
     ${workspaceId ? sql`AND workspace_id = ${workspaceId}` : empty}`.execute(db);
}

/**
 * The (workspace, environment, day) scopes to roll up, of settled days within the stats window
 * (days `start` ≤ day < `end`; `recentFrom` on: recomputed on every run): `active` walks the days
 * that have sessions with one index probe per day (min(created_at) from the day after the last
 * one found), for every workspace and environment.
 */
export async function pendingRollupScopes(
  db: Db,
  {
    start,
    end,
    recentFrom,
    workspaceId,
  }: { start: string; end: string; recentFrom: string; workspaceId?: string },
): Promise<TPendingScope[]> {
  const next = (after: RawBuilder<unknown>) => sql`(SELECT min(v.created_at) FROM verifications v
           WHERE v.workspace_id = s.workspace_id AND v.environment = s.environment
             AND v.created_at >= ${after} AND v.created_at < ${end}::date::timestamp
             AND NOT v.untouched)::date`;
  const { rows } = await sql<TPendingScope>`
    WITH RECURSIVE scopes AS (
      SELECT w.id AS workspace_id, e.environment
        FROM workspaces w CROSS JOIN unnest(enum_range(NULL::"Environment")) AS e(environment)
       ${workspaceId ? sql`WHERE w.id = ${workspaceId}` : empty}
    ), active(workspace_id, environment, day) AS (
      SELECT s.workspace_id, s.environment, ${next(sql`${start}::date::timestamp`)}
        FROM scopes s
      UNION ALL
      SELECT s.workspace_id, s.environment, ${next(sql`(s.day + 1)::timestamp`)}
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
       AND (a.day >= ${recentFrom}::date OR r.n = 0 OR r.open > 0)`.execute(db);
  return rows;
}

/**
 * Recomputes the rows of day `day` (YYYY-MM-DD) for the given (workspace, environment) pairs,
 * atomically: the pairs' rows of the day are deleted and written again in one transaction.
 */
export async function replaceRollupDay(
  db: Db,
  day: string,
  scopes: readonly { workspaceId: string; environment: string }[],
): Promise<void> {
  const ws = scopes.map((s) => s.workspaceId);
  const envs = scopes.map((s) => s.environment);
  const pairs = sql`unnest(${ws}::text[], ${envs}::text[]::"Environment"[]) AS p(workspace_id, environment)`;
  await inTransaction(db, async (tx) => {
    await sql`
      DELETE FROM verification_daily_stats d USING ${pairs}
       WHERE d.workspace_id = p.workspace_id AND d.environment = p.environment AND d.day = ${day}::date`.execute(
      tx,
    );
    await sql`
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
        updated_at = EXCLUDED.updated_at`.execute(tx);
  });
}
