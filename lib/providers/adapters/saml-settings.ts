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
 * - `eidas` adds the eIDAS AuthnRequest extensions (SPType, RequestedAttributes) when set;
 * - `forceAuthn` and `attributeConsumingServiceIndex` go into every AuthnRequest; `organization`
 *   and `contactPerson` (and, with the index, an AttributeConsumingService) into the SP metadata;
 * - the SP metadata is signed with the SP signing key unless `signMetadata` is false.
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

const ZLang = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "must be a language tag (en, it, de-CH …)");
const ZOrganizationNames = z
  .object({
    name: z.string().min(1).max(256),
    displayName: z.string().min(1).max(256),
    url: z.url({ protocol: /^https?$/ }),
  })
  .strict();

/** The first issue of the union option an input was meant for, as "path: message". */
function unionIssue(
  issue: { errors?: { path: PropertyKey[]; message: string }[][]; input?: unknown },
  option: number,
  shape: string,
): string {
  const first = issue.errors?.[option]?.[0];
  const where = first?.path.length ? `${first.path.map(String).join(".")}: ` : "";
  return first ? `must be ${shape} (${where}${first.message})` : `must be ${shape}`;
}

const ORGANIZATION_SHAPE =
  '{name, displayName, url, lang?} or, per language, {"<lang>": {name, displayName, url}}';
/**
 * The SP's Organization in its metadata: one language (`lang`, default "en") or several
 * (`{"it": {…}, "en": {…}}`).
 */
export const ZSamlOrganization = z.union(
  [
    ZOrganizationNames.extend({ lang: ZLang.optional() }).strict(),
    z
      .record(ZLang, ZOrganizationNames)
      .refine((languages) => Object.keys(languages).length > 0, "must name at least one language"),
  ],
  {
    error: (issue) => {
      const input = issue.input;
      const oneLanguage = !!input && typeof input === "object" && ("name" in input || "url" in input);
      return unionIssue(issue as Parameters<typeof unionIssue>[0], oneLanguage ? 0 : 1, ORGANIZATION_SHAPE);
    },
  },
);
export type TSamlOrganization = z.infer<typeof ZSamlOrganization>;

export const CONTACT_TYPES = ["technical", "support", "administrative", "billing", "other"] as const;
const ZContactPerson = z
  .object({
    type: z.enum(CONTACT_TYPES),
    company: z.string().min(1).max(256).optional(),
    email: z.email(),
    telephone: z
      .string()
      .regex(/^\+?[0-9 ()./-]{3,40}$/, "must be a telephone number")
      .optional(),
  })
  .strict();
const CONTACT_SHAPE = "{type, company?, email, telephone?} or a list of them";
/** The SP's ContactPerson elements in its metadata: one, or a list. */
export const ZSamlContactPerson = z.union([ZContactPerson, z.array(ZContactPerson).min(1).max(10)], {
  error: (issue) =>
    unionIssue(issue as Parameters<typeof unionIssue>[0], Array.isArray(issue.input) ? 1 : 0, CONTACT_SHAPE),
});
export type TSamlContactPerson = z.infer<typeof ZContactPerson>;

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
    /** ForceAuthn="true" in every AuthnRequest (SPID asks it above level 1) */
    forceAuthn: z
      .boolean()
      .optional()
      .describe('Sends ForceAuthn="true": the IdP authenticates the person again (SPID: above SpidL1)'),
    /**
     * AttributeConsumingServiceIndex of every AuthnRequest; the SP metadata then lists the
     * requested attributes in an AttributeConsumingService of that index
     */
    attributeConsumingServiceIndex: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe(
        "Sent as AttributeConsumingServiceIndex; our SP metadata then has an AttributeConsumingService of this index listing the requested attributes (eidas.requestedAttributes, else the attributeMapping names)",
      ),
    /** the SP metadata's Organization */
    organization: ZSamlOrganization.optional().describe(
      `Our SP metadata's Organization: ${ORGANIZATION_SHAPE}`,
    ),
    /** the SP metadata's ContactPerson elements */
    contactPerson: ZSamlContactPerson.optional().describe(
      `Our SP metadata's ContactPerson elements: ${CONTACT_SHAPE}; type technical, support, administrative, billing or other`,
    ),
    /** our SP metadata signed with the SP signing key (SPID, several eIDAS nodes require it) */
    signMetadata: z
      .boolean()
      .default(true)
      .describe(
        "Signs our SP metadata with the SP signing key (enveloped XML signature, RSA-SHA256), as SPID and several eIDAS nodes require; default true (an IdP that does not check it ignores it)",
      ),
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
