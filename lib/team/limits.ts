/**
 * Rate limits of the account endpoints, counted in PostgreSQL by lib/rate-limit:
 * - sign-up: every attempt that passes validation counts per client address
 *   (IDV_SIGNUP_LIMIT_IP per hour, default 20) — it bounds both workspace spam and probing
 *   which emails have accounts;
 * - invitation links: failed lookups/accepts (bad token, wrong password) per client address
 *   (IDV_INVITATION_LIMIT_IP per 15 minutes, default 30);
 * - password change: wrong current passwords per user (IDV_PASSWORD_CHANGE_LIMIT per
 *   15 minutes, default 10).
 * - password reset: every request and every bad link per client address
 *   (IDV_PASSWORD_RESET_LIMIT_IP per hour, default 20);
 * - mail to one address: password-reset and sign-up requests per email, whether or not it has an
 *   account (IDV_MAIL_LIMIT_EMAIL per hour, default 5), so nobody can flood a mailbox.
 * The points come from lib/config (IDV_… variables, parsed once at start-up).
 */
import { config } from "../config";
import { rateLimited, retryAfter, type LimitSpec } from "../rate-limit";

export function signUpLimit(): LimitSpec {
  return { name: "signup_ip", points: config().limits.signUpIp, durationSeconds: 3600 };
}

export function invitationLimit(): LimitSpec {
  return { name: "invitation_ip", points: config().limits.invitationIp, durationSeconds: 900 };
}

export function passwordChangeLimit(): LimitSpec {
  return { name: "password_change_user", points: config().limits.passwordChange, durationSeconds: 900 };
}

export function passwordResetIpLimit(): LimitSpec {
  return { name: "password_reset_ip", points: config().limits.passwordResetIp, durationSeconds: 3600 };
}

export function mailEmailLimit(): LimitSpec {
  return { name: "mail_email", points: config().limits.mailEmail, durationSeconds: 3600 };
}

/** Throws 429 RATE_LIMITED (with Retry-After) when `key` is over `spec`. */
export async function checkLimit(spec: LimitSpec, key: string, what: string): Promise<void> {
  const wait = await retryAfter(spec, key);
  if (wait > 0) throw rateLimited(wait, what);
}
