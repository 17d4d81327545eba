// Test sign-in through a saml connection (issue 24 §1, through the one adapter interface): started
// by an operator's session, answered by a SAML identity provider built with samlify through the
// connection's ACS (a cross-site post: the RelayState is a short random key to the hand-off kept
// server-side, single use, 10 minutes), the result shown to the same session only, and nothing
// else stored server-side.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  TEST_RESULT_COOKIE,
  TEST_SIGN_IN_COOKIE,
  readTestSignInResult,
} from "@/lib/connections/test-sign-in-cookies";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { makeOperator, operatorSessionHeaders } from "@/lib/testing/factories";
import { call } from "@/lib/testing/router";
import { fixture, samlConnectionSettings, startSamlIdp, type TSamlIdp } from "@/lib/testing/saml-idp";
import { isolateTestDatabase } from "@/lib/testing/webhooks";

// connections are environment-wide: this file keeps its own database
isolateTestDatabase();

const PROVIDER = "es_clave";
const path = `/api/production/v1/operator/connections/${PROVIDER}`;
const ACS = `/verify/saml/production/${PROVIDER}/acs`;
const HIGH = "http://eidas.europa.eu/LoA/high";
const EIDAS = "http://eidas.europa.eu/attributes/naturalperson/";
const PERSON = {
  personIdentifier: "ES/DE/99999999R",
  familyName: "García",
  firstName: "Lucía",
  dateOfBirth: "1985-07-30",
};

let idp: TSamlIdp;
let session: Record<string, string>;
let operatorUserId: string;

function setCookie(res: { headers: Headers }, name: string): { pair: string; line: string } | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line ? { pair: line.split(";")[0]!, line } : undefined;
}

/** The IdP's cross-site post: no cookie of ours comes with it. */
function post(form: { SAMLResponse?: string; RelayState?: string }, acs = ACS) {
  return call("POST", acs, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    rawBody: new URLSearchParams(form as Record<string, string>).toString(),
  });
}

async function started(): Promise<string> {
  const res = await call("POST", `${path}/test-sign-in`, { headers: session });
  expect(res.status, res.text).toBe(200);
  // the hand-off is found from the RelayState, not from a cookie
  expect(setCookie(res, TEST_SIGN_IN_COOKIE)).toBeUndefined();
  return res.body.url as string;
}

beforeAll(async () => {
  const operator = await makeOperator();
  operatorUserId = operator.userId;
  session = await operatorSessionHeaders(operator.userId);
  const bootstrap = startSamlIdp("");
  const put = await call("PUT", path, {
    headers: session,
    body: {
      adapter: "saml",
      // disabled: an operator tests a connection before offering it
      enabled: false,
      settings: samlConnectionSettings(bootstrap.metadataXml, { requestedLoa: HIGH }),
    },
  });
  expect(put.status, put.text).toBe(201);
  const metadata = await call("GET", `/verify/saml/production/${PROVIDER}/metadata`);
  expect(metadata.status).toBe(200);
  idp = startSamlIdp(metadata.text);
});

afterEach(() => {
  vi.useRealTimers();
});

/** A post the ACS refused: 400, and no cookie (no result for anyone). */
function expectRefused(res: { status: number; text: string; headers: Headers }, label: string) {
  expect(res.status, `${label}: ${res.text}`).toBe(400);
  expect(res.headers.getSetCookie(), label).toEqual([]);
}

