/**
 * The honest catalog (issue 24 §2): in production a provider is offered only while it has a
 * working, enabled connection. Walks the whole catalog: without a connection every provider is
 * refused at creation (400 PROVIDER_NOT_AVAILABLE, nothing written) and listed `available: false`;
 * then each is connected through the Operator API as its scheme is (WALK: oidc against
 * oidc-provider, saml against a samlify IdP, wallet with SD-JWT VC presentations, or not at all)
 * and either completes a production sign-in through the hosted routes with the mapped claims or
 * is still refused: no third outcome.
 * Also: disabled and failing connections, the console listing, the OpenID Provider's picker, and
 * the sandbox (unchanged: every provider on the simulator).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { countRows } from "../db/kysely";
import { PROVIDERS, type TProviderDefinition } from "../providers/catalog";
import { opSettings, putTestConnection, testOperatorKey } from "../testing/connections";
import { authorizationPath } from "../testing/oidc-requests";
import { bearer, call } from "../testing/router";
import { samlConnectionSettings, startSamlIdp, type TSamlAnswer, type TSamlIdp } from "../testing/saml-idp";
import { startUpstreamOp, type TUpstreamOp } from "../testing/upstream-oidc";
import { makeVerifyingApp } from "../testing/verifications";
import {
  issueTestCredential,
  makeTestHolder,
  makeTestIssuer,
  presentTestCredential,
  type TTestHolder,
  type TTestIssuer,
} from "../testing/wallet";
import { isolateTestDatabase } from "../testing/webhooks";
import { upstreamCallbackUrl } from "../verifications/upstream";
import { walletAudience } from "../verifications/wallet";

// the check reaches the loopback OP through the SSRF guard (as check.integration.test.ts)
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
// connections are environment-wide: this file connects and disconnects the whole production
// catalog, so it runs on a database of its own (other files connect providers concurrently)
isolateTestDatabase();

const REDIRECT = "https://rp.example.com/cb";
let op: TUpstreamOp;

beforeAll(async () => {
  op = await startUpstreamOp({
    redirectUri: upstreamCallbackUrl(),
    accounts: {
      "erika-4711": { claims: { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" } },
    },
  });
});

afterAll(async () => {
  await op.close();
});

/**
 * How each catalog provider is connected in the walk (issue 24 §2): through the adapter its
 * scheme really uses where this deployment has one, or not at all (refused at creation).
 * - `oidc`: oidc-provider on loopback (the scheme's own OpenID Provider or a broker's front door),
 *   through the hosted routes: /verify/{id}/start → the OP → /verify/callback;
 * - `saml`: a samlify identity provider (lib/testing/saml-idp.ts), through the hosted routes:
 *   /verify/{id}/start → the IdP (signed AuthnRequest) → its form posted to the ACS;
 * - `wallet`: an SD-JWT VC presentation through the Digital Credentials flow (dc);
 * - `none`: no adapter can answer it here (a passport's chip, a match verifier's API, a wallet
 *   without a dc flow): it stays unconnected, refused with PROVIDER_NOT_AVAILABLE.
 * Every catalog provider has an entry (checked), so a new provider needs a decision here. Sessions
 * use a flow the connection can answer: dc for a wallet, else redirect (or qr, whose code opens
 * the same /verify/{id}/start on the phone). docs/connections.md "Scheme by scheme" says why each
 * scheme is connected as it is here.
 */
const WALK: Record<string, "oidc" | "saml" | "wallet" | "none"> = {
  passport: "none",
  de_eid: "oidc",
  nl_digid: "oidc",
  se_bankid: "oidc",
  no_bankid: "oidc",
  dk_mitid: "oidc",
  fi_ftn: "oidc",
  be_itsme: "oidc",
  it_spid: "saml",
  it_cie: "saml",
  fr_franceconnect: "oidc",
  es_clave: "saml",
  es_dnie: "saml",
  ee_smart_id: "oidc",
  ee_id_card: "oidc",
  pl_mobywatel: "none",
  at_id_austria: "oidc",
  ch_swissid: "oidc",
  uk_gov_one_login: "oidc",
  eudi_wallet: "wallet",
  digital_id_app: "none",
  in_aadhaar_match: "none",
  bank_data_match: "none",
  mno_kyc_match: "none",
};

