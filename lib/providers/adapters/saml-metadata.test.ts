/**
 * Our SP metadata signed with the SP signing key (signMetadata, default true): an enveloped
 * RSA-SHA256 / SHA-256 signature over the EntityDescriptor by its ID, first child of the
 * EntityDescriptor, the signing certificate in its KeyInfo, over the final document (the
 * AttributeConsumingService added after node-saml included). Checked with xml-crypto.
 */
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { describe, expect, it } from "vitest";
import { fixture, startSamlIdp } from "../../testing/saml-idp";
import { samlServiceProviderMetadata, signSamlMetadata } from "./saml";
import { ZSamlUpstreamConfig, type TSamlUpstreamInput } from "./saml-settings";

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DSIG = "http://www.w3.org/2000/09/xmldsig#";
const ACS = "https://broker.example.test/verify/saml/production/it_spid/acs";
const SP_CERT = fixture("sp-signing-cert.pem");
const keyPair = { privateKey: fixture("sp-signing-key.pem"), certificate: SP_CERT };

function configOf(extra: Partial<TSamlUpstreamInput> = {}) {
  return ZSamlUpstreamConfig.parse({
    metadataXml: startSamlIdp("").metadataXml,
    spEntityId: "https://broker.example.test/saml/sp",
    spSigningKeyPair: keyPair,
    spEncryptionKeyPair: {
      privateKey: fixture("sp-encryption-key.pem"),
      certificate: fixture("sp-encryption-cert.pem"),
    },
    attributeConsumingServiceIndex: 1,
    organization: { name: "Comune", displayName: "Comune di Prova", url: "https://comune.example.it" },
    contactPerson: { type: "technical", email: "tech@broker.example.test" },
    ...extra,
  });
}

function parse(xml: string) {
  return new DOMParser().parseFromString(xml, "text/xml");
}

function signaturesOf(xml: string): Element[] {
  return Array.from(parse(xml).getElementsByTagNameNS(DSIG, "Signature"));
}

/** Whether the document's one signature verifies against `certificate` (xml-crypto). */
function verifies(xml: string, certificate: string): boolean {
  const [signature] = signaturesOf(xml);
  if (!signature) return false;
  const verifier = new SignedXml({ publicCert: certificate });
  verifier.loadSignature(signature);
  try {
    return verifier.checkSignature(xml);
  } catch {
    return false;
  }
}

function bodyOf(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----|\s+/g, "");
}

describe("signed SP metadata", () => {
  it("is signed by default over the final EntityDescriptor, and verifies against the SP certificate", () => {
    const config = configOf();
    expect(config.signMetadata).toBe(true);
    const xml = samlServiceProviderMetadata(config, { acsUrl: ACS });
    expect(verifies(xml, SP_CERT)).toBe(true);
    // not against another certificate
    expect(verifies(xml, fixture("other-cert.pem"))).toBe(false);

    const entity = parse(xml).documentElement!;
    const id = entity.getAttribute("ID");
    expect(id).toMatch(/^[_A-Za-z][\w.-]*$/);
    // ds:Signature is the EntityDescriptor's first child, as the metadata schema orders
    const elements = Array.from(entity.childNodes).filter((n) => n.nodeType === 1) as Element[];
    expect(elements.map((e) => [e.namespaceURI, e.localName])).toEqual([
      [DSIG, "Signature"],
      [MD, "SPSSODescriptor"],
      [MD, "Organization"],
      [MD, "ContactPerson"],
    ]);
    const signature = elements[0]!;
    const attributeOf = (name: string, attribute: string) =>
      signature.getElementsByTagNameNS(DSIG, name)[0]?.getAttribute(attribute);
    expect(attributeOf("Reference", "URI")).toBe(`#${id}`);
    expect(attributeOf("SignatureMethod", "Algorithm")).toBe(
      "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    );
    expect(attributeOf("DigestMethod", "Algorithm")).toBe("http://www.w3.org/2001/04/xmlenc#sha256");
    expect(
      Array.from(signature.getElementsByTagNameNS(DSIG, "Transform")).map((t) => t.getAttribute("Algorithm")),
    ).toEqual([
      "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
      "http://www.w3.org/2001/10/xml-exc-c14n#",
    ]);
    // the KeyInfo carries the signing certificate
    const keyInfo = signature.getElementsByTagNameNS(DSIG, "KeyInfo")[0]!;
    expect(keyInfo.parentNode).toBe(signature);
    expect(bodyOf(keyInfo.getElementsByTagNameNS(DSIG, "X509Certificate")[0]!.textContent ?? "")).toBe(
      bodyOf(SP_CERT),
    );
    // the AttributeConsumingService is inside what was signed
    expect(xml.indexOf("AttributeConsumingService")).toBeGreaterThan(xml.indexOf("SignatureValue"));
  });

  it("does not verify once tampered with: an attribute changed, an element removed", () => {
    const xml = samlServiceProviderMetadata(configOf(), { acsUrl: ACS });
    expect(verifies(xml, SP_CERT)).toBe(true);
    expect(verifies(xml.replace(ACS, "https://attacker.example.test/acs"), SP_CERT)).toBe(false);
    const doc = parse(xml);
    const service = doc.getElementsByTagNameNS(MD, "AttributeConsumingService")[0]!;
    service.parentNode!.removeChild(service);
    expect(verifies(new XMLSerializer().serializeToString(doc), SP_CERT)).toBe(false);
  });

  it("is unsigned with signMetadata false", () => {
    const xml = samlServiceProviderMetadata(configOf({ signMetadata: false }), { acsUrl: ACS });
    expect(signaturesOf(xml)).toEqual([]);
    expect(xml).toContain("AttributeConsumingService");
  });

  it("gives the EntityDescriptor an ID when it has none", () => {
    const xml = signSamlMetadata(
      `<EntityDescriptor xmlns="${MD}" entityID="https://sp.example.test"><SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></EntityDescriptor>`,
      keyPair,
    );
    const id = parse(xml).documentElement!.getAttribute("ID");
    expect(id).toMatch(/^_[0-9a-f]{40}$/);
    expect(signaturesOf(xml)[0]!.getElementsByTagNameNS(DSIG, "Reference")[0]!.getAttribute("URI")).toBe(
      `#${id}`,
    );
    expect(verifies(xml, SP_CERT)).toBe(true);
  });
});
