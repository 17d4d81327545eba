/**
 * The production wallet adapter: OpenID4VP over the browser's Digital Credentials API, with the
 * credential presented as an IETF SD-JWT VC, verified by @sd-jwt/sd-jwt-vc (OpenWallet Foundation).
 * Rules:
 * - the request is unsigned (protocol openid4vp-v1-unsigned, no client_id): the wallet binds the
 *   presentation to the calling web origin, so the Key Binding JWT's `aud` must be
 *   "origin:<origin of the hosted page>" and its `nonce` the one sealed in the session;
 * - the issuer-signed JWT (typ dc+sd-jwt, or vc+sd-jwt of earlier drafts) must verify (ES256,
 *   ES384 or EdDSA) against a key of an issuer the deployment trusts for that provider
 *   (IDV_WALLET_TRUSTED_ISSUERS), carry an allowed `vct`, and be within iat/nbf/exp (60 s
 *   tolerance): an expired credential fails as credential_expired, a not-yet-valid one as
 *   credential_not_yet_valid — only once its issuer signature verified;
 * - disclosures (_sd_alg sha-256), top-level, nested and array-element alike, are resolved by the
 *   library; on top of it (RFC 9901 §7.1 steps the library leaves out) every presented disclosure
 *   must be referenced by a digest of the issuer-signed JWT, none presented twice, none naming a
 *   reserved claim or a top-level claim the issuer already states in clear. Only top-level claims
 *   are mapped to OIDC claims (nested values come as they were disclosed);
 * - the Key Binding JWT (typ kb+jwt) is mandatory, signed by the holder key in `cnf.jwk`, for this
 *   session's nonce and audience, at most KB_MAX_AGE_SECONDS old, and its `sd_hash` covers exactly
 *   the presented issuer JWT and disclosures;
 * - a credential with `status.status_list` is checked against its Token Status List
 *   (wallet-status.ts: same issuer's keys, SSRF guard, cached; revoked → credential_revoked,
 *   suspended → credential_suspended; unreachable or unverifiable → fail closed);
 * - any other failure is reason invalid_presentation, with a message that names the check but
 *   never a claim value. Type metadata (`vct#integrity`) is not fetched.
 */
import { createHash } from "node:crypto";
import { digest, generateSalt } from "@sd-jwt/crypto-nodejs";
import { decodeSdJwt, unpack } from "@sd-jwt/decode";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
} from "jose";
import { z } from "zod";
import type { TAdapterOutcome, TSourceIdentity } from "./types";
import {
  CLOCK_TOLERANCE_SECONDS,
  jwksSignatureVerifier,
  PresentationError,
  statusListFailure,
  statusListFetcher,
  statusValidator,
  WALLET_ALGORITHMS,
} from "./wallet-status";

export { WALLET_ALGORITHMS };
/** how old a Key Binding JWT may be (the clock skew tolerated on exp/nbf/iat: wallet-status.ts) */
export const KB_MAX_AGE_SECONDS = 300;

const ZJwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) });

export const ZWalletTrustConfig = z.object({
  /** issuer identifier (`iss`) → its public keys */
  issuers: z.record(z.string().min(1), ZJwks),
  /** credential types accepted */
  vct: z.array(z.string().min(1)).min(1),
  /** level of assurance the credential carries; null → the provider's defaultLoa */
  loa: z.number().int().min(1).max(3).optional(),
});
export type TWalletTrustConfig = z.infer<typeof ZWalletTrustConfig>;

/** OIDC claim name → the EUDI PID (SD-JWT VC encoding) claim name the wallet is asked for. */
const REQUEST_NAMES: Record<string, string[]> = {
  name: ["given_name", "family_name"],
  given_name: ["given_name"],
  family_name: ["family_name"],
  birthdate: ["birthdate"],
  nationality: ["nationalities"],
  address: ["address"],
  gender: ["sex"],
  place_of_birth: ["place_of_birth"],
  email: ["email"],
  phone_number: ["phone_number"],
};

/** Disclosed PID claim name → OIDC claim name (older PID encodings included). */
const RESPONSE_NAMES: Record<string, string> = {
  given_name: "given_name",
  family_name: "family_name",
  birthdate: "birthdate",
  birth_date: "birthdate",
  nationalities: "nationality",
  nationality: "nationality",
  address: "address",
  sex: "gender",
  gender: "gender",
  place_of_birth: "place_of_birth",
  email: "email",
  email_address: "email",
  phone_number: "phone_number",
  mobile_phone_number: "phone_number",
};

