/**
 * The settings an operator stores for a SAML 2.0 upstream (an eIDAS node, SPID, CIE, Cl@ve,
 * DigiD …) and the identity provider's metadata read from them.
 * Rules:
 * - the IdP is described by its metadata XML (a `metadataUrl` is fetched by the caller and its
 *   XML passed here): its entityID, its SingleSignOnService of the HTTP-Redirect binding and its
 *   signing certificates are required, and a metadata document without them is refused naming
 *   `metadataXml`;
 * - the service provider always signs its AuthnRequests (a signing key pair is required); an
 *   encryption key pair is optional (encrypted assertions need it);
 * - attribute names map to OIDC claim names known to the service, eIDAS LoA URIs to LoA 1–3;
 *   both default to the eIDAS natural-person profile;
 * - assertions must be signed unless the operator turns `wantAssertionsSigned` off (the response
 *   is then the signed element);
 * - `eidas` adds the eIDAS AuthnRequest extensions (SPType, RequestedAttributes) when set.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";

type XmlElement = Element;
import { z } from "zod";
import { isKnownClaim } from "../claims";

export const EIDAS_ATTRIBUTE = "http://eidas.europa.eu/attributes/naturalperson/";
export const EIDAS_LOA = "http://eidas.europa.eu/LoA/";
/** The attribute whose value becomes the upstream subject (never a claim). */
export const SUBJECT = "sub";

export const DEFAULT_ATTRIBUTE_MAPPING: Readonly<Record<string, string>> = {
  [`${EIDAS_ATTRIBUTE}PersonIdentifier`]: SUBJECT,
  [`${EIDAS_ATTRIBUTE}FamilyName`]: "family_name",
  [`${EIDAS_ATTRIBUTE}CurrentFamilyName`]: "family_name",
  [`${EIDAS_ATTRIBUTE}FirstName`]: "given_name",
  [`${EIDAS_ATTRIBUTE}CurrentGivenName`]: "given_name",
  [`${EIDAS_ATTRIBUTE}DateOfBirth`]: "birthdate",
};

export const DEFAULT_LOA_MAPPING: Readonly<Record<string, number>> = {
  [`${EIDAS_LOA}low`]: 1,
  [`${EIDAS_LOA}substantial`]: 2,
  [`${EIDAS_LOA}high`]: 3,
};

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
export const HTTP_REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
export const HTTP_POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const MAX_METADATA = 512 * 1024;

/** What the adapter needs from the IdP's metadata. */
export interface TIdpMetadata {
  entityId: string;
  /** SingleSignOnService Location of the HTTP-Redirect binding */
  ssoRedirectUrl: string;
  /** PEM certificates of KeyDescriptor use="signing" (or without `use`) */
  signingCertificates: string[];
}

function pem(base64: string): string {
  const body = base64.replace(/\s+/g, "");
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

function children(parent: XmlElement, ns: string, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1) {
      const element = node as XmlElement;
      if (element.namespaceURI === ns && element.localName === name) out.push(element);
    }
  }
  return out;
}

/** Reads the IdP's entityID, redirect SSO endpoint and signing certificates; a message if not. */
export function parseIdpMetadata(xml: string): TIdpMetadata | string {
  if (xml.length > MAX_METADATA) return "is larger than 512 KiB";
  if (/<!DOCTYPE/i.test(xml)) return "must not contain a DOCTYPE";
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: { warning: () => {}, error: (m) => errors.push(m), fatalError: (m) => errors.push(m) },
  }).parseFromString(xml, "text/xml");
  const root = doc.documentElement;
  if (errors.length || !root) return "is not well-formed XML";
  let entity: XmlElement | undefined;
  if (root.namespaceURI === MD && root.localName === "EntityDescriptor") entity = root;
  else if (root.namespaceURI === MD && root.localName === "EntitiesDescriptor") {
    const all = children(root, MD, "EntityDescriptor").filter(
      (e) => children(e, MD, "IDPSSODescriptor").length,
    );
    if (all.length !== 1) return "must describe exactly one identity provider";
    entity = all[0];
  }
  if (!entity) return "must be SAML 2.0 metadata (an EntityDescriptor)";
  const entityId = entity.getAttribute("entityID") ?? "";
  if (!entityId) return "has no entityID";
  const idp = children(entity, MD, "IDPSSODescriptor")[0];
  if (!idp) return "has no IDPSSODescriptor";
  const sso = children(idp, MD, "SingleSignOnService").find(
    (e) => e.getAttribute("Binding") === HTTP_REDIRECT,
  );
  const ssoRedirectUrl = sso?.getAttribute("Location") ?? "";
  if (!/^https?:\/\//.test(ssoRedirectUrl)) return "has no SingleSignOnService of the HTTP-Redirect binding";
  const signingCertificates: string[] = [];
  for (const key of children(idp, MD, "KeyDescriptor")) {
    const use = key.getAttribute("use");
    if (use && use !== "signing") continue;
    for (const info of children(key, DS, "KeyInfo"))
      for (const data of children(info, DS, "X509Data"))
        for (const cert of children(data, DS, "X509Certificate")) {
          const text = pem(cert.textContent ?? "");
          try {
            new X509Certificate(text);
          } catch {
            return "has a signing certificate that is not a valid X.509 certificate";
          }
          signingCertificates.push(text);
        }
  }
  if (!signingCertificates.length) return "has no signing certificate";
  return { entityId, ssoRedirectUrl, signingCertificates };
}

