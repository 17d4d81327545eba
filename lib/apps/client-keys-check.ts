/**
 * The checks of an app's OpenID client keys as PATCH /v1/apps/{client_id} receives them (issue
 * 28): `jwks`, a JWK Set of the client's public signing keys, and `jwksUri`, where the client
 * publishes it. The OP reads them through lib/oidc/client-keys.ts; what passes here is stored as
 * it was sent.
 * Rules:
 * - a JWK Set is an object with a `keys` array of 1–JWKS_MAX_KEYS keys, at most JWKS_MAX_BYTES as
 *   JSON; each key is an object of kty EC (crv P-256, P-384 or P-521, x, y), RSA (n, e, a modulus
 *   of at least RSA_MIN_BITS bits) or OKP (crv Ed25519, x); symmetric keys (oct) and private
 *   members (d, p, q, dp, dq, qi, oth, k) are refused: the client keeps its private keys;
 * - `use`, when present, is "sig"; `alg`, when present, a signature algorithm; `kid`, when
 *   present, a string no other key of the set has;
 * - each key must import with jose (`importJWK`) as the public key it claims to be;
 * - a problem is answered as `{ path, message }`, the path naming the member and the key's index
 *   (`jwks.keys[1].d`); the caller turns it into its error (lib/apps/service.ts: invalidField);
 * - `jwksUri`: an absolute https URL (http in the sandbox only, as webhook URLs), no user
 *   credentials, no fragment, at most MAX_URI_LENGTH characters; where it points is checked when
 *   it is fetched (the SSRF guard of lib/oidc/client-keys.ts).
 */
import { importJWK, type JWK } from "jose";
import type { TEnvironment } from "../environments";
import { MAX_URI_LENGTH } from "./uris";

export const JWKS_MAX_KEYS = 10;
export const JWKS_MAX_BYTES = 16 * 1024;
export const RSA_MIN_BITS = 2048;

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;
const EC_CURVES: Record<string, string> = { "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" };
const SIGNATURE_ALGS = new Set([
  "ES256",
  "ES384",
  "ES512",
  "PS256",
  "PS384",
  "PS512",
  "RS256",
  "RS384",
  "RS512",
  "EdDSA",
  "Ed25519",
]);

export interface TKeyProblem {
  /** the offending member, e.g. `jwks.keys[1].d` */
  path: string;
  message: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The bit length of a base64url-encoded big-endian unsigned integer (an RSA modulus). */
function bitLength(base64url: string): number {
  const bytes = Buffer.from(base64url, "base64url");
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]!));
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The members a key type needs, each a non-empty base64url string. */
function missingMember(
  key: Record<string, unknown>,
  members: readonly string[],
  at: string,
): TKeyProblem | undefined {
  for (const member of members) {
    const value = key[member];
    if (value === undefined)
      return { path: `${at}.${member}`, message: `is required for kty ${String(key.kty)}` };
    if (typeof value !== "string" || !BASE64URL.test(value))
      return { path: `${at}.${member}`, message: "must be a base64url string" };
  }
  return undefined;
}

/** The algorithm the key is imported with (jose needs one): its own `alg`, else its type's. */
function checkMembers(key: Record<string, unknown>, at: string): { problem?: TKeyProblem; alg?: string } {
  switch (key.kty) {
    case "EC": {
      const alg = typeof key.crv === "string" ? EC_CURVES[key.crv] : undefined;
      if (!alg) return { problem: { path: `${at}.crv`, message: "must be one of P-256, P-384, P-521" } };
      return { problem: missingMember(key, ["x", "y"], at), alg };
    }
    case "RSA": {
      const problem = missingMember(key, ["n", "e"], at);
      if (problem) return { problem };
      const bits = bitLength(key.n as string);
      if (bits < RSA_MIN_BITS)
        return {
          problem: {
            path: `${at}.n`,
            message: `RSA modulus must be at least ${RSA_MIN_BITS} bits (it is ${bits})`,
          },
        };
      return { alg: "PS256" };
    }
    case "OKP": {
      if (key.crv !== "Ed25519") return { problem: { path: `${at}.crv`, message: "must be Ed25519" } };
      return { problem: missingMember(key, ["x"], at), alg: "EdDSA" };
    }
    default:
      return { problem: { path: `${at}.kty`, message: "must be one of EC, RSA, OKP" } };
  }
}

