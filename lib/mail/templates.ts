/**
 * The mails of the service (English), each as plain text and a simple HTML version of the same
 * words: the invitation, the sign-up confirmation, "someone tried to sign up with your address",
 * the password-reset link and the owners' notice of a role change. Pure: values in, a TMail out;
 * every value is escaped in the HTML.
 */
import type { TMail } from "./transport";

const PRODUCT = "Identity verification broker";

function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** A paragraph of text, or a link shown as a button with its address below. */
type TBlock = string | { link: string; label: string };

function render(to: string, subject: string, blocks: TBlock[]): TMail {
  const text = [
    ...blocks.map((b) => (typeof b === "string" ? b : `${b.label}:\n${b.link}`)),
    `— ${PRODUCT}`,
  ].join("\n\n");
  const body = blocks
    .map((b) =>
      typeof b === "string"
        ? `<p style="margin:0 0 16px">${escapeHtml(b)}</p>`
        : `<p style="margin:0 0 16px"><a href="${escapeHtml(b.link)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(b.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#4b5563;word-break:break-all">${escapeHtml(b.link)}</p>`,
    )
    .join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5;padding:24px"><div style="max-width:560px;margin:0 auto">${body}<p style="margin:24px 0 0;font-size:13px;color:#4b5563">${PRODUCT}</p></div></body></html>`;
  return { to, subject, text, html };
}

const ROLE_ARTICLE: Record<string, string> = { owner: "an owner", admin: "an admin" };
const withArticle = (role: string) => ROLE_ARTICLE[role] ?? `a ${role}`;

export function invitationMail(input: {
  to: string;
  workspaceName: string;
  role: string;
  invitedBy: string | null;
  url: string;
  expiresAt: Date;
}): TMail {
  const who = input.invitedBy ? `${input.invitedBy} invited you` : "You are invited";
  return render(input.to, `Join ${input.workspaceName} on the ${PRODUCT}`, [
    `${who} to join the workspace "${input.workspaceName}" as ${withArticle(input.role)}.`,
    { label: "Accept the invitation", link: input.url },
    `The link works once, until ${input.expiresAt.toUTCString()}. If you did not expect this invitation, ignore this mail.`,
  ]);
}

export function signupConfirmationMail(input: { to: string; workspaceName: string; url: string }): TMail {
  return render(input.to, "Confirm your email to create your workspace", [
    `Someone, hopefully you, asked to create the workspace "${input.workspaceName}" with this address.`,
    { label: "Confirm and create the workspace", link: input.url },
    "The link works once, for 24 hours. If it was not you, ignore this mail: nothing is created.",
  ]);
}

export function signupExistingAccountMail(input: {
  to: string;
  signInUrl: string;
  resetUrl: string | null;
}): TMail {
  return render(input.to, "Someone tried to sign up with your address", [
    "Someone, perhaps you, tried to create a new workspace with this email address, which already has an account. No new account was created.",
    { label: "Sign in to your account", link: input.signInUrl },
    ...(input.resetUrl ? [{ label: "Forgot your password? Choose a new one", link: input.resetUrl }] : []),
    "If it was not you, you can ignore this mail: your account is unchanged.",
  ]);
}

export function passwordResetMail(input: { to: string; url: string }): TMail {
  return render(input.to, "Reset your password", [
    "Someone, hopefully you, asked to reset the password of your account.",
    { label: "Choose a new password", link: input.url },
    "The link works once, for 30 minutes. Choosing a new password signs you out everywhere. If it was not you, ignore this mail: your password is unchanged.",
  ]);
}

export function roleChangedMail(input: {
  to: string;
  workspaceName: string;
  changedBy: string;
  member: string;
  from: string;
  role: string;
  teamUrl: string;
}): TMail {
  return render(
    input.to,
    `Role changed in ${input.workspaceName}: ${input.member} is now ${withArticle(input.role)}`,
    [
      `${input.changedBy} changed the role of ${input.member} in the workspace "${input.workspaceName}" from ${input.from} to ${input.role}.`,
      { label: "Review the team", link: input.teamUrl },
      "You receive this notice as an owner of the workspace.",
    ],
  );
}