const ZCertificate = z.string().refine((value) => {
  try {
    new X509Certificate(value);
    return true;
  } catch {
    return false;
  }
}, "must be a PEM X.509 certificate");

const ZPrivateKey = z.string().refine((value) => {
  try {
    return createPrivateKey(value).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
}, "must be a PEM RSA private key");

const ZKeyPair = z.object({ privateKey: ZPrivateKey, certificate: ZCertificate }).strict();

/** The configuration an operator stores for a SAML upstream. */
export const ZSamlUpstreamConfig = z
  .object({
    /** the IdP's SAML 2.0 metadata (an EntityDescriptor) */
    metadataXml: z.string().min(1).max(MAX_METADATA),
    /** where the metadata came from (fetched by the caller; informational here) */
    metadataUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** our entityID toward the IdP (the Issuer of AuthnRequests, the expected Audience) */
    spEntityId: z.string().min(1).max(1024),
    spSigningKeyPair: ZKeyPair,
    spEncryptionKeyPair: ZKeyPair.optional(),
    /** SAML attribute Name → OIDC claim name ("sub": the upstream subject) */
    attributeMapping: z
      .record(
        z.string().min(1).max(1024),
        z
          .string()
          .refine(
            (name): boolean => name === SUBJECT || isKnownClaim(name),
            'must be "sub" or an OIDC claim name known to the service',
          ),
      )
      .default({ ...DEFAULT_ATTRIBUTE_MAPPING }),
    /** AuthnContextClassRef (e.g. an eIDAS LoA URI) → LoA 1–3 */
    loaMapping: z
      .record(z.string().min(1).max(1024), z.number().int().min(1).max(3))
      .default({ ...DEFAULT_LOA_MAPPING }),
    /** the AuthnContextClassRef requested (minimum comparison); omitted → none requested */
    requestedLoa: z.string().min(1).max(1024).optional(),
    wantAssertionsSigned: z.boolean().default(true),
    /** eIDAS AuthnRequest extensions (eidas:SPType, eidas:RequestedAttributes); omitted → none sent */
    eidas: z
      .object({
        spType: z.enum(["public", "private"]).optional(),
        /** attribute Name (a URI) → isRequired */
        requestedAttributes: z.record(z.string().min(1).max(1024), z.boolean()).optional(),
      })
      .strict()
      .optional(),
    /** http metadata URL; tests and local development only */
    allowInsecureRequests: z.boolean().optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    const parsed = parseIdpMetadata(config.metadataXml);
    if (typeof parsed === "string") ctx.addIssue({ code: "custom", path: ["metadataXml"], message: parsed });
    else if (parsed.ssoRedirectUrl.startsWith("http:") && config.allowInsecureRequests !== true)
      ctx.addIssue({ code: "custom", path: ["metadataXml"], message: "SingleSignOnService must use https" });
    if (config.metadataUrl?.startsWith("http:") && config.allowInsecureRequests !== true)
      ctx.addIssue({ code: "custom", path: ["metadataUrl"], message: "must use https" });
    if (config.requestedLoa !== undefined && !Object.hasOwn(config.loaMapping, config.requestedLoa))
      ctx.addIssue({ code: "custom", path: ["requestedLoa"], message: "must be a key of loaMapping" });
  });
export type TSamlUpstreamConfig = z.infer<typeof ZSamlUpstreamConfig>;
export type TSamlUpstreamInput = z.input<typeof ZSamlUpstreamConfig>;

/** The IdP metadata of a parsed configuration (valid by construction). */
export function idpOf(config: TSamlUpstreamConfig): TIdpMetadata {
  const parsed = parseIdpMetadata(config.metadataXml);
  if (typeof parsed === "string") throw new TypeError(`metadataXml ${parsed}`);
  return parsed;
}
