/**
 * The way back for a failing connection (issue 24 §4): the `connection_recheck` job, every 5
 * minutes (lib/jobs/definitions.ts).
 * Rules:
 * - a failing connection is not offered, so no sign-in can clear it: the job runs the
 *   connection's own check (check.ts `checkConnection`, as POST …/check does) on every enabled
 *   failing connection of both environments, RECHECK_CONCURRENCY at a time; a check that passes
 *   records the success (the connection is connected and offered again on every instance), one
 *   that fails records its error (it stays failing);
 * - a connection whose adapter has no check (a refusal, ApiError) is left failing and logged at
 *   debug level; anything else thrown by one check is logged and does not stop the others;
 * - then it deletes the health buckets past their retention (health.ts).
 */
import { kysely, type Db } from "../db/client";
import { ApiError } from "../errors";
import { logger } from "../log";
import { checkConnection } from "./check";
import { purgeConnectionHealth } from "./health";
import { connectionState } from "./rows";
import { listErroredConnections } from "./store/connections";

/** Checks run at once. */
export const RECHECK_CONCURRENCY = 4;

/** Re-checks every enabled failing connection; how many were checked and how many came back. */
export async function recheckFailingConnections(db: Db): Promise<{ checked: number; recovered: number }> {
  const rows = await listErroredConnections(db);
  const failing = rows.filter((row) => connectionState(row) === "failing");
  let checked = 0;
  let recovered = 0;
  const queue = [...failing];
  async function worker(): Promise<void> {
    for (let row = queue.shift(); row; row = queue.shift()) {
      try {
        const answer = await checkConnection(db, row.environment, row.providerId);
        checked++;
        if (answer.ok) recovered++;
      } catch (err) {
        if (err instanceof ApiError) {
          logger.debug(
            { environment: row.environment, providerId: row.providerId, code: err.code },
            "failing connection not re-checked: its adapter has no check",
          );
        } else {
          logger.warn(
            { err, environment: row.environment, providerId: row.providerId },
            "re-check of a failing connection failed",
          );
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(RECHECK_CONCURRENCY, failing.length) }, worker));
  return { checked, recovered };
}

/** The job's task: re-check, then purge old health buckets. */
export async function recheckFailingConnectionsTask(): Promise<void> {
  const db = kysely();
  const { checked, recovered } = await recheckFailingConnections(db);
  if (checked > 0) logger.info({ checked, recovered }, "failing connections re-checked");
  const purged = await purgeConnectionHealth(db);
  if (purged > 0) logger.info({ purged }, "old connection health buckets deleted");
}