const FORM = "application/x-www-form-urlencoded";
const EIDAS = "http://eidas.europa.eu/attributes/naturalperson/";
const SPID_LOA = (level: number) => `https://www.spid.gov.it/SpidL${level}`;
const GIULIA = {
  personIdentifier: "IT/IT/TINIT-RSSGLI90B54H501X",
  familyName: "Rossi",
  firstName: "Giulia",
  dateOfBirth: "1990-02-14",
};

/** A SAML attribute of the SPID profile (basic name format, AgID's attribute names). */
function spidAttribute(name: string, value: string): string {
  return (
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
    `<saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`
  );
}

/**
 * The saml connection of each SAML scheme of the walk, as an operator would make it, and what its
 * identity provider answers: SPID's own attribute names and levels for it_spid; the eIDAS
 * natural-person profile (with an encrypted assertion) for es_clave, es_dnie (through Cl@ve) and
 * it_cie.
 */
const SAML_SCHEMES: Record<
  string,
  { settings: Record<string, unknown>; answer: Omit<TSamlAnswer, "person"> }
> = {
  it_spid: {
    settings: {
      attributeMapping: {
        fiscalNumber: "sub",
        name: "given_name",
        familyName: "family_name",
        dateOfBirth: "birthdate",
      },
      loaMapping: { [SPID_LOA(1)]: 1, [SPID_LOA(2)]: 2, [SPID_LOA(3)]: 3 },
      requestedLoa: SPID_LOA(2),
    },
    answer: {
      loa: SPID_LOA(2),
      overrides: {
        AttributeStatement:
          "<saml:AttributeStatement>" +
          spidAttribute("fiscalNumber", "TINIT-RSSGLI90B54H501X") +
          spidAttribute("name", "Giulia") +
          spidAttribute("familyName", "Rossi") +
          spidAttribute("dateOfBirth", "1990-02-14") +
          "</saml:AttributeStatement>",
      },
    },
  },
  es_clave: {
    settings: {
      requestedLoa: "http://eidas.europa.eu/LoA/substantial",
      eidas: {
        spType: "public",
        requestedAttributes: { [`${EIDAS}PersonIdentifier`]: true, [`${EIDAS}FamilyName`]: true },
      },
    },
    answer: { loa: "http://eidas.europa.eu/LoA/substantial", encrypt: true },
  },
  es_dnie: {
    settings: { requestedLoa: "http://eidas.europa.eu/LoA/high", eidas: { spType: "public" } },
    answer: { loa: "http://eidas.europa.eu/LoA/high", encrypt: true },
  },
  it_cie: {
    settings: { requestedLoa: "http://eidas.europa.eu/LoA/high" },
    answer: { loa: "http://eidas.europa.eu/LoA/high", encrypt: true },
  },
};

const samlIdps = new Map<string, TSamlIdp>();

/** PUT the provider's saml connection from its IdP's metadata; the IdP then knows our SP metadata. */
async function connectSaml(providerId: string): Promise<void> {
  const scheme = SAML_SCHEMES[providerId];
  if (!scheme) throw new Error(`no SAML scheme for ${providerId}`);
  const entityId = `https://idp.${providerId}.example-eid.test/metadata`;
  const ssoUrl = `https://idp.${providerId}.example-eid.test/sso`;
  const bootstrap = startSamlIdp("", entityId, { ssoUrl });
  await putTestConnection("production", providerId, {
    adapter: "saml",
    settings: samlConnectionSettings(bootstrap.metadataXml, scheme.settings),
  });
  const metadata = await call("GET", `/verify/saml/production/${providerId}/metadata`);
  expect(metadata.status, providerId).toBe(200);
  samlIdps.set(providerId, startSamlIdp(metadata.text, entityId, { ssoUrl }));
}

