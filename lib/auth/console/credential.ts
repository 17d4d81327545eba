/**
 * Console sessions: the next-auth JWT cookie as a workspace credential on the REST API.
 * Rules:
 * - the cookie is next-auth's encrypted JWT (`idv.session`, `__Secure-idv.session` on https),
 *   HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https; its key derives from IDV_MASTER_KEY,
 *   so no extra secret needs configuring;
 * - a session is refused once it has ended (lib/auth/console/lifetime.ts: signed out, all sessions ended,
 *   past its absolute lifetime, user gone; its claims: claims.ts) and when the user is no
 *   longer a member; the user, the membership and the revocation are one statement per request;
 * - the workspace is the one named in `X-Workspace-Id`, else the user's oldest membership;
 * - cookie-authenticated writes need an `Origin` header equal to PUBLIC_URL's origin (CSRF): a
 *   missing or any other Origin is 403 CSRF_ORIGIN_MISMATCH, whatever the request's Host says
 *   (the console is served on PUBLIC_URL only: custom domains serve hosted pages and the OP, never
 *   the console). Reads need none (SameSite=Lax and CORS keep their answers from other sites);
 * - a session issued to an operator carries `operatorExpiresAt` (sign-in + 2 hours) and ends
 *   there, for the back-office and the console alike (next-auth renews a JWT's own `exp`, never
 *   this claim). Only such a session is an operator credential, and only while the user still has
 *   the operator flag (read on every request): a user made operator after signing in signs in
 *   again.
 */
import { createHmac } from "node:crypto";
import { decode } from "next-auth/jwt";
import { config } from "../../config";
import type { Db } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { getMasterKey } from "../../crypto/master-key";
import { ApiError } from "../../errors";
import { parseRole, type TRole } from "../roles";
import { sessionClaimsOf, type SessionClaims } from "./claims";
import { sessionEndedBy, type SessionUserState } from "./lifetime";
import { readSessionMember, readSessionUser } from "../store/console-sessions";

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

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The session cookie's claims, or undefined when there is no valid session cookie (none, forged,
 * expired, without the sign-in claims, or past its absolute lifetime).
 */
export async function readSessionCookie(cookieHeader: string | null): Promise<SessionClaims | undefined> {
  const token = readCookie(cookieHeader, sessionCookieName());
  if (!token) return undefined;
  let jwt;
  try {
    jwt = await decode({ token: decodeURIComponent(token), secret: sessionSecret() });
  } catch {
    return undefined;
  }
  return jwt ? sessionClaimsOf(jwt) : undefined;
}

export function hasSessionCookie(cookieHeader: string | null): boolean {
  return readCookie(cookieHeader, sessionCookieName()) !== undefined;
}

/**
 * Same-origin check of a cookie-authenticated write (CSRF): the Origin must be PUBLIC_URL's. The
 * request's own URL and Host are not trusted (a forged Host would vouch for itself).
 */
export function checkSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const own = new URL(config().publicUrl).origin;
  if (!origin) {
    throw new ApiError(
      "CSRF_ORIGIN_MISMATCH",
      "A console session can change data only from the console: the Origin header is missing",
    );
  }
  if (origin !== own) {
    throw new ApiError(
      "CSRF_ORIGIN_MISMATCH",
      `A console session can change data only from the console (${own}): Origin ${origin} is not it`,
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

/** The session's user, or 401 INVALID_SESSION when the user is gone or the session has ended. */
function liveSessionUser<T extends SessionUserState>(claims: SessionClaims, user: T | undefined): T {
  if (!user) throw invalidSession();
  const ended = sessionEndedBy(claims, user);
  if (ended) throw invalidSession(ended);
  return user;
}

function invalidSession(message = "Your console session has ended. Sign in again"): ApiError {
  return new ApiError("INVALID_SESSION", message);
}

/** Resolves the session's user and membership (one statement), or throws 401/403. */
export async function resolveSessionMember(
  db: Db,
  claims: SessionClaims,
  workspaceId: string | null,
): Promise<SessionMember> {
  const user = liveSessionUser(
    claims,
    await readSessionMember(db, claims.userId, claims.sessionId, workspaceId || null),
  );
  if (user.workspaceId === null || user.role === null) {
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
    workspaceId: user.workspaceId,
    role: parseRole(user.role),
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
 * Resolves an operator session (one statement): 401 INVALID_SESSION when the user is gone or the
 * session has ended, 403 RESOURCE_FORBIDDEN when the session is not an operator's.
 */
export async function resolveSessionOperator(db: Db, claims: SessionClaims): Promise<SessionOperator> {
  const user = liveSessionUser(claims, await readSessionUser(db, claims.userId, claims.sessionId));
  if (!user.isOperator) {
    throw new ApiError("RESOURCE_FORBIDDEN", "Operators only: this session is not an operator's");
  }
  if (claims.operatorExpiresAt === undefined) {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      "This session began before you became an operator: sign in again to use the back-office",
    );
  }
  return { userId: user.id, email: user.email, name: user.name, memberships: user.memberships };
}

export function sessionEnvironmentLabel(environment: TEnvironment): string {
  return environment === "sandbox" ? "Sandbox" : "Production";
}
