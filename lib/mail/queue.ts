/**
 * Queuing mail in the transaction of the change it tells about: the `mail_send` job
 * (lib/jobs/definitions.ts) sends it after the commit, with graphile-worker's retries, so a crash
 * never loses a mail and a slow SMTP server never slows a request. The rendered mail holds
 * single-use links, so the payload is sealed with the master key (lib/crypto/encryption.ts):
 * the job table, and any log line about a job, never shows a token.
 */
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import type { Db } from "../db/client";
import { enqueue } from "../jobs/registry";
import { sendMailJob, type TSendMailPayload } from "../jobs/definitions";
import { sendMail, ZMail, type TMail } from "./transport";

/** Queues `mail` (of template `kind`, named in logs) in `db`'s transaction. */
export async function queueMail(db: Db, kind: string, mail: TMail): Promise<void> {
  await enqueue(db, sendMailJob, { kind, sealed: encryptSecret(JSON.stringify(mail)) });
}

/** The `mail_send` job: opens the sealed mail and sends it. */
export async function sendMailTask(payload: TSendMailPayload): Promise<void> {
  const mail = ZMail.parse(JSON.parse(decryptSecret(payload.sealed)));
  await sendMail(mail);
}