async function checkKey(key: unknown, at: string): Promise<TKeyProblem | undefined> {
  if (!isObject(key)) return { path: at, message: "must be a JWK object" };
  for (const member of PRIVATE_MEMBERS) {
    if (key[member] !== undefined)
      return { path: `${at}.${member}`, message: "is a private key member: register public keys only" };
  }
  if (key.kty === "oct")
    return { path: `${at}.kty`, message: "symmetric keys (oct) are not allowed: register public keys only" };
  if (typeof key.kty !== "string") return { path: `${at}.kty`, message: "must be one of EC, RSA, OKP" };
  if (key.use !== undefined && key.use !== "sig")
    return { path: `${at}.use`, message: 'must be "sig": these keys verify the client\'s signatures' };
  if (key.kid !== undefined && typeof key.kid !== "string")
    return { path: `${at}.kid`, message: "must be a string" };
  if (key.alg !== undefined && (typeof key.alg !== "string" || !SIGNATURE_ALGS.has(key.alg)))
    return { path: `${at}.alg`, message: `must be a signature algorithm: ${[...SIGNATURE_ALGS].join(", ")}` };
  const { problem, alg } = checkMembers(key, at);
  if (problem) return problem;
  try {
    await importJWK(key as JWK, (key.alg as string | undefined) ?? alg);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { path: at, message: `is not a usable ${key.kty} public key (${reason})` };
  }
  return undefined;
}

/** The first problem of `value` as a client's JWK Set (named under `field`), or undefined. */
export async function checkJwkSet(value: unknown, field = "jwks"): Promise<TKeyProblem | undefined> {
  if (!isObject(value) || value.keys === undefined)
    return { path: field, message: 'must be a JWK Set: an object { "keys": [ … ] }' };
  const keys = value.keys;
  if (!Array.isArray(keys)) return { path: `${field}.keys`, message: "must be an array of JWKs" };
  if (keys.length < 1 || keys.length > JWKS_MAX_KEYS)
    return { path: `${field}.keys`, message: `must contain 1 to ${JWKS_MAX_KEYS} keys` };
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > JWKS_MAX_BYTES)
    return {
      path: field,
      message: `must be at most ${JWKS_MAX_BYTES / 1024} KB as JSON (it is ${bytes} bytes)`,
    };
  const kids = new Map<string, number>();
  for (const [i, key] of keys.entries()) {
    const at = `${field}.keys[${i}]`;
    const problem = await checkKey(key, at);
    if (problem) return problem;
    const kid = (key as { kid?: string }).kid;
    if (kid !== undefined) {
      const first = kids.get(kid);
      if (first !== undefined)
        return {
          path: `${at}.kid`,
          message: `must be unique: ${field}.keys[${first}] has kid ${JSON.stringify(kid)} too`,
        };
      kids.set(kid, i);
    }
  }
  return undefined;
}

/** The problem of `value` as a client's jwks_uri in `environment`, or undefined. */
export function checkJwksUri(value: string, environment: TEnvironment): string | undefined {
  if (value.length === 0) return "must not be empty (null removes it)";
  if (value.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  if (/\s/.test(value)) return "must not contain whitespace";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute https URL (for example https://client.example.com/jwks.json)";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must use https";
  if (url.protocol === "http:" && environment === "production") return "must use https in production";
  if (!url.hostname) return "must name a host";
  if (url.username || url.password) return "must not contain user credentials";
  if (value.includes("#")) return "must not contain a fragment (#…)";
  return undefined;
}
