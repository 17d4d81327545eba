/**
 * Mail in integration tests: every file's SMTP_URL names the run's one real SMTP server
 * (lib/testing/global-setup.ts starts lib/mail/catcher.ts), which stores each mail it receives
 * under the run's mail directory. Mail is sent by the `mail_send` job, so a file that waits for
 * mail starts the job worker (`startJobWorkerForTests`). Tests address mail to unique addresses
 * and find it by recipient.
 */
import { inject } from "vitest";
import { readMailbox, type TCaughtMail } from "../mail/mailbox";
import { waitFor } from "./jobs";

/** Every mail to `to` received so far, oldest first. */
export function mailsTo(to: string): TCaughtMail[] {
  return readMailbox(inject("mailDir"))
    .filter((mail) => mail.to.includes(to.toLowerCase()))
    .reverse();
}

/** Waits for the `count`-th mail to `to` (1: the first) and returns it. */
export async function waitForMail(to: string, count = 1, timeoutMs = 15_000): Promise<TCaughtMail> {
  return waitFor(async () => mailsTo(to)[count - 1], timeoutMs);
}

/** The single-use link of a mail that starts with `prefix` (e.g. `${PUBLIC_URL}/reset-password/`). */
export function linkIn(mail: TCaughtMail, prefix: string): string {
  const link = mail.links.find((l) => l.startsWith(prefix));
  if (!link)
    throw new Error(`no link starting with ${prefix} in "${mail.subject}": ${mail.links.join(", ")}`);
  return link;
}

/** The last path segment of a link: the token of /invite/{token}, /reset-password/{token}, … */
export function tokenOf(link: string): string {
  return new URL(link).pathname.split("/").pop()!;
}
