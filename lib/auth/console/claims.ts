/**
 * The claims of a console session (next-auth's JWT) and the lifetimes they carry.
 * Rules:
 * - sign-in sets `signedInAt` (seconds) and `sid` (random) once; next-auth's renewal re-issues the
 *   JWT with a new `iat`/`exp` but copies these unchanged, so they name the sign-in, not the cookie;
 * - a session lives at most IDV_CONSOLE_SESSION_MAX_HOURS (default 7 days) from `signedInAt`,
 *   however often it is renewed; an operator's session ends 2 hours after sign-in
 *   (`operatorExpiresAt`);
 * - a JWT without `signedInAt` and `sid` (issued before these claims existed) is no session: its
 *   user signs in again once.
 */
import { config } from "../../config";
import { randomToken } from "../../ids";

/** The cookie and JWT of a session last 12 hours from their last renewal. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;
/** Sessions of operators last 2 hours from sign-in. */
export const OPERATOR_SESSION_MAX_AGE_SECONDS = 2 * 60 * 60;
/** The JWT claim holding an operator session's end (seconds since the epoch). */
export const OPERATOR_EXPIRY_CLAIM = "operatorExpiresAt";
/** The JWT claim holding the sign-in time (seconds since the epoch), never renewed. */
export const SIGNED_IN_AT_CLAIM = "signedInAt";
/**
 * The JWT claim holding the sign-in time in milliseconds, never renewed: compared with
 * `sessionsValidFrom`, so that a sign-in right after a password reset or "sign out of all
 * sessions", within the same second, is not taken for one that began before it.
 */
export const SIGNED_IN_AT_MS_CLAIM = "signedInAtMs";
/** The JWT claim holding the session's random id (its own sign-out revokes it). */
export const SESSION_ID_CLAIM = "sid";

export interface SessionClaims {
  userId: string;
  email: string;
  /** sign-in time, seconds since the epoch */
  signedInAt: number;
  /** sign-in time, milliseconds since the epoch (sessions signed in before it existed have none) */
  signedInAtMs?: number;
  /** the session's random id */
  sessionId: string;
  /** operator sessions only: the end of the session (seconds since the epoch) */
  operatorExpiresAt?: number;
}

/** IDV_CONSOLE_SESSION_MAX_HOURS in seconds. */
export function sessionMaxLifetimeSeconds(): number {
  return Math.round(config().consoleSessionMaxHours * 3600);
}

/** The session's absolute end (seconds since the epoch), renewals or not. */
export function sessionEndsAt(claims: Pick<SessionClaims, "signedInAt" | "operatorExpiresAt">): number {
  const end = claims.signedInAt + sessionMaxLifetimeSeconds();
  return claims.operatorExpiresAt === undefined ? end : Math.min(end, claims.operatorExpiresAt);
}

/**
 * The claims of a decoded session JWT, or undefined when it is no live session: a claim missing
 * (issued before `signedInAt`/`sid` existed) or its absolute end passed.
 */
export function sessionClaimsOf(jwt: Record<string, unknown>, now = Date.now()): SessionClaims | undefined {
  const { sub, email } = jwt;
  const signedInAt = jwt[SIGNED_IN_AT_CLAIM];
  const sessionId = jwt[SESSION_ID_CLAIM];
  const operatorExpiresAt = jwt[OPERATOR_EXPIRY_CLAIM];
  if (typeof sub !== "string" || typeof sessionId !== "string" || sessionId === "") return undefined;
  if (typeof signedInAt !== "number" || !Number.isInteger(signedInAt)) return undefined;
  const claims: SessionClaims = {
    userId: sub,
    email: typeof email === "string" ? email : "",
    signedInAt,
    sessionId,
  };
  const signedInAtMs = jwt[SIGNED_IN_AT_MS_CLAIM];
  if (typeof signedInAtMs === "number" && Number.isInteger(signedInAtMs)) claims.signedInAtMs = signedInAtMs;
  if (typeof operatorExpiresAt === "number") claims.operatorExpiresAt = operatorExpiresAt;
  if (sessionEndsAt(claims) * 1000 <= now) return undefined;
  return claims;
}

/** The claims next-auth puts in the JWT at sign-in beside sub/email/name. */
export function signInClaims(
  user: { isOperator?: boolean },
  now = Date.now(),
): Record<string, number | string> {
  const signedInAt = Math.floor(now / 1000);
  return {
    [SIGNED_IN_AT_CLAIM]: signedInAt,
    [SIGNED_IN_AT_MS_CLAIM]: now,
    [SESSION_ID_CLAIM]: randomToken(32),
    ...(user.isOperator ? { [OPERATOR_EXPIRY_CLAIM]: signedInAt + OPERATOR_SESSION_MAX_AGE_SECONDS } : {}),
  };
}