const PERSONAL_IDENTIFIER = "personal_administrative_number";

export interface TWalletRequest {
  protocol: "openid4vp-v1-unsigned";
  data: {
    response_type: "vp_token";
    response_mode: "dc_api";
    nonce: string;
    dcql_query: {
      credentials: {
        id: "pid";
        format: "dc+sd-jwt";
        meta: { vct_values: string[] };
        claims: { path: string[] }[];
      }[];
    };
  };
}

/** The Digital Credentials API request asking for the given OIDC claims. */
export function buildWalletRequest(input: {
  nonce: string;
  vct: string[];
  claims: string[];
}): TWalletRequest {
  const names = [...new Set(input.claims.flatMap((claim) => REQUEST_NAMES[claim] ?? []))];
  return {
    protocol: "openid4vp-v1-unsigned",
    data: {
      response_type: "vp_token",
      response_mode: "dc_api",
      nonce: input.nonce,
      dcql_query: {
        credentials: [
          {
            id: "pid",
            format: "dc+sd-jwt",
            meta: { vct_values: input.vct },
            claims: names.map((name) => ({ path: [name] })),
          },
        ],
      },
    },
  };
}

/** What must hold for this session's presentation. */
export interface TPresentationExpectations {
  nonce: string;
  /** "origin:<origin>" per OpenID4VP over the DC API (unsigned requests) */
  audience: string;
  now?: Date;
}

function fail(message: string): never {
  throw new PresentationError(message);
}

function isJwk(value: unknown): value is JWK {
  return typeof value === "object" && value !== null && typeof (value as { kty?: unknown }).kty === "string";
}

const RESERVED_CLAIM_NAMES = new Set(["_sd", "...", "_sd_alg"]);

const ZStatusListReference = z.object({
  idx: z.number().int().min(0),
  uri: z.string().min(1),
});

/**
 * What a library failure means for the session. An expired or not-yet-valid credential gets its
 * own reason only when its issuer signature verifies (the library checks the dates first).
 */
async function libraryFailure(
  err: unknown,
  issuerJwt: string,
  issuerVerifier: (data: string, sig: string) => Promise<boolean>,
): Promise<PresentationError> {
  if (err instanceof PresentationError) return err;
  const status = statusListFailure(err);
  if (status) return status;
  const message = err instanceof Error ? err.message : "";
  if (/JWT is expired|JWT is not yet valid/.test(message)) {
    const [header, payload, sig] = issuerJwt.split(".");
    try {
      await issuerVerifier(`${header}.${payload}`, sig ?? "");
    } catch (signature) {
      if (signature instanceof PresentationError) return signature;
      throw signature;
    }
    return /expired/.test(message)
      ? new PresentationError("the credential has expired (past its validity period)", "credential_expired")
      : new PresentationError(
          "the credential is not yet valid (before its validity period)",
          "credential_not_yet_valid",
        );
  }
  if (/Key Binding JWT not exist/.test(message))
    return new PresentationError("the presentation has no Key Binding JWT");
  if (/Invalid Key Binding Jwt/.test(message)) {
    return new PresentationError(
      "the Key Binding JWT is malformed (typ kb+jwt, alg, iat, aud, nonce and sd_hash are required)",
    );
  }
  if (/Invalid Nonce/.test(message))
    return new PresentationError("the Key Binding JWT's nonce is not this session's");
  if (/sd_hash/.test(message)) return new PresentationError("the Key Binding JWT's sd_hash does not match");
  return new PresentationError("the presentation is not a well-formed SD-JWT VC");
}

