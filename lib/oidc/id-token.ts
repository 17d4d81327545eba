/**
 * ID tokens (OpenID Connect Core §2), minted for the REST code exchange and the OpenID Provider.
 * Rules:
 * - claims are iss, sub, aud, exp, iat, auth_time, acr, amr, jti, and nonce / at_hash when given;
 *   there is no input for personal attributes at all: those come only from userinfo (spec);
 * - signed with the environment's active key (ES256 unless RS256 is asked for), header kid and
 *   typ "JWT", so relying parties pick the key from the JWKS;
 * - lifetime at most MAX_TOKEN_LIFETIME_SECONDS, which is what keeps retired keys published
 *   long enough (lib/oidc/keys.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { createLocalJWKSet, jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { Tx } from "../db/client";
import type { TEnvironment } from "../environments";
import { getSigningKey, publicJwks, SIGNING_ALGS, type TSigningAlg } from "./keys";
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

export async function mintIdToken(db: Tx, input: TMintIdTokenInput): Promise<string> {
  const ttl = input.ttlSeconds ?? ID_TOKEN_TTL_SECONDS;
  if (!(Number.isInteger(ttl) && ttl > 0 && ttl <= MAX_TOKEN_LIFETIME_SECONDS)) {
    throw new RangeError(`ID token lifetime must be 1–${MAX_TOKEN_LIFETIME_SECONDS} s (got ${ttl})`);
  }
  if (input.amr.length === 0) throw new TypeError("amr needs at least one method");
  const key = await getSigningKey(db, input.environment, input.alg ?? "ES256");
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const payload: Omit<TIdTokenClaims, "iss" | "sub" | "aud" | "exp" | "iat" | "jti"> = {
    auth_time: Math.floor(input.authTime.getTime() / 1000),
    acr: input.acr,
    amr: input.amr,
    ...(input.nonce !== undefined ? { nonce: input.nonce } : {}),
    ...(input.accessToken !== undefined ? { at_hash: atHash(input.accessToken) } : {}),
    ...(input.verificationId !== undefined ? { verification_id: input.verificationId } : {}),
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
    .setIssuer(input.issuer)
    .setSubject(input.subject)
    .setAudience(input.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .setJti(randomBytes(16).toString("base64url"))
    .sign(key.privateKey);
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
  db: Tx,
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
