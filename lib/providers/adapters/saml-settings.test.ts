import { readFileSync } from "node:fs";
import path from "node:path";
import { DOMParser } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { inflateRawSync } from "node:zlib";
import { beginSamlAuthentication, samlServiceProviderMetadata } from "./saml";
import {
  DEFAULT_ATTRIBUTE_MAPPING,
  DEFAULT_LOA_MAPPING,
  parseIdpMetadata,
  ZSamlUpstreamConfig,
} from "./saml-settings";

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, "../../testing/fixtures/saml", name), "utf8");
const base64Of = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, "");

const IDP_CERT = fixture("idp-cert.pem");
const OTHER_CERT = fixture("other-cert.pem");
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

function keyDescriptor(cert: string, use?: string): string {
  return (
    `<md:KeyDescriptor${use ? ` use="${use}"` : ""}><ds:KeyInfo><ds:X509Data>` +
    `<ds:X509Certificate>${base64Of(cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`
  );
}

function metadata({
  entityId = "https://eidas-node.example.test/metadata",
  keys = keyDescriptor(IDP_CERT, "signing") + keyDescriptor(OTHER_CERT, "encryption"),
  sso = `<md:SingleSignOnService Binding="${POST}" Location="https://eidas-node.example.test/post"/>` +
    `<md:SingleSignOnService Binding="${REDIRECT}" Location="https://eidas-node.example.test/redirect"/>`,
} = {}): string {
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}${sso}</md:IDPSSODescriptor>` +
    `</md:EntityDescriptor>`
  );
}

const valid = {
  metadataXml: metadata(),
  spEntityId: "https://broker.example.test/saml/prv_eidas",
  spSigningKeyPair: {
    privateKey: fixture("sp-signing-key.pem"),
    certificate: fixture("sp-signing-cert.pem"),
  },
};

function issuePaths(input: unknown): string[] {
  const parsed = ZSamlUpstreamConfig.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
}

describe("parseIdpMetadata", () => {
  it("reads the entityID, the HTTP-Redirect SSO endpoint and the signing certificates only", () => {
    const parsed = parseIdpMetadata(
      metadata({ keys: keyDescriptor(IDP_CERT) + keyDescriptor(OTHER_CERT, "encryption") }),
    );
    expect(parsed).toEqual({
      entityId: "https://eidas-node.example.test/metadata",
      ssoRedirectUrl: "https://eidas-node.example.test/redirect",
      signingCertificates: [expect.stringContaining(base64Of(IDP_CERT).slice(0, 64))],
    });
  });

  it("reads the one identity provider of an EntitiesDescriptor", () => {
    const doc = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${metadata()}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(doc)).toMatchObject({ entityId: "https://eidas-node.example.test/metadata" });
  });

  it("names what is missing or wrong", () => {
    expect(parseIdpMetadata("<md:EntityDescriptor")).toBe("is not well-formed XML");
    expect(parseIdpMetadata(`<!DOCTYPE x [<!ENTITY a "b">]>${metadata()}`)).toBe(
      "must not contain a DOCTYPE",
    );
    expect(parseIdpMetadata("<EntityDescriptor/>")).toBe("must be SAML 2.0 metadata (an EntityDescriptor)");
    expect(parseIdpMetadata(metadata({ entityId: "" }))).toBe("has no entityID");
    expect(
      parseIdpMetadata(
        metadata({ sso: `<md:SingleSignOnService Binding="${POST}" Location="https://x.test/post"/>` }),
      ),
    ).toBe("has no SingleSignOnService of the HTTP-Redirect binding");
    expect(parseIdpMetadata(metadata({ keys: keyDescriptor(OTHER_CERT, "encryption") }))).toBe(
      "has no signing certificate",
    );
    expect(
      parseIdpMetadata(
        metadata({ keys: keyDescriptor("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----") }),
      ),
    ).toBe("has a signing certificate that is not a valid X.509 certificate");
  });
});

describe("ZSamlUpstreamConfig", () => {
  it("accepts a configuration and fills in the eIDAS natural-person defaults", () => {
    const parsed = ZSamlUpstreamConfig.parse(valid);
    expect(parsed.attributeMapping).toEqual(DEFAULT_ATTRIBUTE_MAPPING);
    expect(parsed.attributeMapping["http://eidas.europa.eu/attributes/naturalperson/PersonIdentifier"]).toBe(
      "sub",
    );
    expect(parsed.loaMapping).toEqual({
      "http://eidas.europa.eu/LoA/low": 1,
      "http://eidas.europa.eu/LoA/substantial": 2,
      "http://eidas.europa.eu/LoA/high": 3,
    });
    expect(DEFAULT_LOA_MAPPING).toEqual(parsed.loaMapping);
    expect(parsed.wantAssertionsSigned).toBe(true);
    expect(issuePaths({ ...valid, requestedLoa: "http://eidas.europa.eu/LoA/high" })).toEqual([]);
  });

  it("names the field it refuses", () => {
    expect(issuePaths({ ...valid, metadataXml: metadata({ keys: "" }) })).toEqual(["metadataXml"]);
    expect(
      issuePaths({ ...valid, spSigningKeyPair: { ...valid.spSigningKeyPair, privateKey: "x" } }),
    ).toEqual(["spSigningKeyPair.privateKey"]);
    expect(
      issuePaths({ ...valid, spSigningKeyPair: { ...valid.spSigningKeyPair, certificate: "x" } }),
    ).toEqual(["spSigningKeyPair.certificate"]);
    expect(
      issuePaths({ ...valid, spEncryptionKeyPair: { privateKey: fixture("sp-encryption-key.pem") } }),
    ).toEqual(["spEncryptionKeyPair.certificate"]);
    expect(issuePaths({ ...valid, attributeMapping: { "urn:oid:2.5.4.4": "surname" } })).toEqual([
      "attributeMapping.urn:oid:2.5.4.4",
    ]);
    expect(issuePaths({ ...valid, loaMapping: { "urn:level:4": 4 } })).toEqual(["loaMapping.urn:level:4"]);
    expect(issuePaths({ ...valid, requestedLoa: "urn:level:unknown" })).toEqual(["requestedLoa"]);
    expect(issuePaths({ ...valid, spEntityId: "" })).toEqual(["spEntityId"]);
    expect(issuePaths({ ...valid, issuer: "https://x.test" })).toEqual([""]);
  });

  it("refuses plain http endpoints unless insecure requests are allowed", () => {
    const httpSso = metadata({
      sso: `<md:SingleSignOnService Binding="${REDIRECT}" Location="http://127.0.0.1:4000/sso"/>`,
    });
    expect(issuePaths({ ...valid, metadataXml: httpSso })).toEqual(["metadataXml"]);
    expect(issuePaths({ ...valid, metadataXml: httpSso, allowInsecureRequests: true })).toEqual([]);
    expect(issuePaths({ ...valid, metadataUrl: "http://127.0.0.1:4000/md" })).toEqual(["metadataUrl"]);
  });
});

describe("samlServiceProviderMetadata", () => {
  it("describes the SP: entityID, HTTP-POST ACS, signed requests, signing and encryption certificates", () => {
    const config = ZSamlUpstreamConfig.parse({
      ...valid,
      spEncryptionKeyPair: {
        privateKey: fixture("sp-encryption-key.pem"),
        certificate: fixture("sp-encryption-cert.pem"),
      },
    });
    const xml = samlServiceProviderMetadata(config, { acsUrl: "https://broker.example.test/acs" });
    expect(xml).toContain(`entityID="${valid.spEntityId}"`);
    expect(xml).toContain('AuthnRequestsSigned="true"');
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toMatch(new RegExp(`Binding="${POST}" Location="https://broker.example.test/acs"`));
    const compact = xml.replace(/\s/g, "");
    expect(compact).toContain(base64Of(fixture("sp-signing-cert.pem")));
    expect(compact).toContain(base64Of(fixture("sp-encryption-cert.pem")));
    expect(xml).toMatch(/KeyDescriptor use="signing"[^]*KeyDescriptor use="encryption"/);
  });
});

describe("what SPID and CIE ask of the request and the metadata", () => {
  const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
  const SPID = { fiscalNumber: "sub", name: "given_name", familyName: "family_name" };
  const ORGANIZATION = {
    it: { name: "Comune di Prova", displayName: "Comune", url: "https://comune.example.it" },
    en: { name: "Test Town", displayName: "Town", url: "https://comune.example.it/en" },
  };

  it("checks forceAuthn, attributeConsumingServiceIndex, organization and contactPerson, naming the field", () => {
    expect(
      issuePaths({
        ...valid,
        forceAuthn: true,
        attributeConsumingServiceIndex: 0,
        organization: ORGANIZATION,
        contactPerson: { type: "other", email: "spid@comune.example.it" },
      }),
    ).toEqual([]);
    expect(
      issuePaths({
        ...valid,
        organization: { name: "A", displayName: "A", url: "https://a.example", lang: "it" },
        contactPerson: [{ type: "billing", company: "A", email: "b@a.example", telephone: "+39 06 123" }],
      }),
    ).toEqual([]);
    expect(issuePaths({ ...valid, forceAuthn: "yes" })).toEqual(["forceAuthn"]);
    expect(issuePaths({ ...valid, attributeConsumingServiceIndex: -1 })).toEqual([
      "attributeConsumingServiceIndex",
    ]);
    expect(issuePaths({ ...valid, attributeConsumingServiceIndex: 1.5 })).toEqual([
      "attributeConsumingServiceIndex",
    ]);
    expect(issuePaths({ ...valid, organization: { name: "A", displayName: "A", url: "ftp://a" } })).toEqual([
      "organization.url",
    ]);
    expect(issuePaths({ ...valid, organization: { it: { name: "A" } } })).toEqual(["organization"]);
    expect(issuePaths({ ...valid, organization: {} })).toEqual(["organization"]);
    expect(issuePaths({ ...valid, contactPerson: { type: "boss", email: "a@b.example" } })).toEqual([
      "contactPerson",
    ]);
    expect(issuePaths({ ...valid, contactPerson: [{ type: "other", email: "not an address" }] })).toEqual([
      "contactPerson.0.email",
    ]);
  });

  it("writes Organization in every language and an AttributeConsumingService of the mapped names only when the index is set", () => {
    const config = ZSamlUpstreamConfig.parse({
      ...valid,
      attributeMapping: SPID,
      organization: ORGANIZATION,
    });
    const without = samlServiceProviderMetadata(config, { acsUrl: "https://broker.example.test/acs" });
    expect(without).not.toContain("AttributeConsumingService");
    expect(without).not.toContain("ContactPerson");
    const xml = samlServiceProviderMetadata(
      { ...config, attributeConsumingServiceIndex: 0 },
      { acsUrl: "https://broker.example.test/acs" },
    );
    const doc = new DOMParser().parseFromString(xml, "text/xml");
    const texts = (name: string) =>
      Array.from(doc.getElementsByTagNameNS(MD, name)).map((e) => [
        e.getAttribute("xml:lang"),
        e.textContent,
      ]);
    expect(texts("OrganizationName")).toEqual([
      ["it", "Comune di Prova"],
      ["en", "Test Town"],
    ]);
    expect(texts("ServiceName")).toEqual([
      ["it", "Comune"],
      ["en", "Town"],
    ]);
    const service = doc.getElementsByTagNameNS(MD, "AttributeConsumingService")[0]!;
    expect(service.getAttribute("index")).toBe("0");
    expect(
      Array.from(service.getElementsByTagNameNS(MD, "RequestedAttribute")).map((e) => [
        e.getAttribute("Name"),
        e.getAttribute("NameFormat"),
        e.hasAttribute("isRequired"),
      ]),
    ).toEqual(
      Object.keys(SPID).map((name) => [name, "urn:oasis:names:tc:SAML:2.0:attrname-format:basic", false]),
    );
  });

  it("puts ForceAuthn and AttributeConsumingServiceIndex in the AuthnRequest only when set", async () => {
    const requestOf = async (extra: Record<string, unknown>) => {
      const { url } = await beginSamlAuthentication(ZSamlUpstreamConfig.parse({ ...valid, ...extra }), {
        acsUrl: "https://broker.example.test/acs",
        relayState: "r",
      });
      const deflated = Buffer.from(new URL(url).searchParams.get("SAMLRequest")!, "base64");
      return new DOMParser().parseFromString(inflateRawSync(deflated).toString("utf8"), "text/xml")
        .documentElement!;
    };
    const plain = await requestOf({});
    expect(plain.hasAttribute("ForceAuthn")).toBe(false);
    expect(plain.hasAttribute("AttributeConsumingServiceIndex")).toBe(false);
    const spid = await requestOf({ forceAuthn: true, attributeConsumingServiceIndex: 0 });
    expect(spid.getAttribute("ForceAuthn")).toBe("true");
    expect(spid.getAttribute("AttributeConsumingServiceIndex")).toBe("0");
  });
});