async function verifyPresentation(
  config: TWalletTrustConfig,
  expect: TPresentationExpectations,
  presentation: string,
): Promise<TSourceIdentity> {
  const now = expect.now ?? new Date();
  const parts = presentation.split("~");
  if (parts.length < 2) fail("the presentation is not an SD-JWT");
  const issuerJwt = parts[0]!;
  if (parts.at(-1) === "") fail("the presentation has no Key Binding JWT");
  if (parts.slice(1, -1).some((d) => d === "")) fail("the presentation has an empty disclosure");

  // before any signature: the issuer is trusted, the type accepted (refusals only)
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: ReturnType<typeof decodeJwt>;
  try {
    header = decodeProtectedHeader(issuerJwt);
    unverified = decodeJwt(issuerJwt);
  } catch {
    fail("the issuer-signed JWT is malformed");
  }
  const iss = typeof unverified.iss === "string" ? unverified.iss : fail("the credential names no issuer");
  const jwks = (Object.hasOwn(config.issuers, iss) ? config.issuers[iss] : undefined) as
    JSONWebKeySet | undefined;
  if (!jwks) fail("the credential's issuer is not trusted");
  // vc+sd-jwt is the media type of earlier SD-JWT VC drafts, still issued by deployed wallets
  if (header.typ !== "dc+sd-jwt" && header.typ !== "vc+sd-jwt")
    fail("the issuer-signed JWT has the wrong typ");
  if (!header.alg || !WALLET_ALGORITHMS.includes(header.alg))
    fail("the issuer-signed JWT's alg is not accepted");
  const vct = typeof unverified.vct === "string" ? unverified.vct : fail("the credential has no vct");
  if (!config.vct.includes(vct)) fail("the credential type is not accepted");
  if ((unverified._sd_alg ?? "sha-256") !== "sha-256") fail("the credential's _sd_alg is not sha-256");
  const cnf = unverified.cnf as { jwk?: unknown } | undefined;
  if (!cnf || !isJwk(cnf.jwk)) fail("the credential has no holder key (cnf.jwk)");
  const holderJwk = cnf.jwk;
  const statusReference = (unverified.status as { status_list?: unknown } | undefined)?.status_list;
  if (statusReference !== undefined && !ZStatusListReference.safeParse(statusReference).success) {
    fail("the credential's status.status_list is malformed");
  }

  const issuerVerifier = jwksSignatureVerifier(jwks, "the issuer signature does not verify");
  const sdJwtVc = new SDJwtVcInstance({
    hasher: digest,
    saltGenerator: generateSalt,
    verifier: issuerVerifier,
    // the key binding: the holder key in cnf signed this session's nonce for this origin, lately
    kbVerifier: async (data, sig) => {
      const token = `${data}.${sig}`;
      let kb: Record<string, unknown>;
      try {
        const alg = decodeProtectedHeader(token).alg;
        if (!alg || !WALLET_ALGORITHMS.includes(alg)) fail("the Key Binding JWT's alg is not accepted");
        ({ payload: kb } = await jwtVerify(token, await importJWK(holderJwk, alg), {
          algorithms: WALLET_ALGORITHMS,
          typ: "kb+jwt",
          audience: expect.audience,
          maxTokenAge: KB_MAX_AGE_SECONDS,
          currentDate: now,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        }));
      } catch (err) {
        if (err instanceof PresentationError) throw err;
        fail("the Key Binding JWT does not verify (holder key, typ, audience or age)");
      }
      if (kb.nonce !== expect.nonce) fail("the Key Binding JWT's nonce is not this session's");
      return true;
    },
    statusListFetcher: statusListFetcher(iss, jwks, now),
    statusVerifier: jwksSignatureVerifier(jwks, "the credential's status list does not verify (fail closed)"),
    statusValidator,
  });
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await sdJwtVc.verify(presentation, {
      currentDate: Math.floor(now.getTime() / 1000),
      skewSeconds: CLOCK_TOLERANCE_SECONDS,
      keyBindingNonce: expect.nonce,
    }));
  } catch (err) {
    throw await libraryFailure(err, issuerJwt, issuerVerifier);
  }

  // RFC 9901 §7.1 checks the library leaves out: each disclosure referenced once, presented once
  const decoded = await decodeSdJwt(presentation, digest);
  const rawPayload = decoded.jwt.payload as Record<string, unknown>;
  const { disclosureKeymap } = await unpack(rawPayload, decoded.disclosures, digest);
  const references = Object.values(disclosureKeymap);
  const referenced = new Set(references);
  if (references.length !== referenced.size)
    fail("a disclosure digest is referenced twice in the credential");
  const topLevel = new Set(Array.isArray(rawPayload._sd) ? rawPayload._sd : []);
  const seen = new Set<string>();
  const disclosedNames = new Set<string>();
  for (const disclosure of decoded.disclosures) {
    const hash = await disclosure.digest({ hasher: digest, alg: "sha-256" });
    if (!referenced.has(hash)) fail("a disclosure is not covered by the issuer's signature");
    if (seen.has(hash)) fail("a disclosure is presented twice");
    seen.add(hash);
    if (disclosure.key !== undefined && RESERVED_CLAIM_NAMES.has(disclosure.key)) {
      fail("a disclosure uses a reserved claim name");
    }
    if (!topLevel.has(hash) || disclosure.key === undefined) continue;
    if (disclosedNames.has(disclosure.key) || Object.hasOwn(rawPayload, disclosure.key)) {
      fail("a claim is disclosed twice");
    }
    disclosedNames.add(disclosure.key);
  }

  // the selectively disclosed top-level claims, with what was disclosed inside them
  const disclosed: Record<string, unknown> = {};
  for (const name of disclosedNames) disclosed[name] = payload[name];
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(disclosed)) {
    const oidc = RESPONSE_NAMES[name];
    if (!oidc) continue;
    // the PID lists nationalities; our `nationality` claim is the first of them
    claims[oidc] = oidc === "nationality" && Array.isArray(value) ? value[0] : value;
  }
  if (typeof claims.gender === "number") {
    // ISO/IEC 5218, the PID's `sex` encoding
    claims.gender = ({ 1: "male", 2: "female" } as Record<number, string>)[claims.gender] ?? "other";
  }
  const thumbprint = await calculateJwkThumbprint(holderJwk, "sha256");
  const personal = disclosed[PERSONAL_IDENTIFIER];
  const upstreamSubject =
    typeof personal === "string" && personal !== ""
      ? `${iss}|pan|${personal}`
      : `${iss}|cnf|${createHash("sha256").update(`${iss}\n${thumbprint}`).digest("hex")}`;
  const evidence: Record<string, string> = {
    iss,
    vct,
    holder_key_thumbprint: thumbprint,
    presentation_nonce: expect.nonce,
    credential_status: statusReference === undefined ? "not_provided" : "valid",
    ...(header.kid ? { kid: header.kid } : {}),
    ...(typeof payload.iat === "number" ? { issued_at: new Date(payload.iat * 1000).toISOString() } : {}),
    ...(typeof payload.exp === "number" ? { expires_at: new Date(payload.exp * 1000).toISOString() } : {}),
  };
  return { upstreamSubject, claims, loa: config.loa ?? null, rawClaims: disclosed, evidence };
}

