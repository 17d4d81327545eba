/**
 * Client assertions: private_key_jwt client authentication (OpenID Connect Core §9, RFC 7523 §3,
 * RFC 7521 §4.2) at the OpenID Provider's /token and /par. Pure: the caller finds the client's
 * keys and policy (lib/oidc/client-keys.ts, lib/oidc/profile.ts) and claims the jti
 * (lib/oidc/store/replay.ts).
 * Rules:
 * - client_assertion_type is urn:ietf:params:oauth:client-assertion-type:jwt-bearer; the assertion
 *   is a compact JWS (a JWE, an unsigned JWT or anything else is refused);
 * - its alg is ES256, PS256, EdDSA or RS256 (none and HMAC never: a client secret is no key), and
 *   one of the client's policy (clientJwtAlgs: RS256 refused under FAPI 2.0); the signature must
 *   verify with a key the client registered (jwks or jwksUri);
 * - iss and sub are both the client_id;
 * - exp is required and in the future, and at most MAX_ASSERTION_LIFETIME_SECONDS (10 minutes)
 *   after iat (or now, without iat): the jti is remembered until exp, so this bounds what the
 *   replay table holds, and an assertion is meant for one request made right away;
 * - iat and nbf, when present, are not in the future beyond ASSERTION_CLOCK_LEEWAY_SECONDS (60 s);
 * - jti is required (a non-empty string of at most 256 characters); single use until exp is the
 *   caller's claim;
 * - aud: under FAPI 2.0 (assertionAudience "issuer_only") exactly the issuer identifier, as a
 *   string or an array holding only it; otherwise (RFC 7523 §3, RFC 9126 §2) a string or array
 *   containing the issuer, the token endpoint URL or the PAR endpoint URL;
 * - nothing about the client is told before its key verified the signature: the form and the alg
 *   family are checked first (the same for every client), then the signature (an unknown client,
 *   one without keys and a wrong key get the same answer), then the client's own rules;
 * - every refusal is a ClientAssertionError whose message names what is wrong (the caller
 *   answers 401 invalid_client with it).
 */
import {
  compactVerify,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type CompactVerifyGetKey,
  type JWTVerifyGetKey,
} from "jose";
import { CLIENT_JWT_ALGS, type TClientPolicy } from "./profile";

export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
export const MAX_ASSERTION_LIFETIME_SECONDS = 600;
export const ASSERTION_CLOCK_LEEWAY_SECONDS = 60;
export const MAX_JTI_LENGTH = 256;

export class ClientAssertionError extends Error {
  constructor(description: string) {
    super(description);
    this.name = "ClientAssertionError";
  }
}

const refuse = (what: string) => new ClientAssertionError(`client_assertion: ${what}`);

export const NOT_VERIFIED =
  "client_assertion: its signature does not verify with a key the client registered (jwks or jwksUri)";

/** The payload, unverified; refuses what is not a compact JWS. */
function decodedPayload(assertion: string): Record<string, unknown> {
  const parts = assertion.split(".");
  if (parts.length === 5) throw refuse("encrypted assertions (JWE) are not supported; send a signed JWT");
  if (parts.length !== 3) throw refuse("must be a signed JWT (compact JWS)");
  try {
    return decodeJwt(assertion) as Record<string, unknown>;
  } catch {
    throw refuse("must be a signed JWT (compact JWS) with a JSON object as payload");
  }
}

/**
 * The client an assertion names, read before anything is verified (to find its keys): its sub,
 * which must equal its iss. Throws ClientAssertionError.
 */
export function assertionClientId(assertion: string): string {
  const payload = decodedPayload(assertion);
  const { iss, sub } = payload;
  if (typeof sub !== "string" || sub === "") throw refuse("sub is required: the client_id");
  if (typeof iss !== "string" || iss === "") throw refuse("iss is required: the client_id");
  if (iss !== sub) throw refuse("iss and sub must both be the client_id");
  return sub;
}

export interface TAssertionCheck {
  /** the client the assertion names (assertionClientId) */
  clientId: string;
  /** the client's keys; undefined: none (or no such client) */
  keys: JWTVerifyGetKey | undefined;
  policy: Pick<TClientPolicy, "clientJwtAlgs" | "assertionAudience">;
  /** the OP's issuer identifier */
  issuer: string;
  /** the endpoint URLs an audience may name besides the issuer (token, PAR) */
  endpoints: readonly string[];
  now?: Date;
}

