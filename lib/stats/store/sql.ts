/**
 * Pieces of SQL shared by the statistics statement (./stats.ts) and the rollup's (./rollup.ts),
 * so both count exactly alike.
 * Rules: timestamps are UTC `timestamp without time zone` (a Date goes out as ISO text cast to
 * `timestamp`: the literal's Z is ignored on the cast); counts are cast to int in SQL, so they come
 * back as numbers (count(*) alone is a bigint, which pg returns as a string).
 */
import { sql } from "kysely";

/** No SQL (an absent optional clause). */
export const empty = sql``;

/** A UTC instant as a `timestamp` literal. */
export const ts = (d: Date) => sql`${d.toISOString()}::timestamp`;

/**
 * Per-session expressions over `verifications v`, shared by the live query and the rollup so
 * both count exactly alike: whole seconds from creation to verification of a completed session
 * (null otherwise), and the counts of a group of sessions. `timed` counts the sessions that have
 * `sec` (the ones the median is taken over).
 */
export const SESSION_SECONDS_TO_COMPLETE = sql`CASE WHEN v.status = 'completed' AND v.verified_at IS NOT NULL
                  THEN date_part('epoch', v.verified_at - v.created_at)::int END`;
export const SESSION_COUNTS = sql`count(*)::int AS created,
             count(*) FILTER (WHERE v.status = 'completed')::int AS completed,
             count(*) FILTER (WHERE v.status = 'failed')::int AS failed,
             count(*) FILTER (WHERE v.status = 'cancelled')::int AS cancelled,
             count(*) FILTER (WHERE v.status = 'expired')::int AS expired,
             count(v.started_at)::int AS started,
             count(v.authenticated_at)::int AS authenticated,
             count(*) FILTER (WHERE v.status = 'completed' AND v.verified_at IS NOT NULL)::int AS timed`;
