// Test sign-in through a connection (issue 24 §1): started by an operator's session only, run
// against a real OpenID Provider through the one registered callback, the result shown to the same
// session only, and nothing stored server-side.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  TEST_RESULT_COOKIE,
  TEST_SIGN_IN_COOKIE,
  readTestSignInResult,
} from "@/lib/connections/test-sign-in-cookies";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { opSettings } from "@/lib/testing/connections";
import { makeOperator, operatorSessionHeaders } from "@/lib/testing/factories";
import { bearer, call } from "@/lib/testing/router";
import { startUpstreamOp, type TUpstreamOp } from "@/lib/testing/upstream-oidc";
import { isolateTestDatabase } from "@/lib/testing/webhooks";
import { upstreamCallbackUrl } from "@/lib/verifications/upstream";

// connections are environment-wide: this file keeps its own database
isolateTestDatabase();

const PROVIDER = "fr_franceconnect";
const path = (providerId = PROVIDER) => `/api/production/v1/operator/connections/${providerId}`;
let op: TUpstreamOp;

beforeAll(async () => {
  op = await startUpstreamOp({
    redirectUri: upstreamCallbackUrl(),
    scopes: { eid: ["prenom", "nom"] },
    accounts: {
      marie: {
        claims: { given_name: "Marie", family_name: "Curie", prenom: "Marie", nom: "Curie" },
        acr: "eidas2",
      },
    },
  });
});

afterAll(async () => {
  await op.close();
});

/** name=value of a Set-Cookie line, and the line itself. */
function setCookie(res: { headers: Headers }, name: string): { pair: string; line: string } | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line ? { pair: line.split(";")[0]!, line } : undefined;
}

async function connectedOperator() {
  const operator = await makeOperator();
  const session = await operatorSessionHeaders(operator.userId);
  const put = await call("PUT", path(), {
    headers: session,
    body: {
      adapter: "oidc",
      // disabled: an operator tests a connection before offering it
      enabled: false,
      settings: opSettings(op, { scopes: ["openid", "profile", "eid"], acrToLoa: { eidas2: 2 } }),
    },
  });
  expect([200, 201]).toContain(put.status);
  return { operator, session };
}

async function startedSignIn(session: Record<string, string>) {
  const res = await call("POST", `${path()}/test-sign-in`, { headers: session });
  expect(res.status, res.text).toBe(200);
  const handOff = setCookie(res, TEST_SIGN_IN_COOKIE)!;
  expect(handOff.line).toMatch(/; Path=\/verify; HttpOnly; SameSite=Lax; Max-Age=600/);
  return { url: res.body.url as string, handOff: handOff.pair };
}

describe("test sign-in through a connection", () => {
  it("runs a real sign-in and shows the mapped and raw claims to the same session, storing nothing", async () => {
    const { session } = await connectedOperator();
    const before = await kysely()
      .selectFrom("providerConnections")
      .selectAll()
      .where("environment", "=", "production")
      .where("providerId", "=", PROVIDER)
      .executeTakeFirstOrThrow();
    const verifications = await countRows(kysely().selectFrom("verifications"));

    const { url, handOff } = await startedSignIn(session);
    expect(url.startsWith(`${op.issuer}/auth`)).toBe(true);
    const callback = await op.signIn(url, "marie");
    expect(`${callback.origin}${callback.pathname}`).toBe(upstreamCallbackUrl());

    const done = await call("GET", `/verify/callback${callback.search}`, {
      headers: { cookie: `${session.cookie}; ${handOff}` },
    });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`/operator/production/connections/${PROVIDER}/test-sign-in`);
    expect(setCookie(done, TEST_SIGN_IN_COOKIE)!.line).toContain("Max-Age=0");
    const result = setCookie(done, TEST_RESULT_COOKIE)!;
    expect(result.line).toMatch(/; Path=\/operator\/production\/connections; HttpOnly; SameSite=Lax/);
    // sealed: no claim in clear text
    expect(result.line).not.toContain("Marie");

    const shown = await readTestSignInResult(`${session.cookie}; ${result.pair}`, "production", PROVIDER);
    expect(shown).toMatchObject({
      outcome: "success",
      claims: { given_name: "Marie", family_name: "Curie" },
      rawClaims: { prenom: "Marie", nom: "Curie", given_name: "Marie" },
      loa: 2,
      evidence: { issuer: op.issuer, sub: "marie", acr: "eidas2" },
    });
    // another provider's page, or another session of the same operator, sees nothing
    expect(
      await readTestSignInResult(`${session.cookie}; ${result.pair}`, "production", "de_eid"),
    ).toBeNull();
    const other = await operatorSessionHeaders((await makeOperator()).userId);
    expect(await readTestSignInResult(`${other.cookie}; ${result.pair}`, "production", PROVIDER)).toBeNull();

    // nothing stored: no session, the connection's row untouched (health included)
    expect(await countRows(kysely().selectFrom("verifications"))).toBe(verifications);
    const after = await kysely()
      .selectFrom("providerConnections")
      .selectAll()
      .where("id", "=", before.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it("refuses the callback of another session, and shows the refusal only to the one that started it", async () => {
    const { operator, session } = await connectedOperator();
    const { url, handOff } = await startedSignIn(session);
    const callback = await op.signIn(url, "marie");
    // the same operator signed in elsewhere: another session id
    const elsewhere = await operatorSessionHeaders(operator.userId);
    const done = await call("GET", `/verify/callback${callback.search}`, {
      headers: { cookie: `${elsewhere.cookie}; ${handOff}` },
    });
    expect(done.status).toBe(303);
    const result = setCookie(done, TEST_RESULT_COOKIE)!.pair;
    expect(await readTestSignInResult(`${session.cookie}; ${result}`, "production", PROVIDER)).toMatchObject({
      outcome: "refused",
      claims: {},
      rawClaims: {},
      message: "This test sign-in was started by another session: start it again",
    });
    expect(await readTestSignInResult(`${elsewhere.cookie}; ${result}`, "production", PROVIDER)).toBeNull();
  });

  it("shows the upstream's cancellation", async () => {
    const { session } = await connectedOperator();
    const { url, handOff } = await startedSignIn(session);
    const callback = await op.cancel(url);
    const done = await call("GET", `/verify/callback${callback.search}`, {
      headers: { cookie: `${session.cookie}; ${handOff}` },
    });
    const result = setCookie(done, TEST_RESULT_COOKIE)!.pair;
    expect(await readTestSignInResult(`${session.cookie}; ${result}`, "production", PROVIDER)).toMatchObject({
      outcome: "cancelled",
    });
  });

  it("is refused to an operator key, without a connection, and with a forged hand-off", async () => {
    const { operator, session } = await connectedOperator();
    const byKey = await call("POST", `${path()}/test-sign-in`, { headers: bearer(operator.operatorKey) });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe("RESOURCE_FORBIDDEN");

    const none = await call("POST", `${path("de_eid")}/test-sign-in`, { headers: session });
    expect(none.status).toBe(404);
    const unknown = await call("POST", `${path("nope")}/test-sign-in`, { headers: session });
    expect(unknown.status).toBe(404);

    const forged = await call("GET", "/verify/callback?code=x&state=y", {
      headers: { cookie: `${session.cookie}; ${TEST_SIGN_IN_COOKIE}=v1.AAAA.BBBB.CCCC` },
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.getSetCookie()).toEqual([]);
  });
});
