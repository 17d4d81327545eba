/**
 * ISO/IEC 18013-5 mdoc (mDL, EUDI PID in mso_mdoc) presentations, verified by @owf/mdoc
 * (OpenWallet Foundation): a base64url CBOR DeviceResponse checked against the session transcript
 * of the flow it answers. Not wired into a flow yet: the OpenID4VP flows call
 * verifyMdocPresentation with the transcript they built (mdocSessionTranscript).
 * Rules:
 * - the input is capped (MDOC_MAX_BYTES decoded) and must be base64url CBOR of a DeviceResponse
 *   with status 0 and exactly one document, of the expected docType, whose MSO names the same
 *   docType;
 * - the library checks (ISO 18013-5 §9.3): every issuer-signed item against its digest in the
 *   MSO (valueDigests), the MSO's COSE_Sign1 by the document signer certificate (x5chain), that
 *   certificate chaining to one of the configured IACA roots, the MSO validityInfo, the
 *   deviceSignature over the DeviceAuthentication built from the caller's SessionTranscript with
 *   the device key of the MSO. The crypto it delegates is node:crypto here (mdocContext): COSE
 *   ES256/ES384/ES512/EdDSA with the alg of the PROTECTED header and a key of the matching curve;
 *   the chain is built leaf first from x5chain to a trusted root, each certificate issued
 *   (checkIssued) and signed by the next, each issuer a CA, each valid at `now` (60 s tolerance);
 * - on top of the library (0.6.0 gaps): the docType checks above; the deviceSignature must have a
 *   detached (null) payload — the library would verify an embedded one instead of this session's
 *   DeviceAuthentication; deviceMac is refused (no reader key in OpenID4VP or the DC API);
 *   an element presented twice in a namespace is refused;
 * - an MSO outside validFrom/validUntil fails as credential_not_yet_valid / credential_expired,
 *   only when every other check passed (a forged expired document stays invalid_presentation);
 *   any other failure is invalid_presentation, its message naming the check, never a claim value
 *   (the library's own messages, which may quote values, are never passed on);
 * - claims: the issuer-signed elements of the mDL and PID namespaces mapped to OIDC names
 *   (MDOC_CLAIM_NAMES); device-signed elements are not claims. The MSO `status` (ISO 18013-5 2nd
 *   edition status/identifier lists) is not checked: @owf/mdoc 0.6.0 does not read it.
 * - importing @owf/mdoc installs a global zod error map (zod-validation-error); this module puts
 *   zod's default messages back, so the app's validation errors do not change.
 */
import { createHash, X509Certificate } from "node:crypto";
import { base64url, DeviceResponse, SessionTranscript, type VerificationAssessment } from "@owf/mdoc";
import { calculateJwkThumbprint } from "jose";
import { z } from "zod";
import type { TAdapterOutcome, TSourceIdentity } from "./types";
import { CLOCK_TOLERANCE_SECONDS, PresentationError } from "./wallet-status";
import { mdocContext, pemToDer, publicJwk, type TChainState } from "./wallet-mdoc-crypto";

// @owf/mdoc sets z.config({ customError }) when loaded; keep zod's own messages app-wide
z.config({ customError: undefined });

/** the largest DeviceResponse accepted, decoded (an mDL with a portrait stays well below) */
export const MDOC_MAX_BYTES = 256 * 1024;

export const MDL_DOCTYPE = "org.iso.18013.5.1.mDL";
export const MDL_NAMESPACE = "org.iso.18013.5.1";
export const PID_MDOC_DOCTYPE = "eu.europa.ec.eudi.pid.1";
export const PID_MDOC_NAMESPACE = "eu.europa.ec.eudi.pid.1";

/** mDL / PID element identifier → OIDC claim name (the address parts are gathered separately). */
export const MDOC_CLAIM_NAMES: Record<string, string> = {
  given_name: "given_name",
  family_name: "family_name",
  birth_date: "birthdate",
  nationality: "nationality",
  sex: "gender",
  email_address: "email",
  mobile_phone_number: "phone_number",
  place_of_birth: "place_of_birth",
  birth_place: "place_of_birth",
};
const ADDRESS_PARTS: Record<string, string> = {
  resident_address: "formatted",
  resident_street: "street_address",
  resident_city: "locality",
  resident_state: "region",
  resident_postal_code: "postal_code",
  resident_country: "country",
};
const MAPPED_NAMESPACES = new Set([MDL_NAMESPACE, PID_MDOC_NAMESPACE]);
const PERSONAL_IDENTIFIER = "personal_administrative_number";

