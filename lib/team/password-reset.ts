/**
 * Password reset by email: "forgot password" sends a single-use link, the link sets a new
 * password.
 * Rules:
 * - only with mail configured (lib/mail); otherwise 403 PASSWORD_RESET_UNAVAILABLE, and the
 *   console tells the person to ask a workspace owner;
 * - a request answers the same whether or not the email has an account (202, nothing else
 *   said); every request counts towards the client address's limit and the email's limit (429
 *   with Retry-After, counted before anything is looked up);
 * - the token is 43 random characters; only its SHA-256 is stored; it works once, for 30 minutes;
 *   a new request replaces the user's unused links, so only the newest works;
 * - the link is read (lookup) and used (complete) with the token in the body; an unknown, used or
 *   expired token is 410 RESET_LINK_INVALID and counts as a failure of the address;
 * - completing claims the link with a conditional update first (two concurrent uses: one wins),
 *   sets the password and ends every console session of the user (endAllSessions), clears the
 *   email's failed sign-ins and is audited as `user.password_reset` in each of the user's
 *   workspaces (actor: the user).
 */
import { userActor } from "../auth/actor";
import { endAllSessions } from "../auth/console/lifetime";
import { normalizeEmail } from "../auth/sign-in";
import { recordAudit } from "../audit";
import { publicUrl } from "../config";
import { sha256Hex } from "../crypto/hash";
import { hashPassword } from "../crypto/password";
import type { Db } from "../db/client";
import { ApiError } from "../errors";
import { newId, randomToken } from "../ids";
import { queueMail } from "../mail/queue";
import { passwordResetMail } from "../mail/templates";
import { mailConfigured } from "../mail/transport";
import { fail, rateLimited, reset, signInLimits, take } from "../rate-limit";
import { checkLimit, mailEmailLimit, passwordResetIpLimit } from "./limits";
import {
  claimPasswordReset,
  deleteUnusedPasswordResets,
  insertPasswordReset,
  readPasswordResetByToken,
  readUserByEmail,
} from "./store/accounts";
import { workspaceIdsOfUser } from "./store/members";

export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;
const TOKEN_LENGTH = 43;

export function passwordResetUrl(token: string): string {
  return `${publicUrl()}/reset-password/${token}`;
}

/** The link of the "forgot password" page (named in the sign-up notice to an existing account). */
export function forgotPasswordUrl(): string {
  return `${publicUrl()}/forgot-password`;
}

function unavailable(): ApiError {
  return new ApiError(
    "PASSWORD_RESET_UNAVAILABLE",
    "This service sends no email, so passwords cannot be reset here. Ask an owner of your workspace to invite you again, or the service's operator",
  );
}

export async function requestPasswordReset(
  db: Db,
  input: { email: string; ip: string },
): Promise<{ status: "sent_if_account_exists" }> {
  if (!mailConfigured()) throw unavailable();
  const email = normalizeEmail(input.email);
  const [byIp, byEmail] = await Promise.all([
    take(passwordResetIpLimit(), input.ip),
    take(mailEmailLimit(), email),
  ]);
  const wait = Math.max(byIp, byEmail);
  if (wait > 0) throw rateLimited(wait, "password reset");

  const user = await readUserByEmail(db, email);
  if (user) {
    const now = new Date();
    await deleteUnusedPasswordResets(db, user.id);
    const token = randomToken(TOKEN_LENGTH);
    await insertPasswordReset(db, {
      id: newId("pwr"),
      userId: user.id,
      tokenHash: sha256Hex(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
    });
    await queueMail(
      db,
      "password_reset",
      passwordResetMail({ to: user.email, url: passwordResetUrl(token) }),
    );
  }
  return { status: "sent_if_account_exists" };
}

interface UsableReset {
  id: string;
  userId: string;
  expiresAt: Date;
  email: string;
}

/** The reset of a token if it can still be used, else 410 (counted against `ip`). */
async function usableReset(db: Db, token: string, ip: string): Promise<UsableReset> {
  const row = await readPasswordResetByToken(db, sha256Hex(token));
  let problem: string | undefined;
  if (!row) problem = "This password-reset link is not valid. Ask for a new one";
  else if (row.usedAt)
    problem = "This password-reset link was already used. Ask for a new one if you need to";
  else if (row.expiresAt.getTime() <= Date.now())
    problem = "This password-reset link has expired (links work for 30 minutes). Ask for a new one";
  if (problem || !row) {
    await fail(passwordResetIpLimit(), ip);
    throw new ApiError("RESET_LINK_INVALID", problem ?? "This password-reset link is not valid");
  }
  return row;
}

export async function lookupPasswordReset(
  db: Db,
  input: { token: string; ip: string },
): Promise<{ email: string; expiresAt: string }> {
  if (!mailConfigured()) throw unavailable();
  await checkLimit(passwordResetIpLimit(), input.ip, "password reset");
  const row = await usableReset(db, input.token, input.ip);
  return { email: row.email, expiresAt: row.expiresAt.toISOString() };
}

export async function completePasswordReset(
  db: Db,
  input: { token: string; newPassword: string; ip: string; requestId: string },
): Promise<{ reset: true; email: string }> {
  if (!mailConfigured()) throw unavailable();
  const limit = passwordResetIpLimit();
  await checkLimit(limit, input.ip, "password reset");
  const row = await usableReset(db, input.token, input.ip);
  const now = new Date();
  // claim first: a concurrent use waits on the row lock, then finds nothing to claim
  if (!(await claimPasswordReset(db, row.id, now))) {
    await fail(limit, input.ip);
    throw new ApiError(
      "RESET_LINK_INVALID",
      "This password-reset link was already used. Ask for a new one if you need to",
    );
  }
  await endAllSessions(db, row.userId, { passwordHash: await hashPassword(input.newPassword) });
  await deleteUnusedPasswordResets(db, row.userId);
  for (const workspaceId of await workspaceIdsOfUser(db, row.userId)) {
    await recordAudit(db, {
      workspaceId,
      environment: null,
      actor: userActor(row.userId),
      action: "user.password_reset",
      targetType: "user",
      targetId: row.userId,
      requestId: input.requestId,
      data: { via: "email_link" },
    });
  }
  await reset(signInLimits().email, row.email);
  return { reset: true, email: row.email };
}
