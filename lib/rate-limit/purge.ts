/**
 * Housekeeping of the `rate_limits` counters (rate-limiter-flexible's own timer clean-up is off:
 * one job for all instances instead): rows whose window has ended are deleted by the hourly
 * `rate_limit_purge` job in bounded batches. An ended window counts nothing any more — the
 * library starts it afresh on the next event — so deleting it changes no answer.
 */
import type { Db } from "../db/client";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";

export async function purgeExpiredRateLimits(
  db: Pick<Db, "$executeRaw">,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  // `expire` is the window's end in epoch milliseconds
  const nowMs = BigInt(now.getTime());
  return deleteInBatches(
    (limit) => db.$executeRaw`
      DELETE FROM rate_limits
       WHERE key IN (SELECT key FROM rate_limits WHERE expire < ${nowMs} LIMIT ${limit})
         -- a window restarted meanwhile by a concurrent count stays
         AND expire < ${nowMs}`,
    batchSize,
  );
}
