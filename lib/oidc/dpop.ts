/**
 * DPoP proofs (RFC 9449) at the OpenID Provider's /token, /par and /userinfo.
 * Rules:
 * - a request carries at most one `DPoP` header (§4.3 check 1: several → invalid_dpop_proof);
 * - the proof is a compact JWS with `typ` "dpop+jwt", an `alg` of the client's policy
 *   (policy.clientJwtAlgs: never none nor HS*), a `jwk` header that is a public key (a key with
 *   private members is refused) and a signature valid under that key (§4.3 checks 2–7);
 * - `htm` is the request's method; `htu` equals the endpoint's URL as the client addresses it
 *   (the issuer the request is served under + the endpoint path), both compared without query and
 *   fragment (§4.3 checks 8–9);
 * - `iat` lies within [now − DPOP_IAT_PAST_SECONDS, now + DPOP_IAT_FUTURE_SECONDS] (60 s of clock
 *   skew into the future, 5 min into the past: §11.1 lets the server pick its window);
 * - `jti` is a string of at most 256 characters, accepted once per replay scope
 *   (`dpop:<clientId>`) while the proof could still pass the iat window: claimOnce in the
 *   oidc_replay table, shared by every instance (§11.1); a replay is invalid_dpop_proof;
 * - with an access token (resource requests, §7), `ath` must be its base64url SHA-256 (§4.3
 *   check 11);
 * - server nonces (§8, §9) are REQUIRED at every DPoP endpoint: a nonce bounds the life of a
 *   stolen or pre-generated proof to the nonce window, independently of the client's clock (which
 *   `iat` relies on); clients (openid-client, oauth4webapi) retry on use_dpop_nonce by
 *   themselves. A nonce is stateless and valid on every instance: base64url HMAC-SHA256, under a
 *   key derived from IDV_MASTER_KEY with HKDF for this purpose only, of the current time step
 *   (DPOP_NONCE_STEP_SECONDS); the current and the previous step are accepted, so a nonce lives
 *   between one and two steps. A proof without nonce or with another one → use_dpop_nonce, and
 *   the caller answers with a `DPoP-Nonce` header (currentDpopNonce());
 * - the result is the key's JWK SHA-256 thumbprint (RFC 7638), the `jkt` a token is bound to.
 */
import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  errors as joseErrors,
  importJWK,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from "jose";
import { getMasterKey } from "../crypto/master-key";
import type { Db } from "../db/kysely";
import { OAuthError } from "./errors";
import { claimOnce } from "./store/replay";

export const DPOP_IAT_PAST_SECONDS = 300;
export const DPOP_IAT_FUTURE_SECONDS = 60;
export const DPOP_NONCE_STEP_SECONDS = 300;
export const DPOP_JTI_MAX_LENGTH = 256;
/** the name of the response header carrying the server nonce (§8.1) */
export const DPOP_NONCE_HEADER = "DPoP-Nonce";

export type TDpopErrorCode = "invalid_dpop_proof" | "use_dpop_nonce";

export class DpopError extends Error {
  constructor(
    readonly code: TDpopErrorCode,
    description: string,
  ) {
    super(description);
    this.name = "DpopError";
  }
}

export interface TDpopCheckOptions {
  /** the endpoint's URL (no query/fragment) as the client addresses it */
  htu: string;
  /** policy.clientJwtAlgs (lib/oidc/profile.ts) */
  algs: readonly string[];
  /** e.g. `dpop:${clientId}` */
  replayScope: string;
  /** resource requests: ath must be its SHA-256 */
  accessToken?: string;
  /** tests */
  now?: Date;
}

// ---------------------------------------------------------------------------------------------
// nonces

const NONCE_KEY_INFO = "idv-broker/oidc/dpop-nonce/v1";
let nonceKey: Buffer | undefined;

function key(): Buffer {
  nonceKey ??= Buffer.from(hkdfSync("sha256", getMasterKey(), Buffer.alloc(0), NONCE_KEY_INFO, 32));
  return nonceKey;
}

function nonceForStep(step: number): string {
  return createHmac("sha256", key()).update(`dpop-nonce:${step}`, "utf8").digest("base64url");
}

function stepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / DPOP_NONCE_STEP_SECONDS);
}

