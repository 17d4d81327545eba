/**
 * Reading SAML XML for the adapter (lib/providers/adapters/saml.ts): the envelope of a posted
 * response (read before its signature is checked, only to refuse early: never a source of
 * identity), and the identity in a signed assertion.
 * Rules:
 * - a document with a DOCTYPE is refused (no entity expansion of any kind);
 * - the identity is read from the assertion XML that node-saml verified (or decrypted and
 *   verified), nothing else: attributes renamed by attributeMapping, "sub" the upstream subject
 *   (else a persistent NameID), the LoA from AuthnContextClassRef through loaMapping;
 * - all values of the assertion's bearer subject confirmations are returned for the caller's
 *   Recipient and InResponseTo checks.
 */
import { DOMParser } from "@xmldom/xmldom";

type XmlElement = Element;
import type { TSourceIdentity } from "./types";
import { mapSamlAttributes } from "../claim-mapping";
import type { TSamlUpstreamConfig } from "./saml-settings";

const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
const MAX_RESPONSE = 256 * 1024;

function parse(xml: string): XmlElement | null {
  if (/<!DOCTYPE/i.test(xml)) return null;
  let failed = false;
  const doc = new DOMParser({
    errorHandler: { warning: () => {}, error: () => (failed = true), fatalError: () => (failed = true) },
  }).parseFromString(xml, "text/xml");
  return failed ? null : doc.documentElement;
}

function children(parent: XmlElement, ns: string, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as XmlElement;
    if (element.namespaceURI === ns && element.localName === name) out.push(element);
  }
  return out;
}

const first = (parent: XmlElement | undefined, ns: string, name: string): XmlElement | undefined =>
  parent ? children(parent, ns, name)[0] : undefined;

const text = (element: XmlElement | undefined): string => (element?.textContent ?? "").trim();

/** What is checked of a posted response before (and besides) its signature. */
export interface TResponseEnvelope {
  destination: string | null;
  /** the top-level StatusCode Value ("" when there is none) */
  status: string;
  /** plain (not encrypted) assertions directly in the response */
  plainAssertions: number;
  /** the one plain assertion carries its own ds:Signature */
  assertionSigned: boolean;
  /** assertions anywhere else in the document (inside other elements: signature wrapping) */
  nestedAssertions: number;
}

export function responseEnvelope(base64: string): TResponseEnvelope | string {
  if (base64.length > (MAX_RESPONSE * 4) / 3 + 4) return "SAMLResponse is too large";
  if (!/^[A-Za-z0-9+/=\s]+$/.test(base64)) return "SAMLResponse is not base64";
  const root = parse(Buffer.from(base64, "base64").toString("utf8"));
  if (!root || root.namespaceURI !== PROTOCOL || root.localName !== "Response")
    return "SAMLResponse is not a SAML 2.0 Response";
  const assertions = children(root, ASSERTION, "Assertion");
  return {
    destination: root.getAttribute("Destination") || null,
    status: first(first(root, PROTOCOL, "Status"), PROTOCOL, "StatusCode")?.getAttribute("Value") ?? "",
    plainAssertions: assertions.length,
    assertionSigned: assertions.length === 1 && children(assertions[0]!, DS, "Signature").length === 1,
    nestedAssertions: root.getElementsByTagNameNS(ASSERTION, "Assertion").length - assertions.length,
  };
}

/** What the adapter checks and keeps of a verified assertion. */
export interface TMappedAssertion {
  assertionId: string;
  issuer: string;
  confirmations: { recipient: string; inResponseTo: string }[];
  /** the latest NotOnOrAfter of the assertion (ms), for the replay cache */
  notOnOrAfter: number | null;
  /** null without a subject identifier */
  identity: TSourceIdentity | null;
}

function latest(values: string[]): number | null {
  const times = values.map((v) => Date.parse(v)).filter((t) => Number.isFinite(t));
  return times.length ? Math.max(...times) : null;
}

/** The identity and the checked fields of the assertion XML node-saml verified. */
export function mapSamlAssertion(config: TSamlUpstreamConfig, assertionXml: string): TMappedAssertion | null {
  const assertion = parse(assertionXml);
  if (!assertion || assertion.namespaceURI !== ASSERTION || assertion.localName !== "Assertion") return null;
  const subject = first(assertion, ASSERTION, "Subject");
  const confirmations = (subject ? children(subject, ASSERTION, "SubjectConfirmation") : [])
    .filter((c) => c.getAttribute("Method") === BEARER)
    .map((c) => first(c, ASSERTION, "SubjectConfirmationData"))
    .filter((d): d is XmlElement => d !== undefined);
  const conditions = first(assertion, ASSERTION, "Conditions");
  const notOnOrAfter = latest(
    [conditions, ...confirmations].map((e) => e?.getAttribute("NotOnOrAfter") ?? "").filter(Boolean),
  );

  const rawClaims: Record<string, unknown> = {};
  for (const statement of children(assertion, ASSERTION, "AttributeStatement"))
    for (const attribute of children(statement, ASSERTION, "Attribute")) {
      const values = children(attribute, ASSERTION, "AttributeValue").map(text);
      if (values.length)
        rawClaims[attribute.getAttribute("Name") ?? ""] = values.length === 1 ? values[0] : values;
    }
  // one function with the back-office's preview (lib/providers/claim-mapping.ts)
  const mapped = mapSamlAttributes(rawClaims, config.attributeMapping);
  const claims = mapped.claims;
  let upstreamSubject = mapped.subject;
  const nameId = first(subject, ASSERTION, "NameID");
  if (!upstreamSubject && nameId && nameId.getAttribute("Format") !== TRANSIENT)
    upstreamSubject = text(nameId);

  const classRef = text(
    first(
      first(first(assertion, ASSERTION, "AuthnStatement"), ASSERTION, "AuthnContext"),
      ASSERTION,
      "AuthnContextClassRef",
    ),
  );
  const loa = classRef && Object.hasOwn(config.loaMapping, classRef) ? config.loaMapping[classRef]! : null;
  const assertionId = assertion.getAttribute("ID") ?? "";
  const issuer = text(first(assertion, ASSERTION, "Issuer"));
  const evidence: Record<string, string> = { issuer, assertion_id: assertionId };
  if (classRef) evidence.authn_context = classRef;

  return {
    assertionId,
    issuer,
    confirmations: confirmations.map((d) => ({
      recipient: d.getAttribute("Recipient") ?? "",
      inResponseTo: d.getAttribute("InResponseTo") ?? "",
    })),
    notOnOrAfter,
    identity: upstreamSubject ? { upstreamSubject, claims, loa, rawClaims, evidence } : null,
  };
}