function audienceAccepted(aud: unknown, check: TAssertionCheck): boolean {
  const list = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : undefined;
  if (!list || list.length === 0 || !list.every((a) => typeof a === "string")) return false;
  if (check.policy.assertionAudience === "issuer_only") return list.every((a) => a === check.issuer);
  const accepted = [check.issuer, ...check.endpoints];
  return list.some((a) => accepted.includes(a));
}

function numericDate(payload: Record<string, unknown>, claim: string): number | undefined {
  const value = payload[claim];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw refuse(`${claim} must be a NumericDate`);
  return value;
}

/** The signature, checked with the client's keys (any alg of the family: the client's own list comes after). */
async function verifySignature(assertion: string, keys: JWTVerifyGetKey | undefined) {
  if (!keys) throw new ClientAssertionError(NOT_VERIFIED);
  try {
    return await compactVerify(assertion, keys as CompactVerifyGetKey, { algorithms: [...CLIENT_JWT_ALGS] });
  } catch (err) {
    if (err instanceof errors.JOSEError) throw new ClientAssertionError(NOT_VERIFIED);
    // the client's jwksUri could not be read (refused address, network): as unverified
    if (err instanceof TypeError || (err instanceof Error && err.name === "TimeoutError"))
      throw new ClientAssertionError(NOT_VERIFIED);
    throw err;
  }
}

/**
 * Verifies a client assertion for `check.clientId` (see the rules): its jti and when it may be
 * forgotten, or a ClientAssertionError.
 */
export async function verifyClientAssertion(
  assertion: string,
  check: TAssertionCheck,
): Promise<{ jti: string; expiresAt: Date }> {
  if (assertionClientId(assertion) !== check.clientId) throw refuse("sub is not the client_id");
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(assertion).alg;
  } catch {
    throw refuse("must be a signed JWT (compact JWS)");
  }
  if (typeof alg !== "string" || !(CLIENT_JWT_ALGS as readonly string[]).includes(alg)) {
    throw refuse(
      `alg ${typeof alg === "string" ? `"${alg.slice(0, 32)}"` : "(missing)"} is not accepted; sign with one of ${CLIENT_JWT_ALGS.join(", ")}`,
    );
  }
  await verifySignature(assertion, check.keys);
  if (!(check.policy.clientJwtAlgs as readonly string[]).includes(alg)) {
    throw refuse(
      `alg "${alg}" is not accepted for this client; sign with one of ${check.policy.clientJwtAlgs.join(", ")}`,
    );
  }
  const payload = decodedPayload(assertion);
  if (payload.iss !== check.clientId || payload.sub !== check.clientId)
    throw refuse("iss and sub must both be the client_id");
  const now = Math.floor((check.now ?? new Date()).getTime() / 1000);
  const exp = numericDate(payload, "exp");
  const iat = numericDate(payload, "iat");
  const nbf = numericDate(payload, "nbf");
  if (exp === undefined) throw refuse("exp is required");
  if (exp <= now) throw refuse("has expired (exp)");
  if (iat !== undefined && iat > now + ASSERTION_CLOCK_LEEWAY_SECONDS) throw refuse("iat is in the future");
  if (nbf !== undefined && nbf > now + ASSERTION_CLOCK_LEEWAY_SECONDS) throw refuse("nbf is in the future");
  if (exp - (iat ?? now) > MAX_ASSERTION_LIFETIME_SECONDS) {
    throw refuse(
      `exp must be at most ${MAX_ASSERTION_LIFETIME_SECONDS} seconds after ${iat === undefined ? "now" : "iat"}`,
    );
  }
  const { jti } = payload;
  if (typeof jti !== "string" || jti === "" || jti.length > MAX_JTI_LENGTH)
    throw refuse(`jti is required: a unique string of at most ${MAX_JTI_LENGTH} characters`);
  if (!audienceAccepted(payload.aud, check)) {
    throw refuse(
      check.policy.assertionAudience === "issuer_only"
        ? `aud must be the issuer identifier ${check.issuer} (FAPI 2.0), alone`
        : `aud must name the issuer ${check.issuer} or the endpoint (${check.endpoints.join(", ")})`,
    );
  }
  return { jti, expiresAt: new Date(exp * 1000) };
}