/** What must hold for this session's DeviceResponse. */
export interface TMdocExpectations {
  /** PEM IACA root certificates trusted for this docType */
  trustedRoots: string[];
  docType: string;
  /** CBOR SessionTranscript of the flow (mdocSessionTranscript) */
  sessionTranscript: Uint8Array;
  now?: Date;
}

function fail(message: string): never {
  throw new PresentationError(message);
}

/**
 * The SessionTranscript (CBOR) a flow binds the mdoc presentation to, as @owf/mdoc builds it:
 * OpenID4VP 1.0 Appendix B.2.6.1 (redirect/direct_post: OpenID4VPHandover over client_id, nonce,
 * the encryption JWK thumbprint and response_uri) or B.2.6.2 (DC API: OpenID4VPDCAPIHandover over
 * origin, nonce, JWK thumbprint). ISO 18013-7 Annex C (`org-iso-mdoc` over the DC API, Safari) is
 * not in @owf/mdoc 0.6.0.
 */
export async function mdocSessionTranscript(
  input:
    | { kind: "openid4vp"; clientId: string; nonce: string; responseUri: string; jwkThumbprint?: Uint8Array }
    | { kind: "openid4vp-dc-api"; origin: string; nonce: string; jwkThumbprint?: Uint8Array },
): Promise<Uint8Array> {
  const ctx = mdocContext({});
  const transcript =
    input.kind === "openid4vp"
      ? await SessionTranscript.forOid4Vp(
          {
            clientId: input.clientId,
            nonce: input.nonce,
            responseUri: input.responseUri,
            ...(input.jwkThumbprint ? { jwkThumbprint: input.jwkThumbprint } : {}),
          },
          ctx,
        )
      : await SessionTranscript.forOid4VpDcApi(
          {
            origin: input.origin,
            nonce: input.nonce,
            ...(input.jwkThumbprint ? { jwkThumbprint: input.jwkThumbprint } : {}),
          },
          ctx,
        );
  return transcript.encode();
}

/** A CBOR element value as JSON (dates as ISO strings, byte strings base64url, maps as objects). */
function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return base64url.encode(value);
  if (value instanceof Map) {
    return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), jsonValue(v)]));
  }
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === "bigint") return value.toString();
  if (value !== null && typeof value === "object") {
    // DateOnly (full-date, tag 1004) and other library values with a JSON form
    const toJSON = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof toJSON === "function") return toJSON.call(value);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]));
  }
  return value;
}

/** The failed check's message (our words), or null for the MSO validity check. */
function failureMessage(item: VerificationAssessment): string | null {
  const { category, check } = item;
  if (category === "DEVICE_AUTH")
    return "the device signature (deviceAuth) does not verify over this session's transcript";
  if (category === "ISSUER_AUTH") {
    if (check.startsWith("The MSO must be valid")) return null;
    if (check.startsWith("Issuer certificate must be valid")) {
      return item.reason && CHAIN_MESSAGES.has(item.reason)
        ? item.reason
        : "the document signer certificate does not chain to a trusted IACA root";
    }
    if (check.startsWith("Issuer auth signature")) return "the MSO signature (issuerAuth) does not verify";
    if (check.startsWith("Country name")) return "the issuer certificate names no country (C)";
    if (check.startsWith("The MSO signed date"))
      return "the MSO was signed outside the document signer certificate's validity";
    return "the issuer authentication (issuerAuth) failed";
  }
  if (category === "DATA_INTEGRITY") {
    if (check.includes("issuing_country") || check.includes("issuing_jurisdiction")) {
      return "issuing_country or issuing_jurisdiction does not match the document signer certificate";
    }
    if (check.startsWith("Issuer Auth must include digests for namespace"))
      return "an issuer-signed namespace has no digests in the MSO";
    if (check.startsWith("Issuer Auth must include a supported digestAlgorithm"))
      return "the MSO has no digestAlgorithm";
    return "an issuer-signed element does not match its digest in the MSO (valueDigests)";
  }
  return "the device response is malformed";
}
const CHAIN_MESSAGES = new Set([
  "the issuer has no document signer certificate",
  "the issuer's x5chain is too long",
  "the issuer's x5chain holds a malformed certificate",
  "a certificate of the issuer's chain is outside its validity",
  "the IACA root certificate is outside its validity",
  "the trusted root certificate is not a CA",
  "the document signer certificate does not chain to a trusted IACA root",
  "a certificate of the issuer's chain is not a CA",
]);

