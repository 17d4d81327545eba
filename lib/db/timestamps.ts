/**
 * Timestamps in SQL, for the data layer's statements (lib/db/kysely.ts: `timestamp(3)` columns
 * hold UTC).
 * - `nowUtc`: the database's clock as such a column holds it (`now()` alone would be the
 *   session time zone's wall time);
 * - epoch milliseconds, for rows read as JSON (`jsonObjectFrom`, `jsonArrayFrom` of
 * kysely/helpers/postgres): inside JSON a `timestamp(3)` would be text without a zone (Kysely
 * types it `string`), so such a row selects its timestamps through these and builds its Dates
 * with `new Date(ms)`. The columns hold UTC (lib/db/kysely.ts), which `extract(epoch …)` reads
 * as it is.
 */
import { sql, type Expression, type RawBuilder } from "kysely";

/** `now()` as a UTC `timestamp` (the value of a created_at the statement writes itself). */
export const nowUtc = sql<Date>`(now() AT TIME ZONE 'UTC')`;

/** `ts` (a timestamp column or expression) in epoch milliseconds. */
export function epochMs(ts: Expression<Date>): RawBuilder<number> {
  return sql<number>`round(extract(epoch from ${ts}) * 1000)::float8`;
}

/** epochMs of a nullable timestamp: null stays null. */
export function epochMsOrNull(ts: Expression<Date | null>): RawBuilder<number | null> {
  return sql<number | null>`round(extract(epoch from ${ts}) * 1000)::float8`;
}

/** The Date of epochMs's value. */
export const fromEpochMs = (ms: number): Date => new Date(ms);

/** The Date of epochMsOrNull's value (null stays null). */
export const fromEpochMsOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));
