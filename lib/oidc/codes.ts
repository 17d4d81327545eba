/**
 * Authorization codes, shared by the REST code exchange and the OpenID Provider.
 * Rules:
 * - 256 random bits, handed out once; only the SHA-256 is stored;
 * - short-lived (default 60 s, at most 10 minutes) and single-use: redemption marks `usedAt`
 *   with a conditional update, so of two concurrent redemptions exactly one wins;
 * - bound to the app and environment it was issued for; a code of another environment is
 *   unknown, a code of another app is refused without being consumed;
 * - bound to the surface that issued it: a REST code (hosted-page return) is redeemed only at the
 *   REST /token, an OP code (OIDC resume) only at /oidc/{env}/token; elsewhere it is unknown, not
 *   consumed, and has no effect (a reused code of the other surface revokes nothing);
 * - bound to the redirect_uri when issued with one (the redeemer must send the same value);
 * - bound to a PKCE S256 challenge when issued with one; a code_verifier sent for a code issued
 *   without a challenge is refused too (a downgrade would otherwise go unnoticed);
 * - a code presented again after its use is reported as `reused`, so the OpenID Provider can
 *   revoke what was issued from it (RFC 6749 §4.1.2);
 * - failed checks do not consume the code: an attacker holding a stolen code but not the
 *   verifier must not be able to burn the legitimate client's exchange.
 */
import { randomBytes } from "node:crypto";
import { sha256Hex } from "../crypto/hash";
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { isValidCodeChallenge, verifyCodeVerifier } from "./pkce";
import { CODE_TTL_SECONDS, MAX_CODE_TTL_SECONDS } from "./settings";
import {
  claimAuthorizationCode,
  insertAuthorizationCode,
  readAuthorizationCode,
  type TCodeRow,
} from "./store/codes";

/** the token endpoint a code belongs to: the REST exchange or the OpenID Provider */
export type TCodeSurface = "rest" | "op";

export interface TIssueCodeInput {
  appId: string;
  environment: TEnvironment;
  surface: TCodeSurface;
  verificationId: string;
  redirectUri?: string;
  /** S256 code challenge */
  codeChallenge?: string;
  nonce?: string;
  scope?: string;
  /** RFC 9449 §10: the JWK thumbprint of the DPoP key the code is bound to (dpop_jkt at /auth or
   *  the proof at /par); the token request must carry a proof of that key */
  dpopJkt?: string;
  ttlSeconds?: number;
  now?: Date;
}

/** A new code for `input` (stored as its SHA-256); the code itself is returned, once. */
export async function issueCode(db: Db, input: TIssueCodeInput): Promise<string> {
  const ttl = input.ttlSeconds ?? CODE_TTL_SECONDS;
  if (!(ttl > 0 && ttl <= MAX_CODE_TTL_SECONDS)) {
    throw new RangeError(`authorization code lifetime must be 1–${MAX_CODE_TTL_SECONDS} s (got ${ttl})`);
  }
  if (input.codeChallenge !== undefined && !isValidCodeChallenge(input.codeChallenge)) {
    throw new TypeError("codeChallenge must be an S256 challenge (43 base64url characters)");
  }
  const code = randomBytes(32).toString("base64url");
  const now = input.now ?? new Date();
  await insertAuthorizationCode(db, {
    codeHash: sha256Hex(code),
    appId: input.appId,
    environment: input.environment,
    verificationId: input.verificationId,
    surface: input.surface,
    redirectUri: input.redirectUri ?? null,
    codeChallenge: input.codeChallenge ?? null,
    nonce: input.nonce ?? null,
    scope: input.scope ?? null,
    dpopJkt: input.dpopJkt ?? null,
    expiresAt: new Date(now.getTime() + ttl * 1000),
    createdAt: now,
  });
  return code;
}

export interface TRedeemCodeInput {
  code: string;
  appId: string;
  environment: TEnvironment;
  /** the token endpoint redeeming it */
  surface: TCodeSurface;
  redirectUri?: string;
  codeVerifier?: string;
  now?: Date;
}

export type TCodeRejection =
  | "unknown_code"
  | "wrong_client"
  | "wrong_surface"
  | "expired"
  | "reused"
  | "redirect_uri_mismatch"
  | "pkce_verifier_missing"
  | "pkce_verifier_mismatch"
  | "pkce_not_expected";

