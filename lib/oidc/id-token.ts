/**
 * ID tokens (OpenID Connect Core §2), minted for the REST code exchange and the OpenID Provider.
 * Rules:
 * - claims are iss, sub, aud, exp, iat, auth_time, acr, amr, jti, and nonce / at_hash when given;
 *   there is no input for personal attributes at all: those come only from userinfo (spec);
 * - signed with the environment's active key (ES256 unless RS256 is asked for), header kid and
 *   typ "JWT", so relying parties pick the key from the JWKS; the signature is node:crypto's,
 *   with the imported key converted to a KeyObject once;
 * - lifetime at most MAX_TOKEN_LIFETIME_SECONDS, which is what keeps retired keys published
 *   long enough (lib/oidc/keys.ts).
 */
import { createHash, KeyObject, randomBytes, sign } from "node:crypto";
import { createLocalJWKSet, jwtVerify, type JWTPayload } from "jose";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { getSigningKey, publicJwks, SIGNING_ALGS, type TSigningAlg, type TSigningKey } from "./keys";
import { ID_TOKEN_TTL_SECONDS, MAX_TOKEN_LIFETIME_SECONDS } from "./settings";

export interface TMintIdTokenInput {
  environment: TEnvironment;
  issuer: string;
  /** the client id */
  audience: string;
  subject: string;
  authTime: Date;
  acr: string;
  amr: string[];
  nonce?: string;
  /** the access token issued alongside, for at_hash */
  accessToken?: string;
  /** the verification the token stems from (an opaque id, not personal data) */
  verificationId?: string;
  ttlSeconds?: number;
  alg?: TSigningAlg;
  now?: Date;
}

export interface TIdTokenClaims extends JWTPayload {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time: number;
  acr: string;
  amr: string[];
  jti: string;
  nonce?: string;
  at_hash?: string;
  verification_id?: string;
}

/** OIDC Core §3.1.3.6: base64url of the left half of the hash the signing alg uses (SHA-256 for ES256/RS256). */
export function atHash(accessToken: string): string {
  return createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");
}

export async function mintIdToken(db: Db, input: TMintIdTokenInput): Promise<string> {
  const ttl = input.ttlSeconds ?? ID_TOKEN_TTL_SECONDS;
  if (!(Number.isInteger(ttl) && ttl > 0 && ttl <= MAX_TOKEN_LIFETIME_SECONDS)) {
    throw new RangeError(`ID token lifetime must be 1–${MAX_TOKEN_LIFETIME_SECONDS} s (got ${ttl})`);
  }
  if (input.amr.length === 0) throw new TypeError("amr needs at least one method");
  const key = await getSigningKey(db, input.environment, input.alg ?? "ES256");
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  // the claims in the order jose's SignJWT wrote them (payload, then iss, sub, aud, iat, exp, jti)
  const claims: TIdTokenClaims = {
    auth_time: Math.floor(input.authTime.getTime() / 1000),
    acr: input.acr,
    amr: input.amr,
    ...(input.nonce !== undefined ? { nonce: input.nonce } : {}),
    ...(input.accessToken !== undefined ? { at_hash: atHash(input.accessToken) } : {}),
    ...(input.verificationId !== undefined ? { verification_id: input.verificationId } : {}),
    iss: input.issuer,
    sub: input.subject,
    aud: input.audience,
    iat,
    exp: iat + ttl,
    jti: randomBytes(16).toString("base64url"),
  };
  return signJws({ alg: key.alg, kid: key.kid, typ: "JWT" }, claims, key);
}

// The private key as node:crypto's KeyObject, converted once per imported key: a synchronous
// node:crypto signature costs about half of WebCrypto's (jose's SignJWT) per token.
const keyObjects = new WeakMap<object, KeyObject>();

function keyObjectOf(key: TSigningKey["privateKey"]): KeyObject {
  let keyObject = keyObjects.get(key);
  if (!keyObject) {
    keyObject = KeyObject.from(key);
    keyObjects.set(key, keyObject);
  }
  return keyObject;
}

const base64urlJson = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

/** RFC 7515 compact serialization, signed with SHA-256 (ES256: raw r‖s, RFC 7518 §3.4; RS256: PKCS #1 v1.5). */
function signJws(
  header: { alg: TSigningAlg; kid: string; typ: "JWT" },
  claims: TIdTokenClaims,
  key: TSigningKey,
): string {
  const input = `${base64urlJson(header)}.${base64urlJson(claims)}`;
  const keyObject = keyObjectOf(key.privateKey);
  const signature = sign(
    "sha256",
    Buffer.from(input, "ascii"),
    header.alg === "ES256" ? { key: keyObject, dsaEncoding: "ieee-p1363" } : keyObject,
  );
  return `${input}.${signature.toString("base64url")}`;
}

export interface TVerifyIdTokenOptions {
  issuer: string;
  audience: string;
  nonce?: string;
  now?: Date;
}

/**
 * Verifies an ID token against the environment's published keys, as a relying party would
 * (tests; later id_token_hint). Throws jose's errors on any failure.
 */
export async function verifyIdToken(
  db: Db,
  environment: TEnvironment,
  token: string,
  options: TVerifyIdTokenOptions,
): Promise<TIdTokenClaims> {
  const jwks = createLocalJWKSet(await publicJwks(db, environment));
  const { payload } = await jwtVerify(token, jwks, {
    issuer: options.issuer,
    audience: options.audience,
    algorithms: [...SIGNING_ALGS],
    typ: "JWT",
    requiredClaims: ["sub", "exp", "iat", "auth_time"],
    ...(options.now ? { currentDate: options.now } : {}),
  });
  if (options.nonce !== undefined && payload.nonce !== options.nonce) throw new Error("nonce mismatch");
  return payload as TIdTokenClaims;
}
