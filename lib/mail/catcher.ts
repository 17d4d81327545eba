/**
 * A mail catcher: an SMTP server on 127.0.0.1 (smtp-server) that accepts every message and keeps
 * it, parsed (./mime.ts, mailparser), in memory and, when given a directory, as one JSON file per mail (the
 * last `keep`). `npm run dev` starts one when SMTP_URL is unset and shows its directory on the
 * development mailbox page (/dev/mailbox, ./mailbox.ts); the tests start one as their SMTP
 * server (lib/testing/smtp-receiver.ts, the e2e global setup). No authentication, no TLS: it
 * never listens on anything but the loopback address.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { linksOf, parseMessage } from "./mime";
import type { TCaughtMail } from "./mailbox";

export interface TMailCatcher {
  /** smtp://127.0.0.1:<port> */
  url: string;
  port: number;
  /** every mail caught by this process, oldest first */
  mails: TCaughtMail[];
  close(): Promise<void>;
}

const MAX_SIZE = 1024 * 1024;

async function toCaught(raw: Buffer, envelope: { from: string; to: string[] }): Promise<TCaughtMail> {
  const parsed = await parseMessage(raw);
  return {
    id: `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`,
    receivedAt: new Date().toISOString(),
    from: envelope.from,
    to: envelope.to,
    subject: parsed.subject,
    text: parsed.text,
    html: parsed.html,
    links: linksOf(parsed.text),
  };
}

function store(dir: string, mail: TCaughtMail, keep: number): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${mail.id}.json`), JSON.stringify(mail, null, 2), { mode: 0o600 });
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  for (const old of files.slice(0, Math.max(0, files.length - keep)))
    fs.rmSync(path.join(dir, old), { force: true });
}

export async function startMailCatcher(
  options: { port?: number; dir?: string; keep?: number; onMail?: (mail: TCaughtMail) => void } = {},
): Promise<TMailCatcher> {
  const mails: TCaughtMail[] = [];
  const keep = options.keep ?? 50;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    size: MAX_SIZE,
    logger: false,
    banner: "idv mail catcher",
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (stream.sizeExceeded) return callback(new Error("Message too large"));
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        toCaught(Buffer.concat(chunks), envelope)
          .then((mail) => {
            mails.push(mail);
            if (mails.length > keep) mails.shift();
            if (options.dir) store(options.dir, mail, keep);
            options.onMail?.(mail);
            callback();
          })
          .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