/** What the checks of a presented code read of its stored row. */
export type TStoredCode = Pick<
  TCodeRow,
  | "codeHash"
  | "appId"
  | "environment"
  | "verificationId"
  | "surface"
  | "redirectUri"
  | "codeChallenge"
  | "nonce"
  | "scope"
  | "dpopJkt"
  | "expiresAt"
  | "usedAt"
>;

export type TRedeemResult =
  | { ok: true; code: TStoredCode }
  | {
      ok: false;
      /** the OAuth error every rejection maps to (RFC 6749 §5.2) */
      error: "invalid_grant";
      reason: TCodeRejection;
      description: string;
      /** the code had been redeemed before: whatever was issued from it should be revoked */
      reused: boolean;
      /** the stored code, when it belongs to the redeeming app (to revoke by verification) */
      code?: TStoredCode;
    };

const DESCRIPTIONS: Record<TCodeRejection, string> = {
  // one message for unknown codes and codes of other clients: whether a code exists is not the
  // redeemer's business
  unknown_code: "The authorization code is invalid",
  wrong_client: "The authorization code is invalid",
  wrong_surface: "The authorization code was not issued for this token endpoint",
  expired: "The authorization code has expired",
  reused: "The authorization code has already been used",
  redirect_uri_mismatch: "redirect_uri does not match the one the authorization code was issued for",
  pkce_verifier_missing: "code_verifier is required for this authorization code",
  pkce_verifier_mismatch: "code_verifier does not match the code challenge",
  pkce_not_expected: "code_verifier was sent, but the authorization code was issued without a code challenge",
};

/** The answer to a refused code; `code` only when the redeemer may know about it. */
export function rejectCode(reason: TCodeRejection, code?: TStoredCode): TRedeemResult & { ok: false } {
  return {
    ok: false,
    error: "invalid_grant",
    reason,
    description: DESCRIPTIONS[reason],
    reused: reason === "reused",
    ...(code ? { code } : {}),
  };
}

/** The SHA-256 a code is stored and looked up by; undefined for what cannot be one of ours. */
export function codeHashOf(code: string): string | undefined {
  // ours are 43 characters; anything far longer is not worth hashing
  return code.length === 0 || code.length > 256 ? undefined : sha256Hex(code);
}

/**
 * Every check of the module rules on a presented code and its stored row (null: none), but
 * consumption: the refusal, or undefined when the code may be redeemed now.
 */
export function checkCode(
  row: TStoredCode | null,
  input: Omit<TRedeemCodeInput, "code" | "now">,
  now: Date,
): TRedeemResult | undefined {
  if (!row || row.environment !== input.environment) return rejectCode("unknown_code");
  if (row.appId !== input.appId) return rejectCode("wrong_client");
  if (row.surface !== input.surface) return rejectCode("wrong_surface");
  if (row.usedAt !== null) return rejectCode("reused", row);
  if (row.expiresAt.getTime() <= now.getTime()) return rejectCode("expired", row);
  if (row.redirectUri !== null && input.redirectUri !== row.redirectUri) {
    return rejectCode("redirect_uri_mismatch", row);
  }
  if (row.codeChallenge !== null) {
    if (input.codeVerifier === undefined) return rejectCode("pkce_verifier_missing", row);
    if (!verifyCodeVerifier(row.codeChallenge, input.codeVerifier))
      return rejectCode("pkce_verifier_mismatch", row);
  } else if (input.codeVerifier !== undefined) {
    return rejectCode("pkce_not_expected", row);
  }
  return undefined;
}

/**
 * Checks a presented code and consumes it; see the module rules for what is refused. (The token
 * endpoints do the same in two statements with what they issue: lib/oidc/store/grant.ts.)
 */
export async function redeemAuthorizationCode(db: Db, input: TRedeemCodeInput): Promise<TRedeemResult> {
  const now = input.now ?? new Date();
  const codeHash = codeHashOf(input.code);
  if (!codeHash) return rejectCode("unknown_code");
  const row = (await readAuthorizationCode(db, codeHash)) ?? null;
  const refused = checkCode(row, input, now);
  if (refused || !row) return refused ?? rejectCode("unknown_code");
  // a concurrent redemption got there first
  if (!(await claimAuthorizationCode(db, codeHash, now))) return rejectCode("reused", row);
  return { ok: true, code: { ...row, usedAt: now } };
}
