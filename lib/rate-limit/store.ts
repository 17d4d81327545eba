/**
 * The `rate_limits` counters on the data layer (lib/db/kysely.ts), for their housekeeping
 * (purge.ts); rate-limiter-flexible reads and writes them itself.
 */
import type { Db } from "../db/kysely";

/**
 * Deletes at most `limit` rows whose window ended before `nowMs` (epoch milliseconds, as
 * `expire` holds it; bigint as text): how many went.
 */
export async function deleteEndedWindows(db: Db, nowMs: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("rateLimits")
    .where("key", "in", (eb) =>
      eb.selectFrom("rateLimits").select("key").where("expire", "<", nowMs).limit(limit),
    )
    // a window restarted meanwhile by a concurrent count stays
    .where("expire", "<", nowMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
