/**
 * The sealed values of a test sign-in through a connection (./test-sign-in.ts): the hand-off
 * between the start and the upstream's answer, and the result the back-office result page shows.
 * Rules:
 * - both are sealed with the master key (forged, truncated or foreign values read as absent) and
 *   carry the operator's user id and console session id and an expiry: the hand-off 10 minutes,
 *   the result 5;
 * - a redirect's hand-off (oidc) travels in an HttpOnly cookie of its own (Path=/verify, its own
 *   name: never a session's); a callback is a test sign-in's when that cookie is present and a
 *   session's is not;
 * - the result travels in a second sealed HttpOnly cookie (Path=/operator/{env}/connections) and
 *   is read only by the same live session, for the same environment and provider; a result that
 *   does not fit in a cookie (about 4 KB) keeps its outcome only (`truncated`).
 */
import { z } from "zod";
import { readSessionCookie } from "../auth/console/credential";
import { config } from "../config";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { ENVIRONMENTS, type TEnvironment } from "../environments";

/** The hand-off cookie between the start and the callback (its own name: never a session's). */
export const TEST_SIGN_IN_COOKIE = "idv_connection_test";
/** The result cookie the back-office result page reads. */
export const TEST_RESULT_COOKIE = "idv_connection_test_result";

export const HANDOFF_SECONDS = 10 * 60;
const RESULT_SECONDS = 5 * 60;
/** Browsers keep cookies up to about 4096 bytes (name and attributes included). */
const MAX_RESULT_COOKIE_CHARS = 3800;
export const PURPOSE_HANDOFF = "connection_test_sign_in";
const PURPOSE_RESULT = "connection_test_result";
/** The hand-off cookie's path: the one callback, {PUBLIC_URL}/verify/callback. */
const HANDOFF_COOKIE_PATH = "/verify";

const ZEnvironment = z.enum(ENVIRONMENTS);

const ZHandOff = z.object({
  purpose: z.literal(PURPOSE_HANDOFF),
  env: ZEnvironment,
  providerId: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  expiresAt: z.number(),
  /** the connection's adapter when the sign-in started, the binding its answer carries, its state */
  adapter: z.string(),
  binding: z.string().optional(),
  state: z.unknown(),
});
export type THandOff = z.infer<typeof ZHandOff>;

export const ZTestSignInResult = z.object({
  env: ZEnvironment,
  providerId: z.string(),
  outcome: z.enum(["success", "failure", "cancelled", "refused"]),
  /** failure: the adapter's reason and message; refused: why the callback refused the hand-off */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  /** the claims under OIDC names, mapped by the connection's claimMapping */
  claims: z.record(z.string(), z.unknown()),
  /** the upstream's person claims under its own names (the mapping editor previews on these) */
  rawClaims: z.record(z.string(), z.unknown()),
  loa: z.number().nullable(),
  evidence: z.record(z.string(), z.string()),
  /** the claims did not fit in the result cookie: only the outcome is shown */
  truncated: z.boolean(),
  at: z.string(),
});
export type TTestSignInResult = z.infer<typeof ZTestSignInResult>;

const ZSealedResult = z.object({
  purpose: z.literal(PURPOSE_RESULT),
  userId: z.string(),
  sessionId: z.string(),
  expiresAt: z.number(),
  result: ZTestSignInResult,
});

function secureFlag(): string {
  return config().https ? "; Secure" : "";
}

function cookie(name: string, value: string, path: string, maxAge: number): string {
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureFlag()}`;
}

export function resultPagePath(env: TEnvironment, providerId: string): string {
  return `/operator/${env}/connections/${providerId}/test-sign-in`;
}

function resultCookiePath(env: TEnvironment): string {
  return `/operator/${env}/connections`;
}

/** The cookie header's value of `name` (undefined when absent). */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function unseal<T>(schema: z.ZodType<T>, sealed: string | undefined): T | null {
  if (!sealed) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(decryptSecret(sealed)));
    return parsed.success ? parsed.data : null;
  } catch {
    // forged, truncated, or sealed with another master key
    return null;
  }
}

/** A hand-off sealed with the master key (in its cookie, or in a form post's hand-off row). */
export function sealHandOff(handOff: THandOff): string {
  return encryptSecret(JSON.stringify(handOff));
}

/** A sealed hand-off read back; null when absent, forged, truncated or not a hand-off. */
export function unsealHandOff(sealed: string | undefined): THandOff | null {
  return unseal(ZHandOff, sealed);
}

/** The Set-Cookie value of a redirect's hand-off. */
export function handOffCookie(handOff: THandOff): string {
  return cookie(TEST_SIGN_IN_COOKIE, sealHandOff(handOff), HANDOFF_COOKIE_PATH, HANDOFF_SECONDS);
}

/** The Set-Cookie value that clears the hand-off cookie (the callback has used it). */
export function clearedHandOffCookie(): string {
  return cookie(TEST_SIGN_IN_COOKIE, "", HANDOFF_COOKIE_PATH, 0);
}

/** The hand-off the request's cookie carries; null when absent or unreadable. */
export function readHandOffCookie(cookieHeader: string | null): THandOff | null {
  return unsealHandOff(cookieValue(cookieHeader, TEST_SIGN_IN_COOKIE));
}

/** Whether a callback request belongs to a test sign-in: its cookie, and no session's cookie. */
export function isTestSignInCallback(cookieHeader: string | null, sessionCookieName: string): boolean {
  return (
    cookieValue(cookieHeader, TEST_SIGN_IN_COOKIE) !== undefined &&
    cookieValue(cookieHeader, sessionCookieName) === undefined
  );
}

function sealResult(result: TTestSignInResult, userId: string, sessionId: string): string {
  const seal = (r: TTestSignInResult) =>
    encryptSecret(
      JSON.stringify({
        purpose: PURPOSE_RESULT,
        userId,
        sessionId,
        expiresAt: Date.now() + RESULT_SECONDS * 1000,
        result: r,
      }),
    );
  const sealed = seal(result);
  if (sealed.length <= MAX_RESULT_COOKIE_CHARS) return sealed;
  return seal({ ...result, claims: {}, rawClaims: {}, evidence: {}, truncated: true });
}

/** The Set-Cookie value of a result, sealed for the hand-off's session. */
export function resultCookie(handOff: THandOff, result: TTestSignInResult): string {
  const sealed = sealResult(result, handOff.userId, handOff.sessionId);
  return cookie(TEST_RESULT_COOKIE, sealed, resultCookiePath(handOff.env), RESULT_SECONDS);
}

/**
 * The result page's read: the sealed result of the last test sign-in of `providerId` in `env`,
 * when it belongs to this session (`cookieHeader` holds both cookies) and has not expired.
 */
export async function readTestSignInResult(
  cookieHeader: string | null,
  env: TEnvironment,
  providerId: string,
): Promise<TTestSignInResult | null> {
  const sealed = unseal(ZSealedResult, cookieValue(cookieHeader, TEST_RESULT_COOKIE));
  if (!sealed || Date.now() > sealed.expiresAt) return null;
  const claims = await readSessionCookie(cookieHeader);
  if (!claims || claims.userId !== sealed.userId || claims.sessionId !== sealed.sessionId) return null;
  if (sealed.result.env !== env || sealed.result.providerId !== providerId) return null;
  return sealed.result;
}
