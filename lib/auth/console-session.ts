/**
 * Console sessions: the next-auth JWT cookie as a workspace credential on the REST API.
 * Rules:
 * - the cookie is next-auth's encrypted JWT (`idv.session`, `__Secure-idv.session` on https),
 *   HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https; its key derives from IDV_MASTER_KEY,
 *   so no extra secret needs configuring;
 * - a session is refused once the user's `sessionsValidFrom` is later than its issue time
 *   (password change signs out everywhere) and when the user is no longer a member;
 * - the workspace is the one named in `X-Workspace-Id`, else the user's oldest membership;
 * - cookie-authenticated writes need a same-origin `Origin` header (CSRF): a missing or foreign
 *   Origin is 403 CSRF_ORIGIN_MISMATCH. Reads need none (SameSite=Lax and CORS keep their
 *   answers from other sites);
 * - a session issued to an operator carries `operatorExpiresAt` (sign-in + 2 hours) and ends
 *   there, for the back-office and the console alike (next-auth renews a JWT's own `exp`, never
 *   this claim). Only such a session is an operator credential, and only while the user still has
 *   the operator flag (read on every request): a user made operator after signing in signs in
 *   again.
 */
import { createHmac } from "node:crypto";
import { decode } from "next-auth/jwt";
import { config } from "../config";
import type { Tx } from "../db/client";
import type { TEnvironment } from "../environments";
import { getMasterKey } from "../crypto/master-key";
import { ApiError } from "../errors";
import { parseRole, type TRole } from "./roles";

/** Console sessions last 12 hours. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;
/** Sessions of operators last 2 hours from sign-in. */
export const OPERATOR_SESSION_MAX_AGE_SECONDS = 2 * 60 * 60;
/** The JWT claim holding an operator session's end (seconds since the epoch). */
export const OPERATOR_EXPIRY_CLAIM = "operatorExpiresAt";

export function secureCookies(): boolean {
  return config().https;
}

export function sessionCookieName(): string {
  return secureCookies() ? "__Secure-idv.session" : "idv.session";
}

let secret: string | undefined;
/** The next-auth secret: derived from IDV_MASTER_KEY, so rotating the master key signs everyone out. */
export function sessionSecret(): string {
  secret ??= createHmac("sha256", getMasterKey()).update("idv console session v1").digest("base64url");
  return secret;
}

export interface SessionClaims {
  userId: string;
  email: string;
  issuedAt: number;
  /** operator sessions only: the end of the session (seconds since the epoch) */
  operatorExpiresAt?: number;
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The session cookie's claims, or undefined when there is no valid session cookie. */
export async function readSessionCookie(cookieHeader: string | null): Promise<SessionClaims | undefined> {
  const token = readCookie(cookieHeader, sessionCookieName());
  if (!token) return undefined;
  let jwt;
  try {
    jwt = await decode({ token: decodeURIComponent(token), secret: sessionSecret() });
  } catch {
    return undefined;
  }
  if (!jwt || typeof jwt.sub !== "string" || typeof jwt.iat !== "number") return undefined;
  const operatorExpiresAt = jwt[OPERATOR_EXPIRY_CLAIM];
  const claims: SessionClaims = {
    userId: jwt.sub,
    email: typeof jwt.email === "string" ? jwt.email : "",
    issuedAt: jwt.iat,
  };
  if (typeof operatorExpiresAt === "number") {
    if (operatorExpiresAt * 1000 <= Date.now()) return undefined;
    claims.operatorExpiresAt = operatorExpiresAt;
  }
  return claims;
}

/** The claims next-auth puts in the JWT at sign-in beside sub/email/name. */
export function signInClaims(user: { isOperator?: boolean }, now = Date.now()): Record<string, number> {
  return user.isOperator
    ? { [OPERATOR_EXPIRY_CLAIM]: Math.floor(now / 1000) + OPERATOR_SESSION_MAX_AGE_SECONDS }
    : {};
}

export function hasSessionCookie(cookieHeader: string | null): boolean {
  return readCookie(cookieHeader, sessionCookieName()) !== undefined;
}

/** Same-origin check of a cookie-authenticated write (CSRF). */
export function checkSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (!origin) {
    throw new ApiError(
      "CSRF_ORIGIN_MISMATCH",
      "A console session can change data only from the console: the Origin header is missing",
    );
  }
  const allowed = new Set([new URL(config().publicUrl).origin, new URL(request.url).origin]);
  const host = request.headers.get("host");
  if (host) allowed.add(`${new URL(request.url).protocol}//${host}`);
  if (!allowed.has(origin)) {
    throw new ApiError(
      "CSRF_ORIGIN_MISMATCH",
      `A console session can change data only from the console: Origin ${origin} is not this service`,
    );
  }
}

