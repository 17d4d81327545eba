/**
 * Sending mail: nodemailer over SMTP_URL, from MAIL_FROM (lib/config).
 * Rules:
 * - `mailConfigured()` decides what the product offers: without SMTP_URL invitation links are
 *   shown to copy, password reset is unavailable and sign-up answers at once (decisions.md);
 * - mail is never sent inside a request: use cases queue it with `queueMail` (./queue.ts) in
 *   their transaction and the `mail_send` job sends it through `sendMail` here;
 * - one pooled transport per SMTP_URL, made on first use.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { z } from "zod";
import { config } from "../config";

/** One rendered mail: a recipient, a subject, and the same message as plain text and HTML. */
export const ZMail = z.object({ to: z.string(), subject: z.string(), text: z.string(), html: z.string() });
export type TMail = z.infer<typeof ZMail>;

/** SMTP_URL is set (in development `idv serve --dev` sets it to the local mail catcher). */
export function mailConfigured(): boolean {
  return config().smtpUrl !== undefined;
}

let transport: { url: string; transporter: Transporter } | undefined;

function transporter(): Transporter {
  const url = config().smtpUrl;
  if (!url) throw new Error("SMTP_URL is not set: no mail can be sent");
  if (transport?.url !== url) {
    transport?.transporter.close();
    transport = {
      url,
      transporter: nodemailer.createTransport(url, {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    };
  }
  return transport.transporter;
}

/** Sends one mail now (the job's handler; a failure throws, and the job is retried). */
export async function sendMail(mail: TMail): Promise<void> {
  await transporter().sendMail({
    from: config().mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
}