/** The current server nonce (DPoP-Nonce response header value). */
export function currentDpopNonce(now: Date = new Date()): string {
  return nonceForStep(stepAt(now));
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether `nonce` is the nonce of the current or of the previous time step. */
export function isValidDpopNonce(nonce: string, now: Date = new Date()): boolean {
  const step = stepAt(now);
  return sameString(nonce, nonceForStep(step)) || sameString(nonce, nonceForStep(step - 1));
}

// ---------------------------------------------------------------------------------------------
// proofs

/** base64url SHA-256 of an access token: the `ath` claim (§4.2). */
export function accessTokenHash(accessToken: string): string {
  return createHash("sha256").update(accessToken, "ascii").digest("base64url");
}

const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;

function withoutQueryAndFragment(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  url.search = "";
  url.hash = "";
  return url.href;
}

/**
 * The DPoP proof of `request` checked for this endpoint: its key's JWK thumbprint (jkt), or
 * undefined when the request has no DPoP header. Throws DpopError.
 */
export async function checkDpopProof(
  db: Db,
  request: Request,
  opts: TDpopCheckOptions,
): Promise<{ jkt: string } | undefined> {
  const header = request.headers.get("dpop");
  if (header === null) return undefined;
  // Headers joins repeated fields with ", "; a compact JWS never contains a comma
  if (header.includes(",")) throw new DpopError("invalid_dpop_proof", "more than one DPoP header");
  const proof = header.trim();
  if (!proof) throw new DpopError("invalid_dpop_proof", "the DPoP header is empty");

  let protectedHeader: ReturnType<typeof decodeProtectedHeader>;
  try {
    protectedHeader = decodeProtectedHeader(proof);
  } catch {
    throw new DpopError("invalid_dpop_proof", "the DPoP proof is not a JWS");
  }
  if (proof.split(".").length !== 3)
    throw new DpopError("invalid_dpop_proof", "the DPoP proof is not a compact JWS");
  if (protectedHeader.typ !== "dpop+jwt")
    throw new DpopError("invalid_dpop_proof", 'the DPoP proof typ must be "dpop+jwt"');
  const alg = protectedHeader.alg;
  if (typeof alg !== "string" || !opts.algs.includes(alg)) {
    throw new DpopError("invalid_dpop_proof", `the DPoP proof alg must be one of ${opts.algs.join(", ")}`);
  }
  const jwk = protectedHeader.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== "object" || Array.isArray(jwk)) {
    throw new DpopError("invalid_dpop_proof", "the DPoP proof has no jwk header");
  }
  if (PRIVATE_JWK_MEMBERS.some((member) => member in jwk)) {
    throw new DpopError("invalid_dpop_proof", "the DPoP proof jwk must be a public key");
  }

  let payload: JWTPayload;
  try {
    const publicKey = await importJWK(jwk, alg);
    ({ payload } = await jwtVerify(proof, publicKey, { algorithms: [alg], typ: "dpop+jwt" }));
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw new DpopError("invalid_dpop_proof", "the DPoP proof signature is invalid");
    }
    throw new DpopError("invalid_dpop_proof", "the DPoP proof is invalid (jwk, alg or claims)");
  }

  const nowDate = opts.now ?? new Date();
  const now = Math.floor(nowDate.getTime() / 1000);

  if (typeof payload.jti !== "string" || !payload.jti || payload.jti.length > DPOP_JTI_MAX_LENGTH) {
    throw new DpopError(
      "invalid_dpop_proof",
      `the DPoP proof jti must be a string of 1 to ${DPOP_JTI_MAX_LENGTH} characters`,
    );
  }
  if (payload.htm !== request.method)
    throw new DpopError("invalid_dpop_proof", "the DPoP proof htm does not match the request method");
  const expectedHtu = withoutQueryAndFragment(opts.htu);
  if (
    typeof payload.htu !== "string" ||
    !expectedHtu ||
    withoutQueryAndFragment(payload.htu) !== expectedHtu
  ) {
    throw new DpopError("invalid_dpop_proof", "the DPoP proof htu does not match the endpoint URL");
  }
  if (typeof payload.iat !== "number" || !Number.isFinite(payload.iat)) {
    throw new DpopError("invalid_dpop_proof", "the DPoP proof has no iat");
  }
  if (payload.iat > now + DPOP_IAT_FUTURE_SECONDS || payload.iat < now - DPOP_IAT_PAST_SECONDS) {
    throw new DpopError("invalid_dpop_proof", "the DPoP proof iat is outside the accepted window");
  }
  if (opts.accessToken !== undefined) {
    if (typeof payload.ath !== "string" || !sameString(payload.ath, accessTokenHash(opts.accessToken))) {
      throw new DpopError("invalid_dpop_proof", "the DPoP proof ath does not match the access token");
    }
  }
  if (payload.nonce === undefined)
    throw new DpopError("use_dpop_nonce", "the DPoP proof must carry the server nonce");
  if (typeof payload.nonce !== "string")
    throw new DpopError("invalid_dpop_proof", "the DPoP proof nonce must be a string");
  if (!isValidDpopNonce(payload.nonce, nowDate)) {
    throw new DpopError("use_dpop_nonce", "the DPoP proof nonce is stale or unknown");
  }

  // last: a proof refused for any other reason does not use up its jti
  const remembered = new Date((payload.iat + DPOP_IAT_PAST_SECONDS + 1) * 1000);
  if (!(await claimOnce(db, opts.replayScope, payload.jti, remembered, nowDate))) {
    throw new DpopError("invalid_dpop_proof", "the DPoP proof was already used (jti replay)");
  }

  return { jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

/**
 * A DpopError as the OAuth error of /token and /par: 400 with its code and a fresh DPoP-Nonce
 * header (§8: the header tells the client which nonce to use on its retry).
 */
export function dpopOAuthError(error: DpopError): OAuthError {
  return new OAuthError(error.code, error.message, 400, { [DPOP_NONCE_HEADER]: currentDpopNonce() });
}
