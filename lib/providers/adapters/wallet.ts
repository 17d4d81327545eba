/**
 * The production wallet adapter: OpenID4VP over the browser's Digital Credentials API, with the
 * credential presented as an IETF SD-JWT VC.
 * Rules:
 * - the request is unsigned (protocol openid4vp-v1-unsigned, no client_id): the wallet binds the
 *   presentation to the calling web origin, so the Key Binding JWT's `aud` must be
 *   "origin:<origin of the hosted page>" and its `nonce` the one sealed in the session;
 * - the issuer-signed JWT must verify (ES256, ES384 or EdDSA) against a key of an issuer the
 *   deployment trusts for that provider (IDV_WALLET_TRUSTED_ISSUERS), carry an allowed `vct`,
 *   and be within exp/nbf;
 * - every disclosure's SHA-256 digest must appear in the top-level `_sd` array: only flat
 *   (top-level) selectively disclosable claims are accepted, nested and array-element
 *   disclosures are refused rather than half-checked;
 * - the Key Binding JWT (typ kb+jwt) is mandatory, signed by the holder key in `cnf.jwk`, recent,
 *   and its `sd_hash` covers exactly the presented issuer JWT and disclosures;
 * - any failure is one outcome, reason invalid_presentation, with a message that names the
 *   check but never a claim value.
 */
import { createHash } from "node:crypto";
import {
  base64url,
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
} from "jose";
import { z } from "zod";
import type { TAdapterOutcome, TSourceIdentity } from "./types";

export const WALLET_ALGORITHMS = ["ES256", "ES384", "EdDSA"];
/** how old a Key Binding JWT may be, and the clock skew tolerated on exp/nbf/iat */
export const KB_MAX_AGE_SECONDS = 300;
const CLOCK_TOLERANCE_SECONDS = 60;

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

class PresentationError extends Error {}

function fail(message: string): never {
  throw new PresentationError(message);
}

function sha256(text: string): string {
  return base64url.encode(createHash("sha256").update(text, "ascii").digest());
}

function parseDisclosure(encoded: string): { name: string; value: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(base64url.decode(encoded)));
  } catch {
    fail("a disclosure is not base64url-encoded JSON");
  }
  if (!Array.isArray(parsed)) fail("a disclosure is not an array");
  // two elements are array-element disclosures, which only nested claims use
  if (parsed.length !== 3 || typeof parsed[0] !== "string" || typeof parsed[1] !== "string") {
    fail("only object-property disclosures of top-level claims are accepted");
  }
  const name = parsed[1] as string;
  if (name === "_sd" || name === "..." || name === "_sd_alg") fail("a disclosure uses a reserved claim name");
  return { name, value: parsed[2] };
}

