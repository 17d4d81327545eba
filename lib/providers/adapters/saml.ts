/**
 * The SAML 2.0 service-provider adapter: a provider's production path through a SAML identity
 * provider (an eIDAS node, SPID, CIE, Cl@ve, DigiD …), on @node-saml/node-saml
 * (docs/decisions.md "SAML adapter").
 * Rules:
 * - the AuthnRequest goes by HTTP-Redirect, always signed (RSA-SHA256) with the SP signing key,
 *   with a fresh ID saved with the session and, when configured, the requested LoA as
 *   RequestedAuthnContext (comparison minimum), and the eIDAS extensions (SPType,
 *   RequestedAttributes) when configured, ForceAuthn and AttributeConsumingServiceIndex when
 *   configured; the response comes back by HTTP-POST;
 * - nothing of a response is read before its signature is checked against the IdP metadata's
 *   signing certificates: the assertion must be signed (unless wantAssertionsSigned is off, then
 *   the response must be), only one assertion may be present, and claims are read from the signed
 *   (or decrypted and signed) assertion only, never from the document around it;
 * - the signed assertion must come from the metadata's entityID, be addressed to our entityID
 *   (Audience), our ACS URL (Recipient; the response's Destination too) and answer this session's
 *   request (InResponseTo on the response and the subject confirmation), within its validity
 *   window (60 s clock skew); its ID is recorded until it expires and a second use is a replay;
 * - every refusal is an outcome with a reason code (TSamlRefusal), never an exception; only
 *   programming errors (an invalid configuration) throw;
 * - claims: attributes renamed by attributeMapping ("sub" is the upstream subject; without it
 *   the NameID), LoA from AuthnContextClassRef through loaMapping (unknown → null).
 */
import { randomBytes } from "node:crypto";
import {
  generateServiceProviderMetadata,
  SAML,
  SamlStatusError,
  ValidateInResponseTo,
} from "@node-saml/node-saml";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { z } from "zod";
import type { TSourceIdentity } from "./types";
import type { TSamlReplayCache } from "./saml-replay";
import { mapSamlAssertion, responseEnvelope } from "./saml-assertion";
import { EIDAS_ATTRIBUTE, idpOf, type TSamlOrganization, type TSamlUpstreamConfig } from "./saml-settings";

/** Why a SAML response was refused (the session's failure reason). */
export type TSamlRefusal =
  | "invalid_response"
  | "bad_signature"
  | "signature_wrapping"
  | "unsigned_assertion"
  | "replayed_assertion"
  | "wrong_issuer"
  | "wrong_audience"
  | "wrong_recipient"
  | "wrong_destination"
  | "wrong_in_response_to"
  | "wrong_relay_state"
  | "expired"
  | "not_yet_valid"
  | "missing_subject"
  | "idp_refused";

export type TSamlOutcome =
  { kind: "success"; identity: TSourceIdentity } | { kind: "failure"; reason: TSamlRefusal; message: string };

/** What a session keeps between the redirect to the IdP and the POST to the ACS. */
export const ZSamlSavedState = z.object({
  requestId: z.string(),
  acsUrl: z.string(),
  relayState: z.string(),
  issuedAt: z.string(),
});
export type TSamlSavedState = z.infer<typeof ZSamlSavedState>;

const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
const CLOCK_SKEW_MS = 60_000;
/** how long a request may wait for its response (the session's own expiry is shorter) */
const REQUEST_LIFETIME_MS = 60 * 60_000;

const EIDAS_EXTENSIONS = "http://eidas.europa.eu/saml-extensions";
const URI_FORMAT = "urn:oasis:names:tc:SAML:2.0:attrname-format:uri";

/** The eIDAS AuthnRequest extensions in node-saml's XML object notation; undefined when none. */
export function eidasExtensions(eidas: TSamlUpstreamConfig["eidas"]): Record<string, unknown> | undefined {
  if (!eidas) return undefined;
  const attributes = Object.entries(eidas.requestedAttributes ?? {});
  if (!eidas.spType && !attributes.length) return undefined;
  return {
    ...(eidas.spType ? { "eidas:SPType": { "@xmlns:eidas": EIDAS_EXTENSIONS, "#text": eidas.spType } } : {}),
    ...(attributes.length
      ? {
          "eidas:RequestedAttributes": {
            "@xmlns:eidas": EIDAS_EXTENSIONS,
            "eidas:RequestedAttribute": attributes.map(([name, isRequired]) => ({
              ...(name.startsWith(EIDAS_ATTRIBUTE)
                ? { "@FriendlyName": name.slice(EIDAS_ATTRIBUTE.length) }
                : {}),
              "@Name": name,
              "@NameFormat": URI_FORMAT,
              "@isRequired": String(isRequired),
            })),
          },
        }
      : {}),
  };
}

