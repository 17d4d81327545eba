/**
 * A SAML 2.0 identity provider for tests, built on samlify (a different library from the
 * adapter's node-saml): it verifies the adapter's signed HTTP-Redirect AuthnRequest against the
 * SP metadata the adapter serves, and answers with real signed (and, when asked, encrypted)
 * responses of the eIDAS natural-person profile. Fixed test keys: lib/testing/fixtures/saml.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as validator from "@authenio/samlify-node-xmllint";
import * as samlify from "samlify";

samlify.setSchemaValidator(validator);

const FIXTURES = path.join(import.meta.dirname, "fixtures", "saml");
export const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), "utf8");

const EIDAS = "http://eidas.europa.eu/attributes/naturalperson/";
const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";

export interface TSamlPerson {
  personIdentifier: string;
  familyName: string;
  firstName: string;
  dateOfBirth: string;
}

export interface TSamlAnswer {
  person: TSamlPerson;
  /** AuthnContextClassRef */
  loa: string;
  /** the assertion encrypted for the SP's encryption certificate */
  encrypt?: boolean;
  /** the response signed too (samlify signs the assertion, as the SP metadata asks) */
  signResponse?: boolean;
  /** template values to replace (Audience, SubjectRecipient, InResponseTo, ConditionsNotOnOrAfter …) */
  overrides?: Record<string, string>;
  /** the IdP's signing key for this answer (another key: a bad signature) */
  privateKey?: string;
}

export interface TSamlIdp {
  entityId: string;
  metadataXml: string;
  /** Checks the AuthnRequest of `redirectUrl` and answers it: the form the browser would post. */
  answer(redirectUrl: string, answer: TSamlAnswer): Promise<{ SAMLResponse: string; RelayState: string }>;
  /** The parsed AuthnRequest of a redirect URL (its signature checked). */
  readRequest(redirectUrl: string): Promise<{ id: string; xml: string }>;
}

function attribute(name: string, value: string, type = "xs:string"): string {
  return (
    `<saml:Attribute Name="${EIDAS}${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">` +
    `<saml:AttributeValue xsi:type="${type}">${value}</saml:AttributeValue></saml:Attribute>`
  );
}

/** The query as samlify wants it: the parameters and the exact signed octet string. */
function redirectRequest(redirectUrl: string) {
  const url = new URL(redirectUrl);
  const raw = new Map(
    url.search
      .slice(1)
      .split("&")
      .map((pair) => pair.split("=") as [string, string]),
  );
  const octetString = ["SAMLRequest", "RelayState", "SigAlg"]
    .filter((key) => raw.has(key))
    .map((key) => `${key}=${raw.get(key)}`)
    .join("&");
  return { query: Object.fromEntries(url.searchParams), octetString };
}

export function startSamlIdp(
  spMetadataXml: string,
  entityId = "https://idp.example-eid.test/metadata",
  { ssoUrl = "https://idp.example-eid.test/sso" }: { ssoUrl?: string } = {},
): TSamlIdp {
  const settings = {
    entityID: entityId,
    privateKey: fixture("idp-key.pem"),
    signingCert: fixture("idp-cert.pem"),
    wantAuthnRequestsSigned: true,
    nameIDFormat: [PERSISTENT],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoUrl }],
  };
  const idp = samlify.IdentityProvider(settings);

  async function readRequest(redirectUrl: string) {
    const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
    const parsed = await idp.parseLoginRequest(sp, "redirect", redirectRequest(redirectUrl));
    return { id: String(parsed.extract.request?.id), xml: parsed.samlContent };
  }

  return {
    entityId,
    metadataXml: idp.getMetadata(),
    readRequest,
    async answer(redirectUrl, answer) {
      const sp = samlify.ServiceProvider({ metadata: spMetadataXml, wantMessageSigned: answer.signResponse });
      const signer = samlify.IdentityProvider({
        ...settings,
        privateKey: answer.privateKey ?? settings.privateKey,
        isAssertionEncrypted: answer.encrypt === true,
      });
      const request = await idp.parseLoginRequest(sp, "redirect", redirectRequest(redirectUrl));
      const requestId = String(request.extract.request?.id);
      const acs = sp.entityMeta.getAssertionConsumerService("post") as string;
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const { person } = answer;
      const values: Record<string, string> = {
        ID: `_r${crypto.randomUUID()}`,
        AssertionID: `_a${crypto.randomUUID()}`,
        Destination: acs,
        Audience: sp.entityMeta.getEntityID(),
        SubjectRecipient: acs,
        Issuer: entityId,
        IssueInstant: now.toISOString(),
        StatusCode: samlify.Constants.StatusCode.Success,
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: later,
        SubjectConfirmationDataNotOnOrAfter: later,
        NameIDFormat: PERSISTENT,
        NameID: person.personIdentifier,
        InResponseTo: requestId,
        AuthnStatement:
          `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext>` +
          `<saml:AuthnContextClassRef>${answer.loa}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
        AttributeStatement:
          "<saml:AttributeStatement>" +
          attribute("PersonIdentifier", person.personIdentifier) +
          attribute("FamilyName", person.familyName) +
          attribute("FirstName", person.firstName) +
          attribute("DateOfBirth", person.dateOfBirth, "xs:date") +
          "</saml:AttributeStatement>",
        ...answer.overrides,
      };
      const { context } = (await signer.createLoginResponse(
        sp,
        { ...request },
        "post",
        {},
        {
          relayState: String(request.extract.relayState ?? ""),
          customTagReplacement: (template: string) => ({
            id: values.ID!,
            context: template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match),
          }),
        },
      )) as { context: string };
      return { SAMLResponse: context, RelayState: new URL(redirectUrl).searchParams.get("RelayState") ?? "" };
    },
  };
}

/**
 * The settings of a `saml` connection (PUT /v1/operator/connections/{providerId}) to an IdP of
 * these metadata, with the fixed SP keys (signing and encryption).
 */
export function samlConnectionSettings(
  metadataXml: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    metadataXml,
    spEntityId: "https://broker.example.test/saml/sp",
    spSigningCertificate: fixture("sp-signing-cert.pem"),
    spSigningPrivateKey: fixture("sp-signing-key.pem"),
    spEncryptionCertificate: fixture("sp-encryption-cert.pem"),
    spEncryptionPrivateKey: fixture("sp-encryption-key.pem"),
    ...extra,
  };
}
