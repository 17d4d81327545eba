/**
 * The mail a real nodemailer composes from our templates, read back with lib/mail/mime.ts (what
 * the development mailbox and the tests' SMTP receiver do): subject with non-ASCII characters,
 * quoted-printable text and HTML, links; a message in another charset, as other mailers send
 * them; and the configuration of mail (lib/config).
 */
import MailComposer from "nodemailer/lib/mail-composer";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config";
import { mailWarning } from "../config/startup";
import { linksOf, parseMessage } from "./mime";
import { invitationMail, roleChangedMail } from "./templates";

async function composed(mail: { to: string; subject: string; text: string; html: string }): Promise<string> {
  const message = new MailComposer({ from: "IDV <no-reply@example.test>", ...mail }).compile();
  const raw = await message.build();
  return raw.toString("utf8");
}

describe("templates through nodemailer and back", () => {
  it("keeps subject, text, HTML and the link of an invitation with non-ASCII names", async () => {
    const url = `http://localhost:3000/invite/${"a".repeat(43)}`;
    const mail = invitationMail({
      to: "zoë@example.test",
      workspaceName: "Café <Zürich> & Co — a rather long workspace name that needs folding in headers",
      role: "admin",
      invitedBy: "Åsa Öberg",
      url,
      expiresAt: new Date("2026-12-01T10:00:00Z"),
    });
    const parsed = await parseMessage(await composed(mail));
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.text).toBe(mail.text);
    expect(parsed.html).toBe(mail.html);
    expect(linksOf(parsed.text)).toEqual([url]);
    expect(parsed.text).toContain('Åsa Öberg invited you to join the workspace "Café <Zürich> & Co');
    // escaped in the HTML
    expect(parsed.html).toContain("Café &lt;Zürich&gt; &amp; Co");
    expect(parsed.html).not.toContain("<Zürich>");
  });

  it("reads a message in another charset than UTF-8 (a header word, a quoted-printable and a base64 part)", async () => {
    const raw = [
      "From: a@example.test",
      "To: b@example.test",
      "Subject: =?ISO-8859-1?Q?Caf=E9_cr=E8me?=",
      "MIME-Version: 1.0",
      'Content-Type: multipart/alternative; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=ISO-8859-1",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Caf=E9 at http://localhost:3000/x",
      "--b1",
      "Content-Type: text/html; charset=windows-1252",
      "Content-Transfer-Encoding: base64",
      "",
      // "<p>€ 5 café</p>" in windows-1252: € is 0x80, é is 0xE9
      Buffer.from("<p>\x80 5 caf\xe9</p>", "latin1").toString("base64"),
      "--b1--",
      "",
    ].join("\r\n");
    const parsed = await parseMessage(raw);
    expect(parsed.subject).toBe("Café crème");
    expect(parsed.text.trim()).toBe("Café at http://localhost:3000/x");
    expect(parsed.html.trim()).toBe("<p>€ 5 café</p>");
    expect(linksOf(parsed.text)).toEqual(["http://localhost:3000/x"]);
  });

  it("names who changed whose role, from what to what", () => {
    const mail = roleChangedMail({
      to: "owner@example.test",
      workspaceName: "Acme",
      changedBy: "Ada (ada@example.test)",
      member: "bob@example.test",
      from: "developer",
      role: "admin",
      teamUrl: "http://localhost:3000/console/sandbox/team",
    });
    expect(mail.subject).toBe("Role changed in Acme: bob@example.test is now an admin");
    expect(mail.text).toContain(
      'Ada (ada@example.test) changed the role of bob@example.test in the workspace "Acme" from developer to admin.',
    );
  });
});

describe("mail configuration", () => {
  it("takes smtp:// and smtps:// URLs only, and never quotes SMTP_URL (it holds a password)", () => {
    expect(loadConfig({ SMTP_URL: "smtps://u:p@mail.example.com:465" }).smtpUrl).toBe(
      "smtps://u:p@mail.example.com:465",
    );
    expect(() => loadConfig({ SMTP_URL: "http://u:secret@mail.example.com" })).toThrow(ConfigError);
    try {
      loadConfig({ SMTP_URL: "http://u:secret@mail.example.com" });
    } catch (err) {
      expect((err as Error).message).toMatch(/^SMTP_URL must be an smtp:\/\//);
      expect((err as Error).message).not.toContain("secret");
    }
  });

  it("sends from no-reply at PUBLIC_URL's host unless MAIL_FROM says otherwise", () => {
    expect(loadConfig({ PUBLIC_URL: "https://idv.example.com" }).mailFrom).toBe("no-reply@idv.example.com");
    expect(loadConfig({ MAIL_FROM: "IDV <hello@example.com>" }).mailFrom).toBe("IDV <hello@example.com>");
  });

  it("refuses the development mailbox in production on https", () => {
    const env = { IDV_DEV_MAILBOX: "1", NODE_ENV: "production", PUBLIC_URL: "https://idv.example.com" };
    expect(() => loadConfig(env)).toThrow(/IDV_DEV_MAILBOX must be off in production on https/);
    expect(loadConfig({ ...env, PUBLIC_URL: "http://localhost:3100" }).devMailbox).toBe(true);
    expect(loadConfig({ ...env, IDV_DEV_MAILBOX: "0" }).devMailbox).toBe(false);
  });

  it("warns at start-up when no mail can be sent, naming what changes", () => {
    const warning = mailWarning(loadConfig({}));
    expect(warning).toMatch(/SMTP_URL is not set/);
    expect(warning).toMatch(/password reset is unavailable/);
    expect(warning).toMatch(/whether an email already has an account/);
    expect(mailWarning(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525" }))).toBeUndefined();
  });
});