function samlFor(
  config: TSamlUpstreamConfig,
  acsUrl: string,
  saved?: TSamlSavedState,
  requestId?: string,
): SAML {
  const idp = idpOf(config);
  return new SAML({
    entryPoint: idp.ssoRedirectUrl,
    issuer: config.spEntityId,
    audience: config.spEntityId,
    callbackUrl: acsUrl,
    idpCert: idp.signingCertificates,
    privateKey: config.spSigningKeyPair.privateKey,
    publicCert: config.spSigningKeyPair.certificate,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    decryptionPvk: config.spEncryptionKeyPair?.privateKey,
    identifierFormat: null,
    authnContext: config.requestedLoa ? [config.requestedLoa] : [],
    disableRequestedAuthnContext: !config.requestedLoa,
    racComparison: "minimum",
    samlAuthnRequestExtensions: eidasExtensions(config.eidas),
    forceAuthn: config.forceAuthn === true,
    attributeConsumingServiceIndex: config.attributeConsumingServiceIndex?.toString(),
    wantAssertionsSigned: config.wantAssertionsSigned,
    // an assertion-only signature is the eIDAS norm; without wantAssertionsSigned the response
    // signature is what is checked (node-saml requires one of the two in any case)
    wantAuthnResponseSigned: !config.wantAssertionsSigned,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
    generateUniqueId: () => requestId ?? `_${randomBytes(20).toString("hex")}`,
    // the only request this session may be answering: the one it saved
    cacheProvider: {
      saveAsync: async (key, value) => ({ value, createdAt: Date.now() }),
      getAsync: async (key) => (saved && key === saved.requestId ? saved.issuedAt : null),
      removeAsync: async () => null,
    },
  });
}

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const BASIC_FORMAT = "urn:oasis:names:tc:SAML:2.0:attrname-format:basic";

/** The Organization's names per language (one language: `lang`, default "en"). */
function organizationLanguages(
  organization: TSamlOrganization,
): [string, { name: string; displayName: string; url: string }][] {
  if (typeof organization.name === "string") {
    const { lang, ...names } = organization as {
      lang?: string;
      name: string;
      displayName: string;
      url: string;
    };
    return [[lang ?? "en", names]];
  }
  return Object.entries(organization as Record<string, { name: string; displayName: string; url: string }>);
}

/** node-saml's metadataOrganization (it writes it after the SPSSODescriptor, as the schema orders). */
function metadataOrganization(organization: TSamlOrganization | undefined) {
  if (!organization) return undefined;
  const languages = organizationLanguages(organization);
  const each = (key: "name" | "displayName" | "url") =>
    languages.map(([lang, names]) => ({ "@xml:lang": lang, "#text": names[key] }));
  return {
    OrganizationName: each("name"),
    OrganizationDisplayName: each("displayName"),
    OrganizationURL: each("url"),
  };
}

/** node-saml's metadataContactPerson: Company, EmailAddress, TelephoneNumber in schema order. */
function metadataContactPerson(contacts: TSamlUpstreamConfig["contactPerson"]) {
  if (!contacts) return undefined;
  return (Array.isArray(contacts) ? contacts : [contacts]).map((c) => ({
    "@contactType": c.type,
    ...(c.company ? { Company: c.company } : {}),
    EmailAddress: [c.email] as [string],
    ...(c.telephone ? { TelephoneNumber: [c.telephone] as [string] } : {}),
  }));
}

/**
 * The attributes the SP asks for (AttributeConsumingService): the eIDAS RequestedAttributes when
 * set, else the names of the attribute mapping; Name → isRequired (undefined: not said).
 */
export function requestedSamlAttributes(config: TSamlUpstreamConfig): [string, boolean | undefined][] {
  const eidas = Object.entries(config.eidas?.requestedAttributes ?? {});
  if (eidas.length) return eidas;
  return Object.keys(config.attributeMapping).map((name) => [name, undefined]);
}

/**
 * Adds the AttributeConsumingService of `index` as the SPSSODescriptor's last child (after the
 * AssertionConsumerService, as the schema orders), its ServiceName the Organization's display
 * names (else our entityID). node-saml has no option for it.
 */
