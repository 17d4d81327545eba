/**
 * Background tasks of verification sessions: expiry at the TTL (the sweep's once-a-minute run) and
 * personal-data retention.
 */
import { kysely } from "../db/client";
import { logger } from "../log";
import { sweepExpiredSessions } from "./expiry-sweep";
import { purgeExpiredPersonalData } from "./personal-data";
import { inTransaction } from "../db/kysely";

/** `verification_expiry_sweep`: the backstop of the job workers' own sweepers (expiry-sweep.ts). */
export async function expirySweepTask(): Promise<void> {
  const { expired } = await sweepExpiredSessions(kysely());
  if (expired > 0) logger.debug({ expired }, "verification sessions expired (cron sweep)");
}

export async function retentionTask(): Promise<void> {
  const count = await inTransaction(kysely(), (tx) => purgeExpiredPersonalData(tx));
  if (count > 0) logger.info({ count }, "personal data of ended verifications deleted (retention)");
}
