/**
 * A production sign-in through a SAML 2.0 identity provider built with samlify, through the real
 * routes: the connection PUT from the IdP's metadata with the Operator API, our SP metadata
 * served, /verify/{id}/start redirecting with a signed AuthnRequest (eIDAS extensions included),
 * the IdP's answer posted to the ACS. Refusals end the session failed with the generic reason and
 * a 303 (never a 500), the precise refusal in a log line; an unknown RelayState is 400 and
 * changes nothing.
 */
import { DOMParser } from "@xmldom/xmldom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SignedXml } from "xml-crypto";
import { kysely } from "../db/client";
import { logger } from "../log";
import { postgresSamlReplayCache } from "../providers/adapters/saml-replay";
import { putTestConnection, testOperatorKey } from "../testing/connections";
import { bearer, call } from "../testing/router";
import { fixture, samlConnectionSettings, startSamlIdp, type TSamlIdp } from "../testing/saml-idp";
import { eventTypes, makeVerifyingApp } from "../testing/verifications";
import { isolateTestDatabase } from "../testing/webhooks";

/** Session `id` as stored. */
const verificationRow = (id: string) =>
  kysely().selectFrom("verifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

// connections are environment-wide: this file keeps its own database
isolateTestDatabase();

const PROVIDER = "it_cie";
const SP_BASE = `/verify/saml/production/${PROVIDER}`;
const FORM = "application/x-www-form-urlencoded";
const HIGH = "http://eidas.europa.eu/LoA/high";
const EIDAS = "http://eidas.europa.eu/attributes/naturalperson/";
const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DSIG = "http://www.w3.org/2000/09/xmldsig#";

/** Whether served metadata carries one signature over its EntityDescriptor that verifies against `certificate`. */
function metadataVerifies(xml: string, certificate: string): boolean {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const signatures = doc.getElementsByTagNameNS(DSIG, "Signature");
  if (signatures.length !== 1) return false;
  const reference = signatures[0]!.getElementsByTagNameNS(DSIG, "Reference")[0]?.getAttribute("URI");
  if (reference !== `#${doc.documentElement!.getAttribute("ID")}`) return false;
  const verifier = new SignedXml({ publicCert: certificate });
  verifier.loadSignature(signatures[0]!);
  try {
    return verifier.checkSignature(xml);
  } catch {
    return false;
  }
}
const ERIKA = {
  personIdentifier: "IT/DE/CIE-0042",
  familyName: "Rossi",
  firstName: "Giulia",
  dateOfBirth: "1990-02-14",
};

let idp: TSamlIdp;

async function connect(providerId = PROVIDER): Promise<TSamlIdp> {
  const bootstrap = startSamlIdp("");
  const put = await putTestConnection("production", providerId, {
    adapter: "saml",
    settings: samlConnectionSettings(bootstrap.metadataXml, {
      requestedLoa: HIGH,
      eidas: {
        spType: "public",
        requestedAttributes: { [`${EIDAS}PersonIdentifier`]: true, [`${EIDAS}DateOfBirth`]: false },
      },
    }),
  });
  expect(put.status).toBe(201);
  const metadata = await call("GET", `/verify/saml/production/${providerId}/metadata`);
  expect(metadata.status).toBe(200);
  return startSamlIdp(metadata.text);
}

beforeAll(async () => {
  idp = await connect();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A production session of `providerId`, started: its id and the IdP redirect URL. */
async function started(providerId = PROVIDER) {
  const t = await makeVerifyingApp([providerId], "production");
  const created = await t.start({ providerId, flowType: "redirect" });
  expect(created.status).toBe(201);
  const id = created.body.verificationId as string;
  const start = await call("GET", `/verify/${id}/start`);
  expect(start.status).toBe(303);
  return { t, id, url: start.headers.get("location")! };
}

function post(form: { SAMLResponse?: string; RelayState?: string }, base = SP_BASE) {
  return call("POST", `${base}/acs`, {
    headers: { "content-type": FORM },
    rawBody: new URLSearchParams(form as Record<string, string>).toString(),
  });
}

describe("a production sign-in through a SAML identity provider", () => {
  it("serves our SP metadata for the connection, with the ACS URL and both certificates", async () => {
    const res = await call("GET", `${SP_BASE}/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/samlmetadata+xml; charset=utf-8");
    expect(res.text).toContain('entityID="https://broker.example.test/saml/sp"');
    expect(res.text).toContain(`Location="http://localhost:3000${SP_BASE}/acs"`);
    expect(res.text).toContain('use="signing"');
    expect(res.text).toContain('use="encryption"');
    expect(res.text).not.toContain("PRIVATE KEY");
    // signed with the SP signing key (signMetadata defaults to true); a tampered copy is not
    expect(metadataVerifies(res.text, fixture("sp-signing-cert.pem"))).toBe(true);
    expect(metadataVerifies(res.text, fixture("sp-encryption-cert.pem"))).toBe(false);
    expect(
      metadataVerifies(res.text.replace(`${SP_BASE}/acs`, "/elsewhere/acs"), fixture("sp-signing-cert.pem")),
    ).toBe(false);
    // no connection, another adapter, an unknown environment: 404
    expect((await call("GET", "/verify/saml/production/nl_digid/metadata")).status).toBe(404);
    expect((await call("GET", `/verify/saml/staging/${PROVIDER}/metadata`)).status).toBe(404);
  });

  it("serves unsigned SP metadata for a connection with signMetadata false", async () => {
    const bootstrap = startSamlIdp("");
    const put = await putTestConnection("production", "be_itsme", {
      adapter: "saml",
      settings: samlConnectionSettings(bootstrap.metadataXml, { signMetadata: false }),
    });
    expect(put.status).toBe(201);
    expect(put.body.settings.signMetadata).toBe(false);
    const metadata = await call("GET", "/verify/saml/production/be_itsme/metadata");
    expect(metadata.status).toBe(200);
    expect(metadata.text).toContain('entityID="https://broker.example.test/saml/sp"');
    expect(
      new DOMParser().parseFromString(metadata.text, "text/xml").getElementsByTagNameNS(DSIG, "Signature")
        .length,
    ).toBe(0);
  });

  it("redirects to the IdP with a signed AuthnRequest carrying the eIDAS extensions, and completes with the mapped claims", async () => {
    const { t, id, url } = await started();
    expect(url.startsWith("https://idp.example-eid.test/sso?")).toBe(true);
    const relayState = new URL(url).searchParams.get("RelayState")!;
    expect(relayState).toMatch(new RegExp(`^${id}\\.[A-Za-z0-9_-]{32}$`));
    // the IdP checks the signature against the SP metadata we served
    const request = await idp.readRequest(url);
    expect(request.xml).toContain(`AssertionConsumerServiceURL="http://localhost:3000${SP_BASE}/acs"`);
    expect(request.xml).toMatch(
      /<eidas:SPType xmlns:eidas="http:\/\/eidas.europa.eu\/saml-extensions">public</,
    );
    expect(request.xml).toContain(`Name="${EIDAS}PersonIdentifier"`);
    expect(request.xml).toMatch(
      new RegExp(`FriendlyName="DateOfBirth" Name="${EIDAS}DateOfBirth"[^>]*isRequired="false"`),
    );
    expect(request.xml).toMatch(new RegExp(`FriendlyName="PersonIdentifier"[^>]*isRequired="true"`));
    expect((await t.status(id)).body.status).toBe("authenticating");

    const form = await idp.answer(url, { person: ERIKA, loa: HIGH, encrypt: true });
    const acs = await post(form);
    expect(acs.status).toBe(303);
    expect(acs.headers.get("location")).toBe(`/verify/${id}`);
    expect((await t.status(id)).body.status).toBe("completed");
    const info = await t.userinfo(id);
    expect(info.body).toMatchObject({
      provider_id: PROVIDER,
      service_loa: 3,
      user: { given_name: "Giulia", family_name: "Rossi", birthdate: "1990-02-14" },
    });
    expect((await eventTypes(id)).slice(-2)).toEqual([
      "verification.user.authentication_succeeded",
      "verification.completed",
    ]);
    // the connection's health counts the success (no person data: counts and milliseconds)
    const health = await call("GET", `/api/production/v1/operator/connections/${PROVIDER}`, {
      headers: bearer(await testOperatorKey()),
    });
    expect(health.body.health.lastHour).toMatchObject({ signIns: 1, failures: 0 });
    // the saved hand-off state is gone; the same post again changes nothing and shows the page
    const row = await verificationRow(id);
    expect(row.upstreamEncrypted).toBeNull();
    const again = await post(form);
    expect(again.status).toBe(303);
    expect((await t.status(id)).body.status).toBe("completed");
  });

  it("sends ForceAuthn and AttributeConsumingServiceIndex, and serves Organization, ContactPerson and AttributeConsumingService in our metadata, which samlify reads", async () => {
    const provider = "it_spid";
    const bootstrap = startSamlIdp("");
    const put = await putTestConnection("production", provider, {
      adapter: "saml",
      settings: samlConnectionSettings(bootstrap.metadataXml, {
        requestedLoa: HIGH,
        forceAuthn: true,
        attributeConsumingServiceIndex: 2,
        organization: {
          name: "Comune di Prova",
          displayName: "Comune di Prova",
          url: "https://comune.example.it",
          lang: "it",
        },
        contactPerson: [
          {
            type: "other",
            company: "Comune di Prova",
            email: "spid@comune.example.it",
            telephone: "+39 06 1234567",
          },
          { type: "technical", email: "tech@broker.example.test" },
        ],
        eidas: { requestedAttributes: { [`${EIDAS}PersonIdentifier`]: true, [`${EIDAS}FamilyName`]: false } },
      }),
    });
    expect(put.status).toBe(201);
    const metadata = await call("GET", `/verify/saml/production/${provider}/metadata`);
    expect(metadata.status).toBe(200);
    const doc = new DOMParser().parseFromString(metadata.text, "text/xml");
    const childNames = (parent: Element) =>
      Array.from(parent.childNodes)
        .filter((n) => n.nodeType === 1)
        .map((n) => (n as Element).localName);
    const entity = doc.documentElement!;
    // the metadata schema's order: the signature, role descriptors, then Organization, then ContactPerson
    expect(childNames(entity)).toEqual([
      "Signature",
      "SPSSODescriptor",
      "Organization",
      "ContactPerson",
      "ContactPerson",
    ]);
    // signed after the AttributeConsumingService was added: the whole final document verifies
    expect(metadataVerifies(metadata.text, fixture("sp-signing-cert.pem"))).toBe(true);
    const sp = entity.getElementsByTagNameNS(MD, "SPSSODescriptor")[0]!;
    expect(childNames(sp).slice(-2)).toEqual(["AssertionConsumerService", "AttributeConsumingService"]);
    const service = sp.getElementsByTagNameNS(MD, "AttributeConsumingService")[0]!;
    expect(service.getAttribute("index")).toBe("2");
    expect(childNames(service)).toEqual(["ServiceName", "RequestedAttribute", "RequestedAttribute"]);
    expect(service.getElementsByTagNameNS(MD, "ServiceName")[0]!.textContent).toBe("Comune di Prova");
    const requested = Array.from(service.getElementsByTagNameNS(MD, "RequestedAttribute")).map((e) => [
      e.getAttribute("Name"),
      e.getAttribute("isRequired"),
    ]);
    // (stored as jsonb: the order of the names is PostgreSQL's)
    expect(requested.sort()).toEqual([
      [`${EIDAS}FamilyName`, "false"],
      [`${EIDAS}PersonIdentifier`, "true"],
    ]);
    const organization = entity.getElementsByTagNameNS(MD, "Organization")[0]!;
    expect(childNames(organization)).toEqual([
      "OrganizationName",
      "OrganizationDisplayName",
      "OrganizationURL",
    ]);
    expect(organization.getElementsByTagNameNS(MD, "OrganizationURL")[0]!.getAttribute("xml:lang")).toBe(
      "it",
    );
    const contacts = Array.from(entity.getElementsByTagNameNS(MD, "ContactPerson"));
    expect(contacts.map((c) => [c.getAttribute("contactType"), childNames(c)])).toEqual([
      ["other", ["Company", "EmailAddress", "TelephoneNumber"]],
      ["technical", ["EmailAddress"]],
    ]);

    // an IdP built with samlify reads that metadata, checks the signed request against it, and answers
    const spidIdp = startSamlIdp(metadata.text);
    const { t, id, url } = await started(provider);
    const request = await spidIdp.readRequest(url);
    const authnRequest = new DOMParser().parseFromString(request.xml, "text/xml").documentElement!;
    expect(authnRequest.getAttribute("ForceAuthn")).toBe("true");
    expect(authnRequest.getAttribute("AttributeConsumingServiceIndex")).toBe("2");
    const form = await spidIdp.answer(url, { person: ERIKA, loa: HIGH });
    expect((await post(form, `/verify/saml/production/${provider}`)).status).toBe(303);
    expect((await t.status(id)).body.status).toBe("completed");
  });

  it.each([
    ["a bad signature", { privateKey: fixture("other-key.pem") }, "bad_signature"],
    [
      "another request's InResponseTo",
      { overrides: { InResponseTo: "_another-request" } },
      "wrong_in_response_to",
    ],
    [
      "an IdP refusal",
      { overrides: { StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Responder" } },
      "idp_refused",
    ],
  ])(
    "refuses %s: failed with the generic reason, 303, the refusal logged",
    async (_name, answer, refusal) => {
      const warn = vi.spyOn(logger, "warn");
      const { t, id, url } = await started();
      const form = await idp.answer(url, { person: ERIKA, loa: HIGH, ...answer });
      const acs = await post(form);
      expect(acs.status).toBe(303);
      expect(acs.headers.get("location")).toBe(`/verify/${id}`);
      const status = (await t.status(id)).body;
      expect(status).toMatchObject({ status: "failed" });
      const row = await verificationRow(id);
      expect(row.statusReason).toBe("authentication_failed");
      expect(row.upstreamEncrypted).toBeNull();
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ verificationId: id, providerId: PROVIDER, refusal }),
        "SAML response refused",
      );
    },
  );

  it("answers the OIDC callback of a session in a SAML sign-in with a conflict, never a 500, and changes nothing", async () => {
    const { t, id } = await started();
    const res = await call("GET", `/verify/callback?code=x&state=y`, {
      headers: { cookie: `idv_verification=${id}` },
    });
    expect(res.status).toBe(303);
    expect((await t.status(id)).body.status).toBe("authenticating");
  });

  it("refuses a replayed assertion (its ID already used)", async () => {
    const warn = vi.spyOn(logger, "warn");
    const { t, id, url } = await started();
    const assertionId = `_a${crypto.randomUUID()}`;
    const form = await idp.answer(url, { person: ERIKA, loa: HIGH, overrides: { AssertionID: assertionId } });
    // the same assertion accepted once before (by any session)
    await postgresSamlReplayCache(kysely()).remember(
      idp.entityId,
      assertionId,
      new Date(Date.now() + 600_000),
    );
    expect((await post(form)).status).toBe(303);
    expect((await t.status(id)).body.status).toBe("failed");
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ verificationId: id, refusal: "replayed_assertion" }),
      "SAML response refused",
    );
  });

  it("answers 400 to an unknown, garbled or not matching RelayState, and changes nothing", async () => {
    const { t, id, url } = await started();
    const form = await idp.answer(url, { person: ERIKA, loa: HIGH });
    const forged = `${id}.${"A".repeat(32)}`;
    for (const relayState of [
      "",
      "garbage",
      `ver_${"0".repeat(26)}.${"A".repeat(32)}`,
      forged,
      form.RelayState + "x",
    ]) {
      const res = await post({ SAMLResponse: form.SAMLResponse, RelayState: relayState });
      expect(res.status, relayState).toBe(400);
      expect(res.text).toBe("No SAML sign-in in progress for this RelayState");
    }
    // the right RelayState at another provider's ACS
    expect((await post(form, "/verify/saml/production/nl_digid")).status).toBe(400);
    expect((await post({ RelayState: form.RelayState }, "/verify/saml/sandbox/it_cie")).status).toBe(400);
    expect((await t.status(id)).body.status).toBe("authenticating");
    // a post without a response for the right RelayState is a refusal, not a 500
    expect((await post({ RelayState: form.RelayState })).status).toBe(303);
    expect((await t.status(id)).body.status).toBe("failed");
  });

  it("fails a sign-in in progress with provider_unavailable when its connection is deleted meanwhile", async () => {
    const other = await connect("es_clave");
    const { t, id, url } = await started("es_clave");
    const form = await other.answer(url, { person: ERIKA, loa: HIGH });
    const deleted = await call("DELETE", "/api/production/v1/operator/connections/es_clave", {
      headers: bearer(await testOperatorKey()),
    });
    expect(deleted.status).toBe(204);
    const acs = await post(form, "/verify/saml/production/es_clave");
    expect(acs.status).toBe(303);
    const row = await verificationRow(id);
    expect(row).toMatchObject({ status: "failed", statusReason: "provider_unavailable" });
    expect((await t.status(id)).body.status).toBe("failed");
    expect((await call("GET", "/verify/saml/production/es_clave/metadata")).status).toBe(404);
  });
});
