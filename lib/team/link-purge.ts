/**
 * Housekeeping of the emailed links: password-reset links and pending sign-ups are deleted a day
 * after they expired (used ones too: a used link's row only says it was used, and the audit log
 * keeps that). An expired link answers 410 either way, so deleting it changes no answer but
 * "expired" becoming "not valid". Run by the hourly `mail_link_purge` job in bounded batches.
 */
import { kysely, type Db } from "../db/client";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";
import { logger } from "../log";
import { deleteExpiredPasswordResets, deleteExpiredSignupRequests } from "./store/accounts";

const GRACE_MS = 24 * 60 * 60 * 1000;

export async function purgeExpiredMailLinks(
  db: Db,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<{ passwordResets: number; signupRequests: number }> {
  const before = new Date(now.getTime() - GRACE_MS);
  const passwordResets = await deleteInBatches(
    (limit) => deleteExpiredPasswordResets(db, before, limit),
    batchSize,
  );
  const signupRequests = await deleteInBatches(
    (limit) => deleteExpiredSignupRequests(db, before, limit),
    batchSize,
  );
  return { passwordResets, signupRequests };
}

export async function purgeExpiredMailLinksTask(): Promise<void> {
  const counts = await purgeExpiredMailLinks(kysely());
  if (counts.passwordResets + counts.signupRequests > 0)
    logger.info(counts, "expired password-reset links and sign-up confirmations deleted");
}