function withAttributeConsumingService(xml: string, config: TSamlUpstreamConfig, index: number): string {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const sp = doc.getElementsByTagNameNS(MD, "SPSSODescriptor")[0];
  if (!sp) throw new TypeError("the SP metadata has no SPSSODescriptor");
  const service = doc.createElementNS(MD, "AttributeConsumingService");
  service.setAttribute("index", String(index));
  const names: [string, string][] = config.organization
    ? organizationLanguages(config.organization).map(([lang, n]) => [lang, n.displayName])
    : [["en", config.spEntityId]];
  for (const [lang, text] of names) {
    const name = doc.createElementNS(MD, "ServiceName");
    name.setAttributeNS(XML_NS, "xml:lang", lang);
    name.appendChild(doc.createTextNode(text));
    service.appendChild(name);
  }
  for (const [attribute, isRequired] of requestedSamlAttributes(config)) {
    const requested = doc.createElementNS(MD, "RequestedAttribute");
    requested.setAttribute("Name", attribute);
    requested.setAttribute("NameFormat", /^[a-z][a-z0-9+.-]*:/i.test(attribute) ? URI_FORMAT : BASIC_FORMAT);
    if (attribute.startsWith(EIDAS_ATTRIBUTE))
      requested.setAttribute("FriendlyName", attribute.slice(EIDAS_ATTRIBUTE.length));
    if (isRequired !== undefined) requested.setAttribute("isRequired", String(isRequired));
    service.appendChild(requested);
  }
  // before the closing indentation, if any
  const last = sp.lastChild;
  const indented = last?.nodeType === 3 && !last.nodeValue?.trim();
  sp.insertBefore(service, indented ? last : null);
  if (indented) sp.insertBefore(doc.createTextNode("\n    "), service);
  return new XMLSerializer().serializeToString(doc);
}

const DSIG = "http://www.w3.org/2000/09/xmldsig#";
const ENTITY_DESCRIPTOR = `/*[local-name(.)='EntityDescriptor' and namespace-uri(.)='${MD}']`;

/**
 * Signs the finished SP metadata with the SP signing key: an enveloped XML signature
 * (RSA-SHA256, SHA-256 digest, exclusive c14n) over the EntityDescriptor by its ID (one is added
 * when missing), as its first child (where the metadata schema puts ds:Signature), its KeyInfo
 * the signing certificate.
 */