/**
 * Verifies one SD-JWT VC presentation; a failure carries its reason (credential_revoked,
 * credential_suspended, credential_expired, credential_not_yet_valid, else invalid_presentation).
 */
export async function verifyWalletPresentation(
  config: TWalletTrustConfig,
  expect: TPresentationExpectations,
  presentation: string,
): Promise<TAdapterOutcome> {
  try {
    return { kind: "success", identity: await verifyPresentation(config, expect, presentation) };
  } catch (err) {
    if (!(err instanceof PresentationError)) throw err;
    return { kind: "failure", reason: err.reason, message: err.message };
  }
}

const ZPresentations = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const ZVpToken = z.object({ pid: ZPresentations });

/**
 * The wallet's answer as the page posts it: the OpenID4VP response ({vp_token}) or the
 * DigitalCredential's `data` wrapped ({data: {vp_token}}); vp_token may also arrive as a JSON
 * string. Returns the presentations for the "pid" credential query, or the offending field.
 */
export function readWalletResponse(
  body: unknown,
): { ok: true; presentations: string[] } | { ok: false; field: string; message: string } {
  const root = (body ?? {}) as Record<string, unknown>;
  const container =
    typeof root === "object" && root.data !== undefined && root.vp_token === undefined
      ? (root.data as Record<string, unknown> | null)
      : root;
  const field = container === root ? "vp_token" : "data.vp_token";
  let token: unknown = typeof container === "object" && container !== null ? container.vp_token : undefined;
  if (typeof token === "string") {
    try {
      token = JSON.parse(token);
    } catch {
      return { ok: false, field, message: "must be an object keyed by credential query id" };
    }
  }
  const parsed = ZVpToken.safeParse(token);
  if (!parsed.success) {
    return { ok: false, field: `${field}.pid`, message: 'must hold the SD-JWT VC presentation(s) for "pid"' };
  }
  const presentations = typeof parsed.data.pid === "string" ? [parsed.data.pid] : parsed.data.pid;
  return { ok: true, presentations };
}
