/**
 * Housekeeping of the `rate_limits` counters (rate-limiter-flexible's own timer clean-up is off:
 * one job for all instances instead): rows whose window has ended are deleted by the hourly
 * `rate_limit_purge` job in bounded batches. An ended window counts nothing any more — the
 * library starts it afresh on the next event — so deleting it changes no answer.
 */
import type { Db } from "../db/kysely";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";
import { deleteEndedWindows } from "./store";

export async function purgeExpiredRateLimits(
  db: Db,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  // `expire` is the window's end in epoch milliseconds
  const nowMs = String(now.getTime());
  return deleteInBatches((limit) => deleteEndedWindows(db, nowMs, limit), batchSize);
}