/** Connects the provider as WALK says (nothing for `none`). */
async function connectForWalk(providerId: string, wallet: TTestIssuer): Promise<void> {
  const plan = WALK[providerId];
  if (plan === "oidc") {
    await putTestConnection("production", providerId, { adapter: "oidc", settings: opSettings(op) });
  } else if (plan === "saml") {
    await connectSaml(providerId);
  } else if (plan === "wallet") {
    await putTestConnection("production", providerId, {
      adapter: "wallet",
      settings: { issuers: { [wallet.iss]: wallet.jwks }, vct: ["urn:eudi:pid:1"], loa: 3 },
    });
  }
}

/**
 * Runs a created production session's sign-in the way its connection runs it and answers the
 * session's status afterwards (anything but "completed" is a third outcome).
 */
async function signIn(
  t: Awaited<ReturnType<typeof makeVerifyingApp>>,
  providerId: string,
  id: string,
  wallet: { issuer: TTestIssuer; holder: TTestHolder },
): Promise<string> {
  const plan = WALK[providerId];
  if (plan === "oidc") {
    // the hosted page's "Continue" → the OP → back to the one callback, with the session's cookie
    const start = await call("GET", `/verify/${id}/start`);
    expect(start.status, providerId).toBe(303);
    expect(start.headers.get("set-cookie"), providerId).toContain(`idv_verification=${id}`);
    const back = await op.signIn(start.headers.get("location")!, "erika-4711");
    const callback = await call("GET", `/verify/callback${back.search}`, {
      headers: { cookie: `idv_verification=${id}` },
    });
    expect(callback.status, providerId).toBe(303);
  } else if (plan === "saml") {
    // the hosted page's "Continue" → the IdP (signed AuthnRequest) → its form posted to our ACS
    const start = await call("GET", `/verify/${id}/start`);
    expect(start.status, providerId).toBe(303);
    const idp = samlIdps.get(providerId)!;
    const form = await idp.answer(start.headers.get("location")!, {
      person: GIULIA,
      ...SAML_SCHEMES[providerId]!.answer,
    });
    const acs = await call("POST", `/verify/saml/production/${providerId}/acs`, {
      headers: { "content-type": FORM },
      rawBody: new URLSearchParams(form).toString(),
    });
    expect(acs.status, providerId).toBe(303);
    expect(acs.headers.get("location"), providerId).toBe(`/verify/${id}`);
  } else if (plan === "wallet") {
    const request = await call("GET", `/verify/${id}/wallet`);
    expect(request.status, providerId).toBe(200);
    const credential = await issueTestCredential(
      wallet.issuer,
      { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" },
      { holder: wallet.holder },
    );
    const vp = await presentTestCredential(credential, wallet.holder, {
      nonce: (request.body as { data: { nonce: string } }).data.nonce,
      aud: walletAudience(),
    });
    const posted = await call("POST", `/verify/${id}/wallet`, {
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: { data: { vp_token: { pid: [vp] } } },
    });
    expect(posted.status, providerId).toBe(200);
  }
  return (await t.status(id)).body.status as string;
}

/** A creation body the provider accepts (match providers compare submitted data). */
function body(p: TProviderDefinition): Record<string, unknown> {
  if (p.verificationModel !== "match") return { providerId: p.id };
  const field = p.claims.includes("family_name") ? "family_name" : p.claims[0]!;
  return { providerId: p.id, matchData: { [field]: "Mustermann" } };
}

/** The creation body of the walk's connected phase: a flow the provider's connection answers. */
function walkBody(p: TProviderDefinition): Record<string, unknown> {
  // a front door (oidc, saml) is a redirect whatever the scheme's own apps offer
  const flowType = WALK[p.id] === "wallet" ? "dc" : WALK[p.id] === "none" ? p.flowTypes[0] : "redirect";
  return { ...body(p), flowType };
}

type TListed = { id: string; available: boolean; unavailableReason: string | null };

async function listed(t: Awaited<ReturnType<typeof makeVerifyingApp>>, env: "sandbox" | "production") {
  const res = await call("GET", `/api/${env}/v1/providers`, { headers: t.creds });
  expect(res.status).toBe(200);
  return new Map((res.body as TListed[]).map((e) => [e.id, e]));
}

const sessionsOf = (appId: string) =>
  countRows(kysely().selectFrom("verifications").where("appId", "=", appId));

/** DELETE the production connection of each provider (the walk connects them all). */
async function disconnect(...providerIds: string[]) {
  for (const id of providerIds) {
    const res = await call("DELETE", `/api/production/v1/operator/connections/${id}`, {
      headers: bearer(await testOperatorKey()),
    });
    expect(res.status).toBe(204);
  }
}

describe("the production catalog walked provider by provider", () => {
  it("every provider is refused without a connection; connected through oidc, saml or wallet it completes a sign-in, else it stays refused: no third outcome", async () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(Object.keys(WALK).sort()).toEqual([...ids].sort());
    const t = await makeVerifyingApp(ids, "production", { connect: false });

    // not connected: listed unavailable, refused at creation, nothing written
    const before = await listed(t, "production");
    for (const p of PROVIDERS) {
      expect(before.get(p.id), p.id).toMatchObject({ available: false, unavailableReason: "not_connected" });
      const res = await t.start(body(p));
      expect(res.status, p.id).toBe(400);
      expect(res.body.error.code, p.id).toBe("PROVIDER_NOT_AVAILABLE");
      expect(res.body.error.message, p.id).toContain("is not connected in this deployment");
    }
    expect(await sessionsOf(t.app.clientId)).toBe(0);

    // connected through the Operator API as each scheme is: every provider completes or is refused
    const wallet = {
      issuer: await makeTestIssuer("https://pid-provider.example"),
      holder: await makeTestHolder(),
    };
    for (const p of PROVIDERS) await connectForWalk(p.id, wallet.issuer);
    const after = await listed(t, "production");
    const outcomes: Record<string, string> = {};
    for (const p of PROVIDERS) {
      const created = await t.start(walkBody(p));
      if (created.status === 400 && created.body.error?.code === "PROVIDER_NOT_AVAILABLE") {
        expect(after.get(p.id), p.id).toMatchObject({ available: false, unavailableReason: "not_connected" });
        outcomes[p.id] = "refused";
        continue;
      }
      expect(created.status, `${p.id}: ${created.text}`).toBe(201);
      expect(after.get(p.id), p.id).toMatchObject({ available: true, unavailableReason: null });
      const status = await signIn(t, p.id, created.body.verificationId as string, wallet);
      outcomes[p.id] = status === "completed" ? `completed (${WALK[p.id]})` : `third outcome: ${status}`;
    }
    expect(outcomes).toEqual(
      Object.fromEntries(ids.map((id) => [id, WALK[id] === "none" ? "refused" : `completed (${WALK[id]})`])),
    );
    // each kind of connection is walked
    expect(new Set(Object.values(outcomes))).toEqual(
      new Set(["refused", "completed (oidc)", "completed (saml)", "completed (wallet)"]),
    );

    // the mapped claims reach the app, per adapter
    const userinfoOf = async (providerId: string) =>
      (
        await t.userinfo(
          (
            await kysely()
              .selectFrom("verifications")
              .select("id")
              .where("appId", "=", t.app.clientId)
              .where("providerId", "=", providerId)
              .executeTakeFirstOrThrow()
          ).id,
        )
      ).body;
    expect(await userinfoOf("de_eid")).toMatchObject({
      provider_id: "de_eid",
      user: { given_name: "Erika", family_name: "Mustermann" },
    });
    // SPID's own attribute names and level, through the connection's attributeMapping and loaMapping
    expect(await userinfoOf("it_spid")).toMatchObject({
      provider_id: "it_spid",
      service_loa: 2,
      user: { given_name: "Giulia", family_name: "Rossi", birthdate: "1990-02-14" },
    });
    // the eIDAS natural-person profile (encrypted assertion), substantial
    expect(await userinfoOf("es_clave")).toMatchObject({
      provider_id: "es_clave",
      service_loa: 2,
      user: { given_name: "Giulia", family_name: "Rossi", birthdate: "1990-02-14" },
    });
    expect(await userinfoOf("eudi_wallet")).toMatchObject({
      provider_id: "eudi_wallet",
      service_loa: 3,
      user: { given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" },
    });
  }, 120_000);
});

describe("what counts as available", () => {
  it("a disabled or failing connection is not offered; a successful check brings it back", async () => {
    await disconnect("fr_franceconnect");
    const t = await makeVerifyingApp(["fr_franceconnect"], "production", { connect: false });
    const operator = bearer(await testOperatorKey());

    await putTestConnection("production", "fr_franceconnect", {
      adapter: "oidc",
      enabled: false,
      settings: opSettings(op),
    });
    expect((await listed(t, "production")).get("fr_franceconnect")).toMatchObject({
      available: false,
      unavailableReason: "disabled",
    });
    expect((await t.start({ providerId: "fr_franceconnect" })).body.error.code).toBe(
      "PROVIDER_NOT_AVAILABLE",
    );

    // enabled, but its check fails (nothing answers there): failing, not offered
    await putTestConnection("production", "fr_franceconnect", {
      adapter: "oidc",
      settings: opSettings(op, { issuer: "http://127.0.0.1:9/nothing-here" }),
    });
    expect((await t.start({ providerId: "fr_franceconnect" })).status).toBe(201);
    const failed = await call("POST", "/api/production/v1/operator/connections/fr_franceconnect/check", {
      headers: operator,
    });
    expect(failed.body.ok).toBe(false);
    expect((await listed(t, "production")).get("fr_franceconnect")).toMatchObject({
      available: false,
      unavailableReason: "failing",
    });
    const refused = await t.start({ providerId: "fr_franceconnect" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "PROVIDER_NOT_AVAILABLE" });
    expect(refused.body.error.message).toContain("failing");

    // the right issuer, checked: connected again
    await putTestConnection("production", "fr_franceconnect", { adapter: "oidc", settings: opSettings(op) });
    const ok = await call("POST", "/api/production/v1/operator/connections/fr_franceconnect/check", {
      headers: operator,
    });
    expect(ok.body.ok).toBe(true);
    expect((await listed(t, "production")).get("fr_franceconnect")).toMatchObject({ available: true });
    expect((await t.start({ providerId: "fr_franceconnect" })).status).toBe(201);
  });

  it("a production session runs the flow its connection answers: a front door is a redirect, a wallet connection needs the provider's dc flow", async () => {
    await disconnect("ee_smart_id", "pl_mobywatel");
    const t = await makeVerifyingApp(["ee_smart_id", "pl_mobywatel"], "production", { connect: false });
    // Smart-ID's own apps are push and qr; through an OIDC front door its sessions are redirects
    await putTestConnection("production", "ee_smart_id", { adapter: "oidc", settings: opSettings(op) });
    const byDefault = await t.start({ providerId: "ee_smart_id" });
    expect(byDefault.status).toBe(201);
    const row = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", byDefault.body.verificationId as string)
      .executeTakeFirstOrThrow();
    expect(row.flowType).toBe("redirect");
    const push = await t.start({ providerId: "ee_smart_id", flowType: "push" });
    expect(push.status).toBe(400);
    expect(push.body.error.details).toEqual([
      { path: "flowType", message: '"ee_smart_id" is connected in this deployment for redirect only' },
    ]);
    // the sandbox still plays the catalog's flows
    const sandbox = await makeVerifyingApp(["ee_smart_id"], "sandbox");
    expect((await sandbox.start({ providerId: "ee_smart_id", flowType: "push" })).status).toBe(201);

    // mObywatel has no Digital Credentials flow: a wallet connection could never answer it
    const refused = await call("PUT", "/api/production/v1/operator/connections/pl_mobywatel", {
      headers: { ...bearer(await testOperatorKey()), "content-type": "application/json" },
      body: {
        adapter: "wallet",
        enabled: true,
        settings: { issuers: {}, vct: ["urn:eu.europa.ec.eudi:pid:1"] },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe("adapter");
    expect(
      await countRows(kysely().selectFrom("providerConnections").where("providerId", "=", "pl_mobywatel")),
    ).toBe(0);
    await disconnect("ee_smart_id");
  });

  it("the sandbox is unchanged: every provider available on the simulator, no connection needed", async () => {
    const ids = PROVIDERS.map((p) => p.id);
    const t = await makeVerifyingApp(ids, "sandbox");
    const entries = await listed(t, "sandbox");
    for (const p of PROVIDERS) {
      expect(entries.get(p.id), p.id).toMatchObject({ available: true, unavailableReason: null });
      expect((await t.start(body(p))).status, p.id).toBe(201);
    }
  });

  it("the console's listing says which activated providers wait for a connection; activation works", async () => {
    await disconnect("de_eid", "it_spid", "es_dnie", "nl_digid");
    const t = await makeVerifyingApp(["de_eid", "it_spid"], "production", { connect: false });
    await putTestConnection("production", "de_eid", { adapter: "oidc", settings: opSettings(op) });
    const workspace = bearer(t.ws.keys.production);
    // a not-connected provider is activated as before (direct activation: at once)
    const activated = await call("POST", `/api/production/v1/apps/${t.app.clientId}/activation`, {
      headers: workspace,
      body: { providers: { es_dnie: {} } },
    });
    expect(activated.status, activated.text).toBeLessThan(300);
    const res = await call("GET", `/api/production/v1/apps/${t.app.clientId}/providers?include=activation`, {
      headers: workspace,
    });
    expect(res.status).toBe(200);
    const byId = new Map((res.body as (TListed & { isActive: boolean })[]).map((e) => [e.id, e] as const));
    expect(byId.get("de_eid")).toMatchObject({ isActive: true, available: true, unavailableReason: null });
    for (const id of ["it_spid", "es_dnie"]) {
      expect(byId.get(id), id).toMatchObject({
        isActive: true,
        available: false,
        unavailableReason: "not_connected",
      });
    }
    // not activated and not connected: listed as such
    expect(byId.get("nl_digid")).toMatchObject({ isActive: false, available: false });
    expect((await t.start({ providerId: "es_dnie" })).body.error.code).toBe("PROVIDER_NOT_AVAILABLE");
  });
});

describe("the OpenID Provider in production", () => {
  it("the picker lists only connected providers, and a named unconnected one is refused", async () => {
    await disconnect("de_eid", "nl_digid");
    const t = await makeVerifyingApp(["de_eid", "nl_digid"], "production", { connect: false });
    await putTestConnection("production", "de_eid", { adapter: "oidc", settings: opSettings(op) });
    const patched = await call("PATCH", `/api/production/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.production),
      body: { redirectUris: [REDIRECT], pkceRequired: false },
    });
    expect(patched.status).toBe(200);
    const params = {
      client_id: t.app.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid",
    };
    const auth = (extra: Record<string, string> = {}) =>
      authorizationPath(params, extra).replace("/oidc/sandbox/", "/oidc/production/");

    const res = await call("GET", auth({ state: "s" }));
    expect(res.status).toBe(303);
    const select = res.headers.get("location")!;
    expect(select.startsWith("select?")).toBe(true);
    const page = await call("GET", `/oidc/production/${select}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-provider="de_eid"');
    expect(page.text).not.toContain('data-provider="nl_digid"');

    const named = await call("GET", auth({ state: "s", provider: "nl_digid" }));
    const location = named.headers.get("location");
    const error = location ? new URL(location).searchParams.get("error") : null;
    expect(error ?? named.text).toMatch(/invalid_request/);
    expect(await sessionsOf(t.app.clientId)).toBe(0);
  });
});