export function signSamlMetadata(xml: string, keyPair: TSamlUpstreamConfig["spSigningKeyPair"]): string {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const entity = doc.documentElement;
  if (!entity || entity.namespaceURI !== MD || entity.localName !== "EntityDescriptor")
    throw new TypeError("the SP metadata is not an EntityDescriptor");
  if (!entity.getAttribute("ID")) {
    entity.setAttribute("ID", newSamlRequestId());
    xml = new XMLSerializer().serializeToString(doc);
  }
  const signer = new SignedXml({
    privateKey: keyPair.privateKey,
    publicCert: keyPair.certificate,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: ENTITY_DESCRIPTOR,
    transforms: [
      "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
      "http://www.w3.org/2001/10/xml-exc-c14n#",
    ],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  signer.computeSignature(xml, {
    prefix: "ds",
    existingPrefixes: { ds: DSIG },
    location: { reference: ENTITY_DESCRIPTOR, action: "prepend" },
  });
  return signer.getSignedXml();
}

/**
 * The SP metadata an operator hands to the IdP (one document per connection): Organization and
 * ContactPerson when set, the AttributeConsumingService when attributeConsumingServiceIndex is,
 * and, unless signMetadata is off, signed with the SP signing key (signSamlMetadata) once every
 * element is in place: the signature covers the final document.
 */
export function samlServiceProviderMetadata(config: TSamlUpstreamConfig, urls: { acsUrl: string }): string {
  const generated = generateServiceProviderMetadata({
    issuer: config.spEntityId,
    callbackUrl: urls.acsUrl,
    identifierFormat: null,
    wantAssertionsSigned: config.wantAssertionsSigned,
    privateKey: config.spSigningKeyPair.privateKey,
    publicCerts: config.spSigningKeyPair.certificate,
    decryptionPvk: config.spEncryptionKeyPair?.privateKey,
    decryptionCert: config.spEncryptionKeyPair?.certificate,
    signatureAlgorithm: "sha256",
    metadataOrganization: metadataOrganization(config.organization),
    metadataContactPerson: metadataContactPerson(config.contactPerson),
  });
  const xml =
    config.attributeConsumingServiceIndex === undefined
      ? generated
      : withAttributeConsumingService(generated, config, config.attributeConsumingServiceIndex);
  return config.signMetadata === false ? xml : signSamlMetadata(xml, config.spSigningKeyPair);
}

/** A fresh AuthnRequest ID (an XML ID: it starts with a letter or an underscore). */
export function newSamlRequestId(): string {
  return `_${randomBytes(20).toString("hex")}`;
}

/**
 * Starts a sign-in: the IdP URL with the signed AuthnRequest, and what the session keeps.
 * `requestId` (default a fresh one) lets a caller bind the RelayState to the request first.
 */
export async function beginSamlAuthentication(
  config: TSamlUpstreamConfig,
  {
    acsUrl,
    relayState,
    requestId = newSamlRequestId(),
  }: { acsUrl: string; relayState: string; requestId?: string },
): Promise<{ url: string; saved: TSamlSavedState }> {
  const url = await samlFor(config, acsUrl, undefined, requestId).getAuthorizeUrlAsync(
    relayState,
    undefined,
    {},
  );
  return { url, saved: { requestId, acsUrl, relayState, issuedAt: new Date().toISOString() } };
}

function refused(reason: TSamlRefusal, message: string): TSamlOutcome {
  return { kind: "failure", reason, message: message.slice(0, 300) };
}

/** node-saml's refusals by their messages (it has no error codes). */
function refusalOf(error: unknown): TSamlOutcome {
  if (error instanceof SamlStatusError) return refused("idp_refused", error.message);
  if (!(error instanceof Error)) return refused("invalid_response", "unreadable response");
  const message = error.message;
  const rules: [RegExp, TSamlRefusal][] = [
    [/multiple assertions/i, "signature_wrapping"],
    [/signature/i, "bad_signature"],
    [/InResponseTo/i, "wrong_in_response_to"],
    [/not yet valid/i, "not_yet_valid"],
    [/expired|no valid subject confirmation/i, "expired"],
    [/audience/i, "wrong_audience"],
  ];
  for (const [pattern, reason] of rules) if (pattern.test(message)) return refused(reason, message);
  return refused("invalid_response", message);
}

/**
 * Finishes a sign-in from the POST to the ACS URL: checks the response and returns the mapped
 * identity or the refusal.
 */
export async function completeSamlAuthentication(
  config: TSamlUpstreamConfig,
  saved: TSamlSavedState,
  form: { SAMLResponse?: string; RelayState?: string },
  replayCache: TSamlReplayCache,
): Promise<TSamlOutcome> {
  if (!form.SAMLResponse) return refused("invalid_response", "SAMLResponse missing");
  if ((form.RelayState ?? "") !== saved.relayState) return refused("wrong_relay_state", "RelayState differs");
  const idp = idpOf(config);
  const envelope = responseEnvelope(form.SAMLResponse);
  if (typeof envelope === "string") return refused("invalid_response", envelope);
  // node-saml reads an assertion whatever the status says: a refusal with an assertion is one
  if (envelope.status !== SUCCESS) return refused("idp_refused", `status ${envelope.status || "missing"}`);
  if (envelope.destination !== null && envelope.destination !== saved.acsUrl)
    return refused("wrong_destination", `Destination ${envelope.destination}`);
  // an assertion inside another element, or two of them: the shapes of signature wrapping
  if (envelope.nestedAssertions > 0 || envelope.plainAssertions > 1)
    return refused("signature_wrapping", "the response holds more than one assertion");
  if (config.wantAssertionsSigned && envelope.plainAssertions === 1 && !envelope.assertionSigned)
    return refused("unsigned_assertion", "the assertion is not signed");

  let assertionXml: string;
  try {
    const { profile } = await samlFor(config, saved.acsUrl, saved).validatePostResponseAsync({
      SAMLResponse: form.SAMLResponse,
    });
    if (!profile?.getAssertionXml) return refused("invalid_response", "no assertion");
    assertionXml = profile.getAssertionXml();
  } catch (error) {
    return refusalOf(error);
  }

  const mapped = mapSamlAssertion(config, assertionXml);
  if (!mapped) return refused("invalid_response", "the signed element is not an assertion");
  if (mapped.issuer !== idp.entityId) return refused("wrong_issuer", `Issuer ${mapped.issuer}`);
  const toUs = mapped.confirmations.filter((c) => c.recipient === saved.acsUrl);
  if (!toUs.length) return refused("wrong_recipient", "no bearer confirmation for our ACS URL");
  if (!toUs.some((c) => c.inResponseTo === saved.requestId))
    return refused("wrong_in_response_to", "the assertion answers another request");
  if (!mapped.assertionId) return refused("invalid_response", "the assertion has no ID");
  if (!mapped.identity) return refused("missing_subject", "no subject identifier in the assertion");
  const expiresAt = new Date((mapped.notOnOrAfter ?? Date.now() + REQUEST_LIFETIME_MS) + CLOCK_SKEW_MS);
  if (!(await replayCache.remember(idp.entityId, mapped.assertionId, expiresAt)))
    return refused("replayed_assertion", "the assertion was already used");
  return { kind: "success", identity: mapped.identity };
}
