/**
 * The development mailbox: the mail the local catcher (./catcher.ts) stored under
 * `.data/dev-mailbox`, newest first, for the /dev/mailbox page. Shown only when IDV_DEV_MAILBOX is
 * on (`npm run dev` without SMTP_URL; refused in production on https, lib/config).
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { projectRoot } from "../config/paths";

export const ZCaughtMail = z.object({
  id: z.string(),
  receivedAt: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
});
export type TCaughtMail = z.infer<typeof ZCaughtMail>;

/** Where the development catcher stores mail (and the e2e server's catcher). */
export function devMailboxDir(): string {
  return path.join(projectRoot, ".data", "dev-mailbox");
}

/** The stored mails, newest first; unreadable files are skipped. */
export function readMailbox(dir = devMailboxDir()): TCaughtMail[] {
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
  const mails: TCaughtMail[] = [];
  for (const file of files.sort().reverse()) {
    try {
      const parsed = ZCaughtMail.safeParse(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
      if (parsed.success) mails.push(parsed.data);
    } catch {
      // a file being written or removed right now
    }
  }
  return mails;
}
