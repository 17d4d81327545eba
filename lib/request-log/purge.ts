/**
 * Retention of the API request log: rows older than IDV_REQUEST_LOG_RETENTION_DAYS (default 14)
 * are deleted by an hourly job, in batches of at most 5,000 rows per statement so a large backlog
 * never holds long locks or one huge transaction (each batch commits on its own).
 */
import { config } from "../config";
import { kysely, type Db } from "../db/client";
import { logger } from "../log";
import { deleteRequestLogsBefore } from "./store";

export const REQUEST_LOG_PURGE_BATCH = 5000;

/** IDV_REQUEST_LOG_RETENTION_DAYS, default 14 (a positive number, fractions allowed). */
export function requestLogRetentionDays(): number {
  return config().requestLogRetentionDays;
}

/** Deletes the rows older than the retention period; returns how many went. */
export async function purgeRequestLogs(
  db: Db,
  { now = new Date(), batchSize = REQUEST_LOG_PURGE_BATCH } = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - requestLogRetentionDays() * 24 * 3600 * 1000);
  let deleted = 0;
  for (;;) {
    const count = await deleteRequestLogsBefore(db, cutoff, batchSize);
    deleted += count;
    if (count < batchSize) return deleted;
  }
}

export async function purgeRequestLogsTask(): Promise<void> {
  const count = await purgeRequestLogs(kysely());
  if (count > 0) logger.info({ count }, "old API request log rows deleted (retention)");
}
