/**
 * Rate limits of the account endpoints, counted in PostgreSQL by lib/rate-limit:
 * - sign-up: every attempt that passes validation counts per client address
 *   (IDV_SIGNUP_LIMIT_IP per hour, default 20) — it bounds both workspace spam and probing
 *   which emails have accounts;
 * - invitation links: failed lookups/accepts (bad token, wrong password) per client address
 *   (IDV_INVITATION_LIMIT_IP per 15 minutes, default 30);
 * - password change: wrong current passwords per user (IDV_PASSWORD_CHANGE_LIMIT per
 *   15 minutes, default 10).
 * Each limit is read from the environment when used, so a deployment (or a test) can change it.
 */
import { rateLimited, retryAfter, type LimitSpec } from "../rate-limit";

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

export function signUpLimit(): LimitSpec {
  return { name: "signup_ip", points: positiveInt("IDV_SIGNUP_LIMIT_IP", 20), durationSeconds: 3600 };
}

export function invitationLimit(): LimitSpec {
  return { name: "invitation_ip", points: positiveInt("IDV_INVITATION_LIMIT_IP", 30), durationSeconds: 900 };
}

export function passwordChangeLimit(): LimitSpec {
  return {
    name: "password_change_user",
    points: positiveInt("IDV_PASSWORD_CHANGE_LIMIT", 10),
    durationSeconds: 900,
  };
}

/** Throws 429 RATE_LIMITED (with Retry-After) when `key` is over `spec`. */
export async function checkLimit(spec: LimitSpec, key: string, what: string): Promise<void> {
  const wait = await retryAfter(spec, key);
  if (wait > 0) throw rateLimited(wait, what);
}
