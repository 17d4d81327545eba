/**
 * Signed request objects passed by value (JAR, RFC 9101; OIDC Core §6.1) at /auth and /par.
 * Rules:
 * - a compact JWS signed with one of the client's registered keys (lib/oidc/client-keys.ts: its
 *   `jwks` or `jwksUri`) with an algorithm of its policy (policy.clientJwtAlgs,
 *   lib/oidc/profile.ts: RS256 only outside fapi2); `none` (unsigned, OIDC Core §6.1 allows it but
 *   we refuse it), HMAC and encrypted request objects (a JWE: 5 parts) are refused; a client
 *   without keys cannot send one;
 * - `typ` absent, "JWT" or "oauth-authz-req+jwt" (RFC 9101 §10.8; with or without "application/");
 * - claims: `iss` = the client_id, `aud` = the issuer (a string, or an array holding it),
 *   `client_id` = the outer client_id (RFC 9101 §5), `exp` required and not past, at most
 *   REQUEST_OBJECT_MAX_LIFETIME_SECONDS after `nbf` (or `iat`, or now), `nbf` not in the future;
 *   JWT_LEEWAY_SECONDS of clock skew on each time claim;
 * - only the request object's parameters are the request (RFC 9101 §5: the outer ones, but
 *   client_id, are ignored; the caller applies that); `request` and `request_uri` inside it are
 *   refused; every parameter is a string (max_age may be a number, `claims` an object: both are
 *   turned into their text form), holding no NUL nor unpaired surrogate;
 * - every failure is invalid_request_object (RFC 9101 §6.2) naming what is wrong; where it is
 *   answered (the error page or the redirect_uri) is the caller's decision.
 */
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { clientKeys, type TClientKeySource } from "../client-keys";
import { isSafeText, printableText, UNSAFE_TEXT_MESSAGE } from "../../http/safe-text";
import { AuthorizationError } from "./authorization-error";

export const REQUEST_OBJECT_MAX_LIFETIME_SECONDS = 3600;
export const JWT_LEEWAY_SECONDS = 60;

const TYPES = new Set(["jwt", "oauth-authz-req+jwt", "application/jwt", "application/oauth-authz-req+jwt"]);
/** registered JWT claims: the envelope, not authorization request parameters */
const ENVELOPE = new Set(["iss", "aud", "exp", "nbf", "iat", "jti", "sub"]);

export interface TRequestObjectInput {
  /** the client: its id and registered keys */
  client: TClientKeySource;
  /** policy.clientJwtAlgs */
  algs: readonly string[];
  /** the issuer the request was sent to: the required audience */
  issuer: string;
  /** the outer client_id */
  clientId: string;
  now?: Date;
}

function refuse(description: string): AuthorizationError {
  return new AuthorizationError("invalid_request_object", `request: ${description}`);
}

/** The authorization request parameters of request object `jwt`, verified. Throws invalid_request_object. */
export async function verifyRequestObject(
  jwt: string,
  input: TRequestObjectInput,
): Promise<Record<string, string>> {
  const parts = jwt.split(".");
  if (parts.length === 5) throw refuse("encrypted request objects are not supported");
  if (parts.length !== 3) throw refuse("must be a signed JWT (compact JWS)");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw refuse("the JWS header cannot be read");
  }
  const alg = header.alg;
  if (alg === undefined || alg === "none" || parts[2] === "")
    throw refuse("unsigned request objects (alg none) are not accepted");
  if (!input.algs.includes(alg))
    throw refuse(`alg "${alg.slice(0, 16)}" is not accepted; use ${input.algs.join(", ")}`);
  if (header.typ !== undefined && !TYPES.has(header.typ.toLowerCase()))
    throw refuse(`typ "${header.typ.slice(0, 32)}" is not accepted; use oauth-authz-req+jwt`);
  const keys = clientKeys(input.client);
  if (!keys)
    throw refuse("the client has registered no keys (jwks or jwks_uri) to verify request objects with");
  const now = input.now ?? new Date();
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(jwt, keys, {
      algorithms: [...input.algs],
      issuer: input.clientId,
      audience: input.issuer,
      requiredClaims: ["exp"],
      clockTolerance: JWT_LEEWAY_SECONDS,
      currentDate: now,
    }));
  } catch (err) {
    throw refuse(reason(err));
  }
  const start = payload.nbf ?? payload.iat ?? Math.floor(now.getTime() / 1000);
  if (payload.exp! - start > REQUEST_OBJECT_MAX_LIFETIME_SECONDS) {
    throw refuse(
      `exp must be at most ${REQUEST_OBJECT_MAX_LIFETIME_SECONDS / 60} minutes after ${payload.nbf !== undefined ? "nbf" : payload.iat !== undefined ? "iat" : "now"}`,
    );
  }
  if (payload.client_id !== input.clientId)
    throw refuse("the client_id claim is required and must equal the client_id parameter");
  return parametersOf(payload);
}

/** The request parameters among the claims (see the rules). */
function parametersOf(payload: JWTPayload): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (ENVELOPE.has(name)) continue;
    if (name === "request" || name === "request_uri")
      throw refuse(`a request object must not contain ${name}`);
    let text: string;
    if (typeof value === "string") text = value;
    else if (name === "max_age" && typeof value === "number") text = String(value);
    else if (name === "claims" && value !== null && typeof value === "object") text = JSON.stringify(value);
    else throw refuse(`the ${printableText(name).slice(0, 64)} claim must be a string`);
    if (!isSafeText(name) || !isSafeText(text))
      throw refuse(`${printableText(name).slice(0, 64)}: ${UNSAFE_TEXT_MESSAGE}`);
    // empty values count as absent, as in a query (params.ts)
    if (text !== "") values[name] = text;
  }
  return values;
}

/** What jose's refusal means, in the client's words. */
function reason(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return "the request object has expired (exp)";
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    switch (err.claim) {
      case "iss":
        return "the iss claim must be the client_id";
      case "aud":
        return "the aud claim must name the issuer";
      case "nbf":
        return "the request object is not valid yet (nbf)";
      case "exp":
        return "the exp claim is required";
      case "iat":
        return "the iat claim is invalid";
      default:
        return `the ${err.claim} claim is invalid`;
    }
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return "the signature does not verify";
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return "no key of the client matches the request object's kid and alg";
  if (err instanceof joseErrors.JWKSMultipleMatchingKeys)
    return "several keys of the client match; name the key with kid";
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid)
    return "the client's jwks_uri could not be read";
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return "the alg is not accepted";
  if (err instanceof joseErrors.JWTInvalid) return "the payload is not a JSON object of claims";
  if (err instanceof joseErrors.JOSEError) return "the signed JWT is invalid";
  // the jwks_uri fetch (lib/http/guarded-fetch.ts) refused or failed
  return "the client's keys could not be read";
}
