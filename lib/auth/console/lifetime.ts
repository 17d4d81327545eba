/**
 * Ending console sessions on the server, and the rule that says whether one has ended.
 * Rules:
 * - a session (next-auth JWT) carries its sign-in time `signedInAt` and a random id `sid`, both
 *   set once at sign-in; renewal changes neither (claims.ts `signInClaims`);
 * - it has ended when the user is gone, when it began before the user's `sessionsValidFrom`
 *   (password change, password reset, "sign out of all sessions": `endAllSessions`), when its
 *   own sign-out recorded its `sid` in `revoked_sessions` (`revokeSession`), or when its absolute
 *   lifetime (IDV_CONSOLE_SESSION_MAX_HOURS from sign-in; an operator's 2 hours) is over;
 * - an ended session is refused by the API (credential.ts) and never renewed: the jwt
 *   callback of next-auth (next-auth.ts) runs `checkSessionRenewal`, one statement;
 * - renewal also needs a workspace: a user removed from their last workspace keeps no session
 *   (an operator's session, which the back-office needs, excepted);
 * - a revoked `sid` is kept until the session's absolute end, when it could not be used anyway;
 *   every revocation deletes such rows first (a batch at a time).
 */
import type { Db } from "../../db/kysely";
import { ApiError } from "../../errors";
import { sessionClaimsOf, sessionEndsAt, type SessionClaims } from "./claims";
import { endUserSessions, insertRevokedSession, readSessionUser } from "../store/console-sessions";

/** A session that has ended, refused by renewal (next-auth answers an empty session and clears the cookie). */
export class SessionEndedError extends Error {
  override readonly name = "SessionEndedError";
}

/**
 * Ends every console session of the user (password change, password reset, "sign out of all
 * sessions"): `sessionsValidFrom` becomes now, to the millisecond; every session signed in
 * before it (sign-in time in milliseconds, `signedInAtMs`) is refused, and a sign-in right after
 * it is not. A user that is not there is 404 RESOURCE_NOT_FOUND (a missing row answers 404 RESOURCE_NOT_FOUND).
 */
export async function endAllSessions(db: Db, userId: string, extra: { passwordHash?: string } = {}) {
  if (!(await endUserSessions(db, userId, new Date(), extra)))
    throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
}

/**
 * Whether `endAllSessions` ended a session: one signed in (milliseconds) at or before
 * `sessionsValidFrom`. A session from before the millisecond claim existed knows only its second
 * (`signedInAt`): it has ended when `sessionsValidFrom` is later than the start of that second.
 */
export function endedForAllSessions(
  sessionsValidFrom: Date | null,
  signedInAt: number,
  signedInAtMs?: number,
): boolean {
  if (sessionsValidFrom === null) return false;
  if (signedInAtMs !== undefined) return sessionsValidFrom.getTime() >= signedInAtMs;
  return sessionsValidFrom.getTime() > signedInAt * 1000;
}

/** What the database says about a session's user and the session itself. */
export interface SessionUserState {
  sessionsValidFrom: Date | null;
  /** the session's own sign-out recorded its sid */
  revoked: boolean;
}

/** Why the session has ended (a message for the user), or undefined while it is live. */
export function sessionEndedBy(claims: SessionClaims, state: SessionUserState): string | undefined {
  if (state.revoked) return "You signed out of this session: sign in again";
  if (endedForAllSessions(state.sessionsValidFrom, claims.signedInAt, claims.signedInAtMs)) {
    return "Your sessions were ended (password change or sign-out of all sessions): sign in again";
  }
  return undefined;
}

/**
 * The renewal check of next-auth's jwt callback (every `GET /api/auth/session`): throws
 * `SessionEndedError` when the session in `token` has ended or has no workspace left. One statement.
 */
export async function checkSessionRenewal(db: Db, token: Record<string, unknown>): Promise<void> {
  const claims = sessionClaimsOf(token);
  if (!claims) throw new SessionEndedError("no live session claims (signed in before issue 23, or too old)");
  const user = await readSessionUser(db, claims.userId, claims.sessionId);
  if (!user) throw new SessionEndedError("the user is gone");
  const ended = sessionEndedBy(claims, user);
  if (ended) throw new SessionEndedError(ended);
  const operatorSession = user.isOperator && claims.operatorExpiresAt !== undefined;
  if (user.memberships === 0 && !operatorSession) throw new SessionEndedError("no workspace left");
}

/**
 * Ends the one session of `token` (its sign-out, next-auth's signOut event): its sid is refused
 * until the session's absolute end. A token without live claims has nothing left to end.
 */
export async function revokeSession(db: Db, token: Record<string, unknown> | null): Promise<void> {
  const claims = token ? sessionClaimsOf(token) : undefined;
  if (!claims) return;
  await insertRevokedSession(db, {
    sid: claims.sessionId,
    userId: claims.userId,
    expiresAt: new Date(sessionEndsAt(claims) * 1000),
  });
}
