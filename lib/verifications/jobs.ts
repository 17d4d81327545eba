/** Background tasks of verification sessions: expiry at the TTL, and personal-data retention. */
import { getDb } from "../db/client";
import type { TExpireVerificationPayload } from "../jobs/definitions";
import { logger } from "../log";
import { purgeExpiredPersonalData } from "./personal-data";
import { expireIfDue } from "./transitions";

export async function expireVerificationTask({ verificationId }: TExpireVerificationPayload): Promise<void> {
  await getDb().$transaction((tx) => expireIfDue(tx, verificationId));
}

export async function retentionTask(): Promise<void> {
  const count = await getDb().$transaction((tx) => purgeExpiredPersonalData(tx));
  if (count > 0) logger.info({ count }, "personal data of ended verifications deleted (retention)");
}
