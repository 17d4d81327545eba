/**
 * Background tasks of verification sessions: expiry at the TTL (the sweep's once-a-minute run, and
 * the per-session jobs earlier versions queued), and personal-data retention.
 */
import { getDb } from "../db/client";
import type { TExpireVerificationPayload } from "../jobs/definitions";
import { logger } from "../log";
import { sweepExpiredSessions } from "./expiry-sweep";
import { purgeExpiredPersonalData } from "./personal-data";
import { expireIfDue } from "./transitions";

/**
 * `verification_expire`, one session: kept for the jobs queued by earlier versions (new sessions
 * queue none, the sweep expires them); a no-op when the session already ended or is not due.
 */
export async function expireVerificationTask({ verificationId }: TExpireVerificationPayload): Promise<void> {
  await getDb().$transaction((tx) => expireIfDue(tx, verificationId));
}

/** `verification_expiry_sweep`: the backstop of the job workers' own sweepers (expiry-sweep.ts). */
export async function expirySweepTask(): Promise<void> {
  const { expired } = await sweepExpiredSessions(getDb());
  if (expired > 0) logger.debug({ expired }, "verification sessions expired (cron sweep)");
}

export async function retentionTask(): Promise<void> {
  const count = await getDb().$transaction((tx) => purgeExpiredPersonalData(tx));
  if (count > 0) logger.info({ count }, "personal data of ended verifications deleted (retention)");
}
