/**
 * Console sign-in with email and password.
 * Rules:
 * - one message for every failure ("Email or password is incorrect"): the answer never tells
 *   whether the email exists, and an unknown email costs the same scrypt work as a known one;
 * - failures count per email and per source address in PostgreSQL (lib/rate-limit); over either
 *   limit the attempt is refused before the password is checked (429 RATE_LIMITED with
 *   Retry-After); a success clears the email's counter;
 * - a successful sign-in records lastSignInAt (a user gone meanwhile: 404 RESOURCE_NOT_FOUND).
 */
import type { Db } from "../db/client";
import { hashPassword, verifyPassword } from "../crypto/password";
import { ApiError } from "../errors";
import { isSafeText } from "../http/safe-text";
import { fail, rateLimited, reset, retryAfter, signInLimits } from "../rate-limit";
import { readSignInUser, recordSignIn } from "./store/console-sessions";

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
  isOperator: boolean;
}

let dummyHash: Promise<string> | undefined;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Throws RATE_LIMITED when the email or the address is over its limit. */
export async function checkSignInLimits(email: string, ip: string): Promise<void> {
  const limits = signInLimits();
  const wait = Math.max(
    await retryAfter(limits.email, normalizeEmail(email)),
    await retryAfter(limits.ip, ip),
  );
  if (wait > 0) throw rateLimited(wait, "console sign-in");
}

export async function signInWithPassword(
  db: Db,
  input: { email: string; password: string; ip: string },
): Promise<SignedInUser> {
  const email = normalizeEmail(input.email);
  await checkSignInLimits(email, input.ip);
  // an email PostgreSQL cannot hold (a NUL) names nobody: no lookup, the same failure as unknown
  const user = isSafeText(email) ? await readSignInUser(db, email) : undefined;
  dummyHash ??= hashPassword("not a password of anyone");
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash));
  if (!user || !ok) {
    const limits = signInLimits();
    await fail(limits.email, email);
    await fail(limits.ip, input.ip);
    throw new ApiError("INVALID_CREDENTIALS", "Email or password is incorrect");
  }
  await reset(signInLimits().email, email);
  if (!(await recordSignIn(db, user.id, new Date())))
    throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
  return { id: user.id, email: user.email, name: user.name, isOperator: user.isOperator };
}