export interface SessionMember {
  userId: string;
  email: string;
  name: string | null;
  workspaceId: string;
  role: TRole;
}

/**
 * Whether a password change ended a session issued at `issuedAt` (JWT `iat`, seconds): the
 * change sets `sessionsValidFrom` to the start of the next second (lib/team/me.ts), so every
 * session issued before that second is refused.
 */
export function endedByPasswordChange(sessionsValidFrom: Date | null, issuedAt: number): boolean {
  return sessionsValidFrom !== null && sessionsValidFrom.getTime() > issuedAt * 1000 + 999;
}

/** The session's user, or 401 INVALID_SESSION when the user is gone or changed the password since. */
function liveSessionUser<T extends { sessionsValidFrom: Date | null }>(
  claims: SessionClaims,
  user: T | null,
): T {
  if (!user) throw invalidSession();
  if (endedByPasswordChange(user.sessionsValidFrom, claims.issuedAt)) {
    throw invalidSession("Your password was changed: sign in again");
  }
  return user;
}

function invalidSession(message = "Your console session has ended. Sign in again"): ApiError {
  return new ApiError("INVALID_SESSION", message);
}

/** Resolves the session's user and membership (one query), or throws 401/403. */
export async function resolveSessionMember(
  db: Tx,
  claims: SessionClaims,
  workspaceId: string | null,
): Promise<SessionMember> {
  const user = liveSessionUser(
    claims,
    await db.user.findUnique({
      where: { id: claims.userId },
      select: {
        id: true,
        email: true,
        name: true,
        sessionsValidFrom: true,
        memberships: {
          where: workspaceId ? { workspaceId } : undefined,
          orderBy: { createdAt: "asc" },
          take: 1,
          select: { workspaceId: true, role: true },
        },
      },
    }),
  );
  const membership = user.memberships[0];
  if (!membership) {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      workspaceId
        ? `You are not a member of workspace ${workspaceId}`
        : "You are not a member of any workspace",
    );
  }
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    workspaceId: membership.workspaceId,
    role: parseRole(membership.role),
  };
}

export interface SessionOperator {
  userId: string;
  email: string;
  name: string | null;
  /** how many workspaces the operator is also a member of (the console link needs one) */
  memberships: number;
}

/**
 * Resolves an operator session (one query): 401 INVALID_SESSION when the user is gone or signed
 * out by a password change, 403 RESOURCE_FORBIDDEN when the session is not an operator's.
 */
export async function resolveSessionOperator(db: Tx, claims: SessionClaims): Promise<SessionOperator> {
  const user = liveSessionUser(
    claims,
    await db.user.findUnique({
      where: { id: claims.userId },
      select: {
        id: true,
        email: true,
        name: true,
        isOperator: true,
        sessionsValidFrom: true,
        _count: { select: { memberships: true } },
      },
    }),
  );
  if (!user.isOperator) {
    throw new ApiError("RESOURCE_FORBIDDEN", "Operators only: this session is not an operator's");
  }
  if (claims.operatorExpiresAt === undefined) {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      "This session began before you became an operator: sign in again to use the back-office",
    );
  }
  return { userId: user.id, email: user.email, name: user.name, memberships: user._count.memberships };
}

export function sessionEnvironmentLabel(environment: TEnvironment): string {
  return environment === "sandbox" ? "Sandbox" : "Production";
}
