/**
 * "Check connection" for a `saml` connection (issue 24): what the IdP metadata says (re-fetched
 * from `metadataUrl` when the connection has one) and the state of every certificate involved.
 * Rules:
 * - the fetch is the PUT's (./saml.ts loadSamlMetadata: SSRF guard, no redirects, time and size
 *   limits); a failure is `ok: false` with the error, never an exception;
 * - a re-fetched document that differs from the stored one (entityID, SSO URL or signing
 *   certificates) is a warning: the stored copy stays what sign-ins use until an operator PUTs
 *   again (a change is audited, a check changes no setting);
 * - every certificate (the IdP's signing ones, our signing and encryption ones) expired or
 *   expiring within 30 days is a warning; nothing personal is read.
 */
import { X509Certificate } from "node:crypto";
import {
  idpOf,
  parseIdpMetadata,
  type TIdpMetadata,
  type TSamlUpstreamConfig,
} from "../providers/adapters/saml-settings";
import type { TConnectionCheckJson, TSamlCheckJson } from "./check-json";
import { loadSamlMetadata } from "./saml";

const DAY_MS = 24 * 3600 * 1000;
const EXPIRY_WARNING_DAYS = 30;

type TCertificateUse = TSamlCheckJson["certificates"][number]["use"];

function certificateJson(use: TCertificateUse, pem: string): TSamlCheckJson["certificates"][number] {
  const certificate = new X509Certificate(pem);
  return {
    use,
    subject: certificate.subject.replace(/\n/g, ", "),
    issuer: certificate.issuer.replace(/\n/g, ", "),
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    fingerprintSha256: certificate.fingerprint256,
  };
}

const LABEL: Record<TCertificateUse, string> = {
  idp_signing: "the IdP's signing certificate",
  sp_signing: "our signing certificate (spSigningCertificate)",
  sp_encryption: "our encryption certificate (spEncryptionCertificate)",
};

/** The warnings of certificates expired, not yet valid, or expiring within 30 days of `now`. */
export function certificateWarnings(certificates: TSamlCheckJson["certificates"], now: Date): string[] {
  const warnings: string[] = [];
  for (const c of certificates) {
    const what = `${LABEL[c.use]} "${c.subject}"`;
    const notAfter = Date.parse(c.notAfter);
    if (notAfter <= now.getTime()) warnings.push(`${what} expired on ${c.notAfter}`);
    else if (notAfter - now.getTime() <= EXPIRY_WARNING_DAYS * DAY_MS)
      warnings.push(`${what} expires on ${c.notAfter}, within ${EXPIRY_WARNING_DAYS} days`);
    if (Date.parse(c.notBefore) > now.getTime()) warnings.push(`${what} is not valid before ${c.notBefore}`);
  }
  return warnings;
}

function sameIdp(a: TIdpMetadata, b: TIdpMetadata): boolean {
  return (
    a.entityId === b.entityId &&
    a.ssoRedirectUrl === b.ssoRedirectUrl &&
    JSON.stringify([...a.signingCertificates].sort()) === JSON.stringify([...b.signingCertificates].sort())
  );
}

/** The check itself, on a configuration (no database). */
export async function checkSamlConnection(
  providerId: string,
  config: TSamlUpstreamConfig,
  now = new Date(),
): Promise<TConnectionCheckJson> {
  const stored = idpOf(config);
  const saml: TSamlCheckJson = {
    entityId: stored.entityId,
    ssoUrl: stored.ssoRedirectUrl,
    metadataUrl: config.metadataUrl ?? null,
    metadataChanged: null,
    certificates: [],
  };
  const warnings: string[] = [];
  let error: string | null = null;
  let idp = stored;
  if (config.metadataUrl) {
    try {
      const fetched = parseIdpMetadata(
        await loadSamlMetadata(config.metadataUrl, config.allowInsecureRequests === true),
      ) as TIdpMetadata;
      idp = fetched;
      saml.entityId = fetched.entityId;
      saml.ssoUrl = fetched.ssoRedirectUrl;
      saml.metadataChanged = !sameIdp(stored, fetched);
      if (saml.metadataChanged)
        warnings.push(
          "the metadata at metadataUrl differs from the stored copy (entityID, SSO URL or signing certificates): PUT the connection again to take it",
        );
    } catch (err) {
      error = `metadataUrl ${(err as Error).message}`.slice(0, 300);
    }
  }
  saml.certificates = [
    ...idp.signingCertificates.map((pem) => certificateJson("idp_signing", pem)),
    certificateJson("sp_signing", config.spSigningKeyPair.certificate),
    ...(config.spEncryptionKeyPair
      ? [certificateJson("sp_encryption", config.spEncryptionKeyPair.certificate)]
      : []),
  ];
  warnings.push(...certificateWarnings(saml.certificates, now));
  if (!saml.ssoUrl?.startsWith("https:")) warnings.push("the SingleSignOnService is not https");
  if (config.allowInsecureRequests) warnings.push("allowInsecureRequests is set: for local testing only");
  if (!config.wantAssertionsSigned)
    warnings.push("wantAssertionsSigned is off: only the response's signature is checked");
  return {
    providerId,
    ok: error === null,
    issuer: stored.entityId,
    discoveredIssuer: saml.entityId,
    issuerMatches: saml.entityId === stored.entityId,
    endpoints: { authorization: saml.ssoUrl, token: null, userinfo: null, jwks: null },
    idTokenSigningAlgorithms: [],
    tokenEndpointAuthMethods: [],
    keyCount: idp.signingCertificates.length,
    warnings,
    saml,
    error,
    checkedAt: now.toISOString(),
  };
}