async function verifyDeviceResponse(encoded: string, expect: TMdocExpectations): Promise<TSourceIdentity> {
  const now = expect.now ?? new Date();
  if (encoded.length > Math.ceil((MDOC_MAX_BYTES * 4) / 3))
    fail("the device response is larger than 256 KiB");
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) fail("the device response is not base64url");
  const trusted = expect.trustedRoots.map(pemToDer);
  if (trusted.length === 0) fail("no IACA root is configured for this document type");
  let transcript: SessionTranscript;
  try {
    transcript = SessionTranscript.decode(expect.sessionTranscript);
  } catch {
    // the caller's own structure: a programming error, not the wallet's
    throw new TypeError("sessionTranscript is not a SessionTranscript @owf/mdoc can read");
  }

  let response: DeviceResponse;
  try {
    response = DeviceResponse.decode(base64url.decode(encoded));
  } catch {
    fail("the device response is not a well-formed CBOR DeviceResponse");
  }
  if (response.status !== 0) fail("the device response has a non-zero status");
  const documents = response.documents ?? [];
  if (documents.length !== 1) fail("the device response must carry exactly one document");
  const document = documents[0]!;
  if (document.docType !== expect.docType) fail("the document's docType is not the expected one");
  let mso: ReturnType<typeof readMso>;
  try {
    mso = readMso(document);
  } catch {
    fail("the document's issuerAuth does not carry a well-formed MSO");
  }
  if (mso.docType !== document.docType) fail("the MSO's docType is not the document's");
  const deviceAuth = document.deviceSigned.deviceAuth;
  if (deviceAuth.deviceMac) fail("device MAC authentication is not supported (deviceSignature required)");
  if (!deviceAuth.deviceSignature) fail("the document has no deviceSignature");
  if (deviceAuth.deviceSignature.payload !== null) {
    fail("the deviceSignature carries an embedded payload (it must be detached)");
  }
  const deviceJwk = publicJwk(mso.deviceKey);
  if (!deviceJwk) fail("the MSO's device key is not an EC2 or OKP key on a supported curve");

  const namespaces = document.issuerSigned.issuerNamespaces.issuerNamespaces;
  for (const items of namespaces.values()) {
    const names = items.map((item) => item.elementIdentifier);
    if (new Set(names).size !== names.length) fail("an issuer-signed element is presented twice");
  }

  const failures: VerificationAssessment[] = [];
  const state: TChainState = {};
  try {
    await response.verify(
      {
        sessionTranscript: transcript,
        trustedCertificates: trusted,
        now,
        skewSeconds: CLOCK_TOLERANCE_SECONDS,
        onCheck: (item) => {
          if (item.status === "FAILED") failures.push(item);
        },
      },
      mdocContext(state),
    );
  } catch (err) {
    if (err instanceof PresentationError) throw err;
    fail("the document is not a well-formed mdoc (issuerAuth, MSO or deviceAuth)");
  }
  for (const item of failures) {
    const message = failureMessage(item);
    if (message !== null) fail(message);
  }
  if (failures.length > 0) {
    // only the MSO validity failed: the document is genuine, outside its validity period
    const skew = CLOCK_TOLERANCE_SECONDS * 1000;
    if (now.getTime() > mso.validUntil.getTime() + skew) {
      throw new PresentationError(
        "the credential has expired (past its validity period)",
        "credential_expired",
      );
    }
    throw new PresentationError(
      "the credential is not yet valid (before its validity period)",
      "credential_not_yet_valid",
    );
  }

  // the issuer-signed elements: native (namespace → element → value) and mapped to OIDC claims
  const rawClaims: Record<string, Record<string, unknown>> = {};
  const claims: Record<string, unknown> = {};
  const address: Record<string, unknown> = {};
  let personal: unknown;
  for (const [namespace, items] of namespaces) {
    const values: Record<string, unknown> = {};
    for (const item of items) values[item.elementIdentifier] = jsonValue(item.elementValue);
    rawClaims[namespace] = values;
    if (!MAPPED_NAMESPACES.has(namespace)) continue;
    for (const [name, value] of Object.entries(values)) {
      if (name === PERSONAL_IDENTIFIER) personal = value;
      const part = ADDRESS_PARTS[name];
      if (part) address[part] = value;
      const oidc = MDOC_CLAIM_NAMES[name];
      if (oidc && !(oidc in claims)) claims[oidc] = value;
    }
  }
  if (Object.keys(address).length > 0) claims.address = address;
  // the PID may list nationalities; our `nationality` claim is the first of them
  if (Array.isArray(claims.nationality)) claims.nationality = claims.nationality[0];
  if (typeof claims.birthdate === "string") claims.birthdate = claims.birthdate.slice(0, 10);
  if (typeof claims.gender === "number") {
    // ISO/IEC 5218
    claims.gender = ({ 1: "male", 2: "female" } as Record<number, string>)[claims.gender] ?? "other";
  }

  const signer = new X509Certificate(Buffer.from(document.issuerSigned.issuerAuth.certificate));
  const anchor =
    state.anchor ?? fail("the document signer certificate does not chain to a trusted IACA root");
  const anchorId = anchor.fingerprint256.replaceAll(":", "").toLowerCase();
  const thumbprint = await calculateJwkThumbprint(deviceJwk, "sha256");
  const upstreamSubject =
    typeof personal === "string" && personal !== ""
      ? `mdoc:${anchorId}|${mso.docType}|pan|${personal}`
      : `mdoc:${anchorId}|${mso.docType}|dk|${createHash("sha256").update(`${anchorId}\n${thumbprint}`).digest("hex")}`;
  const evidence: Record<string, string> = {
    format: "mso_mdoc",
    doc_type: mso.docType,
    issuer: signer.subject.replaceAll("\n", ", "),
    issuer_certificate_serial: signer.serialNumber,
    iaca_root: anchor.subject.replaceAll("\n", ", "),
    iaca_root_sha256: anchorId,
    digest_algorithm: mso.digestAlgorithm,
    signed_at: mso.signed.toISOString(),
    valid_from: mso.validFrom.toISOString(),
    valid_until: mso.validUntil.toISOString(),
    device_key_thumbprint: thumbprint,
    credential_status: "not_checked",
  };
  return { upstreamSubject, claims, loa: null, rawClaims, evidence };
}

function readMso(document: NonNullable<DeviceResponse["documents"]>[number]) {
  const mso = document.issuerSigned.issuerAuth.mobileSecurityObject;
  const { validityInfo } = mso;
  return {
    docType: mso.docType,
    digestAlgorithm: mso.digestAlgorithm,
    deviceKey: mso.deviceKeyInfo.deviceKey,
    signed: validityInfo.signed,
    validFrom: validityInfo.validFrom,
    validUntil: validityInfo.validUntil,
  };
}

/**
 * Verifies one mdoc DeviceResponse (base64url CBOR) for this session's transcript; a failure
 * carries its reason (credential_expired, credential_not_yet_valid, else invalid_presentation).
 */
export async function verifyMdocPresentation(
  deviceResponse: string,
  expect: TMdocExpectations,
): Promise<TAdapterOutcome> {
  try {
    return { kind: "success", identity: await verifyDeviceResponse(deviceResponse, expect) };
  } catch (err) {
    if (!(err instanceof PresentationError)) throw err;
    return { kind: "failure", reason: err.reason, message: err.message };
  }
}