function isJwk(value: unknown): value is JWK {
  return typeof value === "object" && value !== null && typeof (value as { kty?: unknown }).kty === "string";
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
  const kbJwt = parts.at(-1)!;
  const disclosures = parts.slice(1, -1);
  if (kbJwt === "") fail("the presentation has no Key Binding JWT");
  if (disclosures.some((d) => d === "")) fail("the presentation has an empty disclosure");

  // issuer-signed JWT: a trusted issuer's key, the allowed types, in its validity period
  let unverified: ReturnType<typeof decodeJwt>;
  try {
    decodeProtectedHeader(issuerJwt);
    unverified = decodeJwt(issuerJwt);
  } catch {
    fail("the issuer-signed JWT is malformed");
  }
  const iss = typeof unverified.iss === "string" ? unverified.iss : fail("the credential names no issuer");
  const jwks = Object.hasOwn(config.issuers, iss) ? config.issuers[iss] : undefined;
  if (!jwks) fail("the credential's issuer is not trusted");
  let payload: Record<string, unknown>;
  let kid: string | undefined;
  try {
    const verified = await jwtVerify(issuerJwt, createLocalJWKSet(jwks as unknown as JSONWebKeySet), {
      algorithms: WALLET_ALGORITHMS,
      issuer: iss,
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    payload = verified.payload;
    kid = verified.protectedHeader.kid;
    const typ = verified.protectedHeader.typ;
    // vc+sd-jwt is the media type of earlier SD-JWT VC drafts, still issued by deployed wallets
    if (typ !== "dc+sd-jwt" && typ !== "vc+sd-jwt") fail("the issuer-signed JWT has the wrong typ");
  } catch (err) {
    if (err instanceof PresentationError) throw err;
    fail("the issuer signature or validity period does not verify");
  }
  const vct = typeof payload.vct === "string" ? payload.vct : fail("the credential has no vct");
  if (!config.vct.includes(vct)) fail("the credential type is not accepted");
  const sdAlg = payload._sd_alg ?? "sha-256";
  if (sdAlg !== "sha-256") fail("the credential's _sd_alg is not sha-256");
  const digests = new Set(Array.isArray(payload._sd) ? payload._sd.filter((d) => typeof d === "string") : []);

  // disclosures: each one's digest listed once, in the top-level _sd
  const disclosed: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const encoded of disclosures) {
    const digest = sha256(encoded);
    if (!digests.has(digest)) fail("a disclosure is not covered by the issuer's signature");
    if (seen.has(digest)) fail("a disclosure is presented twice");
    seen.add(digest);
    const { name, value } = parseDisclosure(encoded);
    if (Object.hasOwn(disclosed, name) || Object.hasOwn(payload, name)) fail("a claim is disclosed twice");
    disclosed[name] = value;
  }

  // key binding: the holder key in cnf signed this session's nonce for this origin
  const cnf = payload.cnf as { jwk?: unknown } | undefined;
  if (!cnf || !isJwk(cnf.jwk)) fail("the credential has no holder key (cnf.jwk)");
  const holderJwk = cnf.jwk;
  let kb: Record<string, unknown>;
  try {
    const header = decodeProtectedHeader(kbJwt);
    if (!header.alg || !WALLET_ALGORITHMS.includes(header.alg))
      fail("the Key Binding JWT's alg is not accepted");
    const key = await importJWK(holderJwk, header.alg);
    const verified = await jwtVerify(kbJwt, key, {
      algorithms: WALLET_ALGORITHMS,
      typ: "kb+jwt",
      audience: expect.audience,
      maxTokenAge: KB_MAX_AGE_SECONDS,
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    kb = verified.payload;
  } catch (err) {
    if (err instanceof PresentationError) throw err;
    fail("the Key Binding JWT does not verify (holder key, typ, audience or age)");
  }
  if (kb.nonce !== expect.nonce) fail("the Key Binding JWT's nonce is not this session's");
  const presented = `${issuerJwt}~${disclosures.map((d) => `${d}~`).join("")}`;
  if (kb.sd_hash !== sha256(presented)) fail("the Key Binding JWT's sd_hash does not match");

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
    ...(kid ? { kid } : {}),
    ...(typeof payload.iat === "number" ? { issued_at: new Date(payload.iat * 1000).toISOString() } : {}),
    ...(typeof payload.exp === "number" ? { expires_at: new Date(payload.exp * 1000).toISOString() } : {}),
  };
  return { upstreamSubject, claims, loa: config.loa ?? null, rawClaims: disclosed, evidence };
}

/** Verifies one SD-JWT VC presentation; every failure is invalid_presentation. */
export async function verifyWalletPresentation(
  config: TWalletTrustConfig,
  expect: TPresentationExpectations,
  presentation: string,
): Promise<TAdapterOutcome> {
  try {
    return { kind: "success", identity: await verifyPresentation(config, expect, presentation) };
  } catch (err) {
    if (!(err instanceof PresentationError)) throw err;
    return { kind: "failure", reason: "invalid_presentation", message: err.message };
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
