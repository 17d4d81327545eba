/**
 * The SAML adapter (node-saml) against an identity provider built with samlify: real XML, real
 * signatures and certificates (lib/testing/fixtures/saml). Every refusal is forged from the
 * IdP's own signed answer, and each must come back as its reason code, never an exception.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { CRONTAB, jobNamed } from "../../jobs/handlers";
import { fixture, startSamlIdp, type TSamlAnswer, type TSamlIdp } from "../../testing/saml-idp";
import {
  beginSamlAuthentication,
  completeSamlAuthentication,
  samlServiceProviderMetadata,
  type TSamlOutcome,
  type TSamlSavedState,
} from "./saml";
import { postgresSamlReplayCache, purgeExpiredSamlAssertionIds, type TSamlReplayCache } from "./saml-replay";
import { ZSamlUpstreamConfig, type TSamlUpstreamConfig } from "./saml-settings";

const ACS = "https://broker.example.test/api/production/saml/acs/prv_eidas";
const SP = "https://broker.example.test/saml/prv_eidas";
const SUBSTANTIAL = "http://eidas.europa.eu/LoA/substantial";
const HIGH = "http://eidas.europa.eu/LoA/high";
const ERIKA = {
  personIdentifier: "DE/AT/02a9c8d7e6f5",
  familyName: "Mustermann",
  firstName: "Erika",
  dateOfBirth: "1964-08-12",
};

const spKeys = {
  spSigningKeyPair: {
    privateKey: fixture("sp-signing-key.pem"),
    certificate: fixture("sp-signing-cert.pem"),
  },
  spEncryptionKeyPair: {
    privateKey: fixture("sp-encryption-key.pem"),
    certificate: fixture("sp-encryption-cert.pem"),
  },
};

/** The IdP needs the SP metadata and the SP needs the IdP metadata: SP metadata first. */
function connect(): { idp: TSamlIdp; config: TSamlUpstreamConfig } {
  const bootstrap = startSamlIdp("");
  const draft = ZSamlUpstreamConfig.parse({
    metadataXml: bootstrap.metadataXml,
    spEntityId: SP,
    ...spKeys,
    requestedLoa: SUBSTANTIAL,
  });
  const idp = startSamlIdp(samlServiceProviderMetadata(draft, { acsUrl: ACS }));
  return { idp, config: draft };
}

const replay: TSamlReplayCache = postgresSamlReplayCache(kysely());

async function signIn(
  answer: Partial<TSamlAnswer> = {},
  edit?: (xml: string) => string,
): Promise<{
  outcome: TSamlOutcome;
  saved: TSamlSavedState;
  form: { SAMLResponse: string; RelayState: string };
}> {
  const { idp, config } = connect();
  const { url, saved } = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_01TEST" });
  const form = await idp.answer(url, { person: ERIKA, loa: HIGH, ...answer });
  if (edit)
    form.SAMLResponse = Buffer.from(edit(Buffer.from(form.SAMLResponse, "base64").toString("utf8"))).toString(
      "base64",
    );
  return { outcome: await completeSamlAuthentication(config, saved, form, replay), saved, form };
}

const reasonOf = (outcome: TSamlOutcome): string => (outcome.kind === "failure" ? outcome.reason : "success");

