/**
 * Mail in the e2e specs: what the run's SMTP server (e2e/support/global-setup.ts) received, read
 * from its directory; the specs address mail to unique addresses and open its links in the page.
 */
import { expect } from "@playwright/test";
import { readMailbox, type TCaughtMail } from "../../lib/mail/mailbox";

/** The newest mail to `to` whose subject is (or matches) `subject`, waiting for it to arrive. */
export async function mailTo(to: string, subject: string | RegExp): Promise<TCaughtMail> {
  let found: TCaughtMail | undefined;
  await expect
    .poll(
      () => {
        found = readMailbox().find(
          (mail) =>
            mail.to.includes(to) &&
            (typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject)),
        );
        return found !== undefined;
      },
      { message: `a mail "${subject}" to ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The mail's link that starts with `prefix` (a path such as `/reset-password/`). */
export function linkOf(mail: TCaughtMail, prefix: string): string {
  const link = mail.links.find((l) => new URL(l).pathname.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in "${mail.subject}"`);
  return new URL(link).pathname;
}
