/**
 * Deletion of ended sessions, long after their personal data went.
 * Rules:
 * - the retention job (IDV_RETENTION_DAYS, default 30) wipes a session's personal data but
 *   keeps the row: the console's lists, statistics, what-if re-runs and support questions need
 *   its status, provider, stamps and decision record;
 * - IDV_SESSION_DELETE_DAYS (default 365) after it ended, a session whose personal data is gone
 *   is deleted with everything hanging off it (events, decision record, webhook deliveries and
 *   their attempts: foreign keys with ON DELETE CASCADE) by the daily `verification_purge` job,
 *   in bounded batches;
 * - the value is never below the retention period nor the longest statistics window (30 days:
 *   the stats of a day older than that are no longer shown), whatever is configured;
 * - the audit log, the request log and production-test participations name sessions by id only
 *   and keep their entries (they have their own retention, or none).
 */
import { config } from "../config";
import type { Db } from "../db/client";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";
import { retentionDays } from "./settings";
import { deleteEndedSessions } from "./store/retention";

const DAY_MS = 24 * 3600 * 1000;
/** the longest statistics period (lib/stats/verifications.ts "30d"), plus its current day */
const STATS_DAYS = 31;
/** sessions cascade into their events and deliveries: smaller batches than the flat tables */
export const SESSION_PURGE_BATCH = 200;

export function sessionDeleteDays(): number {
  return Math.max(config().sessionDeleteDays, retentionDays(), STATS_DAYS);
}

/** Deletes the sessions that ended more than sessionDeleteDays() ago; returns how many went. */
export async function purgeEndedSessions(
  db: Db,
  { now = new Date(), batchSize = SESSION_PURGE_BATCH }: TPurgeOptions = {},
): Promise<number> {
  const before = new Date(now.getTime() - sessionDeleteDays() * DAY_MS);
  return deleteInBatches((limit) => deleteEndedSessions(db, before, limit), batchSize);
}