describe("test sign-in through a saml connection", () => {
  it("runs a real sign-in through the ACS and shows the mapped and raw claims to the same session, storing nothing", async () => {
    const before = await kysely()
      .selectFrom("providerConnections")
      .selectAll()
      .where("environment", "=", "production")
      .where("providerId", "=", PROVIDER)
      .executeTakeFirstOrThrow();
    const verifications = await countRows(kysely().selectFrom("verifications"));

    const url = await started();
    expect(url.startsWith("https://idp.example-eid.test/sso?")).toBe(true);
    // a signed AuthnRequest for our ACS, checked by the IdP against the SP metadata we serve
    const request = await idp.readRequest(url);
    expect(request.xml).toContain(`AssertionConsumerServiceURL="http://localhost:3000${ACS}"`);
    const relayState = new URL(url).searchParams.get("RelayState")!;
    // SAML Bindings §3.4.3/§3.5.3: at most 80 bytes (eIDAS nodes and SPID refuse longer ones)
    expect(Buffer.byteLength(relayState, "utf8")).toBeLessThanOrEqual(80);
    expect(relayState).toMatch(/^t\.[A-Za-z0-9_-]{32}$/);
    // a random key: nothing of the operator in it
    expect(relayState).not.toContain(session.cookie!.split("=")[1]!.slice(0, 20));
    // the hand-off kept server-side until the answer, sealed
    const kept = await kysely().selectFrom("connectionTestHandOffs").selectAll().execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ environment: "production", providerId: PROVIDER });
    // under a digest of the RelayState, sealed: neither it nor the operator's id in clear text
    expect(kept[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(kept[0]!.handOffSealed).not.toContain(operatorUserId);

    const form = await idp.answer(url, { person: PERSON, loa: HIGH, encrypt: true });
    expect(form.RelayState).toBe(relayState);
    const done = await post(form);
    expect(done.status, done.text).toBe(303);
    expect(done.headers.get("location")).toBe(`/operator/production/connections/${PROVIDER}/test-sign-in`);
    const result = setCookie(done, TEST_RESULT_COOKIE)!;
    expect(result.line).toMatch(/; Path=\/operator\/production\/connections; HttpOnly; SameSite=Lax/);
    expect(result.line).not.toContain("Lucía");

    const shown = await readTestSignInResult(`${session.cookie}; ${result.pair}`, "production", PROVIDER);
    expect(shown).toMatchObject({
      outcome: "success",
      claims: { given_name: "Lucía", family_name: "García", birthdate: "1985-07-30" },
      rawClaims: { [`${EIDAS}FirstName`]: "Lucía" },
      loa: 3,
    });
    // another session of another operator sees nothing
    const other = await operatorSessionHeaders((await makeOperator()).userId);
    expect(await readTestSignInResult(`${other.cookie}; ${result.pair}`, "production", PROVIDER)).toBeNull();

    // nothing stored: the hand-off consumed, no session, the connection's row untouched (health included)
    expect(await countRows(kysely().selectFrom("connectionTestHandOffs"))).toBe(0);
    expect(await countRows(kysely().selectFrom("verifications"))).toBe(verifications);
    const after = await kysely()
      .selectFrom("providerConnections")
      .selectAll()
      .where("id", "=", before.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it("shows a refused response's precise cause to the operator (a bad signature)", async () => {
    const url = await started();
    const form = await idp.answer(url, { person: PERSON, loa: HIGH, privateKey: fixture("other-key.pem") });
    const done = await post(form);
    expect(done.status).toBe(303);
    const result = setCookie(done, TEST_RESULT_COOKIE)!.pair;
    expect(await readTestSignInResult(`${session.cookie}; ${result}`, "production", PROVIDER)).toMatchObject({
      outcome: "failure",
      reason: "bad_signature",
      claims: {},
    });
  });

  it("answers 400 to a forged or garbled test RelayState, and to the right one at another provider's ACS", async () => {
    const url = await started();
    const form = await idp.answer(url, { person: PERSON, loa: HIGH });
    const unknown = `t.${"A".repeat(32)}`;
    for (const relayState of [
      "t.",
      "t.v1.AAAA.BBBB.CCCC",
      `${form.RelayState}x`,
      unknown,
      form.RelayState.slice(0, -1),
    ]) {
      expectRefused(await post({ SAMLResponse: form.SAMLResponse, RelayState: relayState }), relayState);
    }
    expectRefused(await post(form, "/verify/saml/production/it_cie/acs"), "another provider's ACS");
    expectRefused(await post(form, `/verify/saml/sandbox/${PROVIDER}/acs`), "another environment's ACS");
    expectRefused(await post(form, `/verify/saml/nowhere/${PROVIDER}/acs`), "no environment's ACS");
    // the real one still completes
    const done = await post(form);
    expect(done.status).toBe(303);
    const result = setCookie(done, TEST_RESULT_COOKIE)!.pair;
    expect(await readTestSignInResult(`${session.cookie}; ${result}`, "production", PROVIDER)).toMatchObject({
      outcome: "success",
    });
  });

  it("refuses a used RelayState: the second post of the same answer is 400 and sets no cookie", async () => {
    const url = await started();
    const form = await idp.answer(url, { person: PERSON, loa: HIGH });
    const done = await post(form);
    expect(done.status, done.text).toBe(303);
    expect(setCookie(done, TEST_RESULT_COOKIE)).toBeDefined();
    expectRefused(await post(form), "the same post again");
    // a fresh answer of the IdP for the same request, under the same RelayState: refused too
    expectRefused(
      await post(await idp.answer(url, { person: PERSON, loa: HIGH })),
      "another answer, same RelayState",
    );
  });

  it("refuses an expired RelayState (over 10 minutes): 400 and no cookie, the row gone", async () => {
    const url = await started();
    const form = await idp.answer(url, { person: PERSON, loa: HIGH });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 + 1000 });
    expectRefused(await post(form), "expired");
    vi.useRealTimers();
    expect(await countRows(kysely().selectFrom("connectionTestHandOffs"))).toBe(0);
    // and it stays refused once the clock is back
    expectRefused(await post(form), "expired, posted again");
  });
});
