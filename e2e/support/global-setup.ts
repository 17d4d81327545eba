/**
 * Playwright's global setup: the SMTP server of the e2e run (lib/mail/catcher.ts on
 * 127.0.0.1:E2E_SMTP_PORT). The e2e server's SMTP_URL names it (E2E_ENV); it stores each mail under
 * .data/dev-mailbox, which the server's development mailbox page (/dev/mailbox, IDV_DEV_MAILBOX)
 * shows and e2e/support/mail.ts reads. Emptied at the start of each run.
 */
import fs from "node:fs";
import { startMailCatcher } from "../../lib/mail/catcher";
import { devMailboxDir } from "../../lib/mail/mailbox";
import { E2E_SMTP_PORT } from "./env";

export default async function globalSetup(): Promise<() => Promise<void>> {
  fs.rmSync(devMailboxDir(), { recursive: true, force: true });
  const catcher = await startMailCatcher({ port: E2E_SMTP_PORT, dir: devMailboxDir(), keep: 1000 });
  return () => catcher.close();
}
