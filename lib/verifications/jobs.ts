/** Background tasks of verification sessions: expiry at the TTL, and personal-data retention. */
import { z } from "zod";
import { getDb } from "../db/client";
import { logger } from "../log";
import { expireIfDue, purgeExpiredPersonalData } from "./service";

const ZExpirePayload = z.object({ verificationId: z.string() });

export async function expireVerificationTask(payload: unknown): Promise<void> {
  const { verificationId } = ZExpirePayload.parse(payload);
  await getDb().$transaction((tx) => expireIfDue(tx, verificationId));
}

export async function retentionTask(): Promise<void> {
  const count = await getDb().$transaction((tx) => purgeExpiredPersonalData(tx));
  if (count > 0) logger.info({ count }, "personal data of ended verifications deleted (retention)");
}