describe("SAML adapter against a samlify identity provider", () => {
  it("sends a signed HTTP-Redirect AuthnRequest with the requested LoA that the IdP accepts", async () => {
    const { idp, config } = connect();
    const { url, saved } = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_01TEST" });
    expect(url.startsWith("https://idp.example-eid.test/sso?")).toBe(true);
    const params = new URL(url).searchParams;
    expect(params.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    expect(params.get("RelayState")).toBe("ver_01TEST");
    const request = await idp.readRequest(url);
    expect(request.id).toBe(saved.requestId);
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${ACS}"`);
    expect(request.xml).toContain(`Comparison="minimum"`);
    expect(request.xml).toContain(SUBSTANTIAL);
    // a request signed with another key is refused by the IdP
    const tampered = url.replace(/Signature=[^&]+/, (s) => s.slice(0, -6) + "AAAAAA");
    await expect(idp.readRequest(tampered)).rejects.toThrow();
  });

  it("maps a signed response with a signed assertion to eIDAS claims and the LoA", async () => {
    const { outcome } = await signIn({ signResponse: true });
    expect(outcome).toEqual({
      kind: "success",
      identity: expect.objectContaining({
        upstreamSubject: ERIKA.personIdentifier,
        claims: { family_name: "Mustermann", given_name: "Erika", birthdate: "1964-08-12" },
        loa: 3,
      }),
    });
  });

  it("decrypts an encrypted assertion with the SP encryption key", async () => {
    const { outcome } = await signIn({ encrypt: true, loa: SUBSTANTIAL });
    expect(outcome.kind).toBe("success");
    if (outcome.kind !== "success") return;
    expect(outcome.identity.claims).toEqual({
      family_name: "Mustermann",
      given_name: "Erika",
      birthdate: "1964-08-12",
    });
    expect(outcome.identity.loa).toBe(2);
  });

  it("accepts a signed response around an unsigned assertion only when wantAssertionsSigned is off", async () => {
    const bootstrap = startSamlIdp("");
    const config = ZSamlUpstreamConfig.parse({
      metadataXml: bootstrap.metadataXml,
      spEntityId: SP,
      ...spKeys,
      wantAssertionsSigned: false,
    });
    const idp = startSamlIdp(samlServiceProviderMetadata(config, { acsUrl: ACS }));
    const { url, saved } = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_02" });
    const form = await idp.answer(url, { person: ERIKA, loa: SUBSTANTIAL });
    expect(Buffer.from(form.SAMLResponse, "base64").toString()).not.toMatch(
      /<saml:Assertion[^]*<ds:Signature/,
    );
    const outcome = await completeSamlAuthentication(config, saved, form, replay);
    expect(outcome.kind === "success" && outcome.identity.upstreamSubject).toBe(ERIKA.personIdentifier);
  });
});

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
const SIGNED_ASSERTION = /<saml:Assertion\b[^]*<\/saml:Assertion>/;
const ASSERTION_SIGNATURE = /(<saml:Assertion\b[^>]*>[^]*?)<ds:Signature\b[^]*?<\/ds:Signature>/;

describe("SAML adapter refusals (each a reason code, never an exception)", () => {
  it("refuses a value changed after signing, and a signature by another key", async () => {
    const changed = await signIn({}, (xml) => xml.replace(">Mustermann<", ">Musterfrau<"));
    expect(reasonOf(changed.outcome)).toBe("bad_signature");
    const otherKey = await signIn({ privateKey: fixture("other-key.pem") });
    expect(reasonOf(otherKey.outcome)).toBe("bad_signature");
  });

  it("refuses signature-wrapping variants: the signed assertion moved and an unsigned one inserted", async () => {
    const evil = (signed: string) =>
      signed
        .replace(/ID="[^"]+"/, 'ID="_evil"')
        .replace(/<ds:Signature\b[^]*?<\/ds:Signature>/, "")
        .replace(/>Mustermann</g, ">Evil<");
    // 1. the signed assertion hidden in the response's Extensions, an unsigned one in its place
    const hidden = await signIn({}, (xml) => {
      const signed = SIGNED_ASSERTION.exec(xml)![0];
      return xml.replace(SIGNED_ASSERTION, `<samlp:Extensions>${signed}</samlp:Extensions>${evil(signed)}`);
    });
    expect(reasonOf(hidden.outcome)).toBe("signature_wrapping");
    // 2. the signed assertion nested inside the unsigned one
    const nested = await signIn({}, (xml) => {
      const signed = SIGNED_ASSERTION.exec(xml)![0];
      return xml.replace(
        SIGNED_ASSERTION,
        evil(signed).replace("</saml:Assertion>", `${signed}</saml:Assertion>`),
      );
    });
    expect(reasonOf(nested.outcome)).toBe("signature_wrapping");
    // 3. the unsigned assertion beside the signed one
    const beside = await signIn({}, (xml) => {
      const signed = SIGNED_ASSERTION.exec(xml)![0];
      return xml.replace(SIGNED_ASSERTION, `${evil(signed)}${signed}`);
    });
    expect(reasonOf(beside.outcome)).toBe("signature_wrapping");
    // 4. the signature of the signed assertion moved into the unsigned one that replaced it
    const moved = await signIn({}, (xml) => {
      const signed = SIGNED_ASSERTION.exec(xml)![0];
      const signature = /<ds:Signature\b[^]*?<\/ds:Signature>/.exec(signed)![0];
      const forged = signed.replace(/>Mustermann</g, ">Evil<");
      return xml.replace(
        SIGNED_ASSERTION,
        forged.replace(signature, "").replace("</saml:Issuer>", `</saml:Issuer>${signature}`),
      );
    });
    expect(reasonOf(moved.outcome)).toBe("bad_signature");
  });

  it("refuses the same assertion posted twice (assertion ID cache)", async () => {
    const { idp, config } = connect();
    const { url, saved } = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_03" });
    const form = await idp.answer(url, { person: ERIKA, loa: HIGH });
    expect((await completeSamlAuthentication(config, saved, form, replay)).kind).toBe("success");
    expect(reasonOf(await completeSamlAuthentication(config, saved, form, replay))).toBe(
      "replayed_assertion",
    );
  });

  it("refuses an assertion for another audience, recipient, destination or issuer", async () => {
    const audience = await signIn({ overrides: { Audience: "https://other-sp.example.test" } });
    expect(reasonOf(audience.outcome)).toBe("wrong_audience");
    const recipient = await signIn({ overrides: { SubjectRecipient: "https://other-sp.example.test/acs" } });
    expect(reasonOf(recipient.outcome)).toBe("wrong_recipient");
    const destination = await signIn({
      signResponse: true,
      overrides: { Destination: "https://other-sp.example.test/acs" },
    });
    expect(reasonOf(destination.outcome)).toBe("wrong_destination");
    const issuer = await signIn({ overrides: { Issuer: "https://other-idp.example.test" } });
    expect(reasonOf(issuer.outcome)).toBe("wrong_issuer");
  });

  it("refuses expired and not-yet-valid conditions", async () => {
    const expired = await signIn({ overrides: { ConditionsNotOnOrAfter: minutes(-10) } });
    expect(reasonOf(expired.outcome)).toBe("expired");
    const confirmationExpired = await signIn({
      overrides: { ConditionsNotOnOrAfter: minutes(-10), SubjectConfirmationDataNotOnOrAfter: minutes(-10) },
    });
    expect(reasonOf(confirmationExpired.outcome)).toBe("expired");
    const early = await signIn({ overrides: { ConditionsNotBefore: minutes(10) } });
    expect(reasonOf(early.outcome)).toBe("not_yet_valid");
  });

  it("refuses a response to another session\'s request, and an InResponseTo of no request", async () => {
    const { idp, config } = connect();
    const first = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_04" });
    const second = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_04" });
    const form = await idp.answer(first.url, { person: ERIKA, loa: HIGH });
    expect(reasonOf(await completeSamlAuthentication(config, second.saved, form, replay))).toBe(
      "wrong_in_response_to",
    );
    const forged = await signIn({ overrides: { InResponseTo: "_not-a-request-of-ours" } });
    expect(reasonOf(forged.outcome)).toBe("wrong_in_response_to");
  });

  it("refuses an unsigned assertion when signatures are required, even in a signed response", async () => {
    const stripped = await signIn({}, (xml) => xml.replace(ASSERTION_SIGNATURE, "$1"));
    expect(reasonOf(stripped.outcome)).toBe("unsigned_assertion");
    const { idp, config } = connect();
    const unsignedConfig = { ...config, wantAssertionsSigned: false };
    const unsignedIdp = startSamlIdp(
      samlServiceProviderMetadata(unsignedConfig, { acsUrl: ACS }),
      idp.entityId,
    );
    const { url, saved } = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_05" });
    // the IdP signs only the response (the SP metadata it was given does not ask for more)
    const form = await unsignedIdp.answer(url, { person: ERIKA, loa: HIGH });
    expect(reasonOf(await completeSamlAuthentication(config, saved, form, replay))).toBe(
      "unsigned_assertion",
    );
  });

  it("refuses a response whose status is not Success even when it carries an assertion", async () => {
    const denied = await signIn({
      overrides: { StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Responder" },
    });
    expect(denied.outcome).toEqual({
      kind: "failure",
      reason: "idp_refused",
      message: "status urn:oasis:names:tc:SAML:2.0:status:Responder",
    });
  });

  it("refuses another RelayState, a missing or malformed SAMLResponse, without throwing", async () => {
    const { config } = connect();
    const { saved } = await beginSamlAuthentication(config, { acsUrl: ACS, relayState: "ver_06" });
    expect(reasonOf(await completeSamlAuthentication(config, saved, { RelayState: "ver_06" }, replay))).toBe(
      "invalid_response",
    );
    const junk = { SAMLResponse: Buffer.from("<x/>").toString("base64"), RelayState: "ver_06" };
    expect(reasonOf(await completeSamlAuthentication(config, saved, junk, replay))).toBe("invalid_response");
    const doctype = {
      SAMLResponse: Buffer.from('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>').toString("base64"),
      RelayState: "ver_06",
    };
    expect(reasonOf(await completeSamlAuthentication(config, saved, doctype, replay))).toBe(
      "invalid_response",
    );
    expect(
      reasonOf(await completeSamlAuthentication(config, saved, { ...junk, RelayState: "ver_07" }, replay)),
    ).toBe("wrong_relay_state");
  });
});

const assertionIds = (issuer: string) =>
  kysely().selectFrom("samlAssertionIds").selectAll().where("idpEntityId", "=", issuer).execute();

describe("purgeExpiredSamlAssertionIds", () => {
  it("deletes expired assertion IDs in bounded batches and keeps the others", async () => {
    const issuer = `https://purge-${crypto.randomUUID()}.example.test`;
    const now = new Date();
    for (let i = 0; i < 5; i++)
      expect(await replay.remember(issuer, `_old${i}`, new Date(now.getTime() - 1000))).toBe(true);
    expect(await replay.remember(issuer, "_current", new Date(now.getTime() + 60_000))).toBe(true);
    expect(await replay.remember(issuer, "_current", new Date(now.getTime() + 60_000))).toBe(false);
    expect(await purgeExpiredSamlAssertionIds(kysely(), { now, batchSize: 2 })).toBeGreaterThanOrEqual(5);
    const left = await assertionIds(issuer);
    expect(left.map((r) => r.assertionId)).toEqual(["_current"]);
    // a purged ID may be recorded again (its assertion has expired by then)
    expect(await replay.remember(issuer, "_old0", new Date(now.getTime() + 60_000))).toBe(true);
  });

  it("runs hourly as the saml_assertion_purge job", async () => {
    expect(CRONTAB).toContain("40 * * * * saml_assertion_purge");
    const issuer = `https://job-${crypto.randomUUID()}.example.test`;
    expect(await replay.remember(issuer, "_expired", new Date(Date.now() - 1000))).toBe(true);
    expect(await replay.remember(issuer, "_live", new Date(Date.now() + 60_000))).toBe(true);
    await jobNamed("saml_assertion_purge")!.task({});
    const left = await assertionIds(issuer);
    expect(left.map((r) => r.assertionId)).toEqual(["_live"]);
  });
});
