/**
 * private_key_jwt and the registered client authentication method at the OpenID Provider's
 * /token (issue 28 item 2), over real HTTP: openid-client 6 `PrivateKeyJwt` for the happy paths,
 * hand-made assertions (jose) for every refusal.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { kysely } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { startHttpServer, type TTestServer } from "@/lib/testing/http-server";
import { makeOidcApp } from "@/lib/testing/oidc-requests";
import { basic, bearer, call } from "@/lib/testing/router";
import { issueCode, makeVerification } from "@/lib/testing/tokens";
import { CLIENT_ASSERTION_TYPE } from "./client-assertion";
import { purgeExpiredReplayEntries } from "./purge";

const REDIRECT = "https://rp.example.com/cb";
const ALGS = ["ES256", "PS256", "EdDSA", "RS256"] as const;
type TAlg = (typeof ALGS)[number];

let server: TTestServer;
let issuer: string;
const pairs = {} as Record<TAlg, { privateKey: CryptoKey; publicKey: CryptoKey }>;

/** A public JWK of `alg`'s pair, named `kid` (default: the alg). */
async function publicJwk(alg: TAlg, kid: string = alg): Promise<JWK> {
  return { ...(await exportJWK(pairs[alg].publicKey)), kid };
}

beforeAll(async () => {
  server = await startHttpServer();
  process.env.PUBLIC_URL = server.origin;
  // the jwksUri test serves the client's keys on loopback (lib/webhooks/ssrf.ts)
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
  issuer = `${server.origin}/oidc/sandbox`;
  for (const alg of ALGS) pairs[alg] = await generateKeyPair(alg, { extractable: true });
});
afterAll(async () => {
  await server.close();
});

/** An app registered for `settings` (PATCH /v1/apps): private_key_jwt with all four keys by default. */
async function keyApp(settings: Record<string, unknown> = {}) {
  return makeOidcApp(REDIRECT, ["passport"], {
    pkceRequired: false,
    tokenEndpointAuthMethod: "private_key_jwt",
    jwks: { keys: await Promise.all(ALGS.map((alg) => publicJwk(alg))) },
    ...settings,
  });
}

/** An OP code for a completed verification of `clientId`. */
async function opCode(clientId: string): Promise<string> {
  const v = await makeVerification(clientId);
  return issueCode(
    { id: v.id, appId: v.appId, environment: "sandbox" },
    { surface: "op", redirectUri: REDIRECT },
  );
}

/** A client assertion of `clientId` signed with `alg`'s key, `claims` on top of valid ones. */
function assertion(clientId: string, alg: TAlg, claims: JWTPayload = {}, kid: string = alg) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: clientId,
    sub: clientId,
    aud: issuer,
    jti: newId("req"),
    iat: now,
    exp: now + 60,
    ...claims,
  })
    .setProtectedHeader({ alg, kid })
    .sign(pairs[alg].privateKey);
}

/** A raw token request (from its own address: the limits of failed checks stay per test). */
async function token(
  params: Record<string, string>,
  headers: Record<string, string> = {},
  url = `${issuer}/token`,
  ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`,
) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip, ...headers },
    body: new URLSearchParams({ grant_type: "authorization_code", redirect_uri: REDIRECT, ...params }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

/** A token request with a client assertion of `clientId` for a fresh code. */
async function withAssertion(clientId: string, signed: string, extra: Record<string, string> = {}) {
  return token({
    code: await opCode(clientId),
    client_assertion_type: CLIENT_ASSERTION_TYPE,
    client_assertion: signed,
    ...extra,
  });
}

function expectInvalidClient(res: Awaited<ReturnType<typeof token>>, description: RegExp) {
  expect([res.status, res.body.error]).toEqual([401, "invalid_client"]);
  expect(res.body.error_description).toMatch(description);
  expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
}

/** openid-client configured for `clientId` with private_key_jwt of `alg`'s key. */
function rp(clientId: string, alg: TAlg, options?: client.ModifyAssertionOptions) {
  return client.discovery(
    new URL(issuer),
    clientId,
    undefined,
    client.PrivateKeyJwt({ key: pairs[alg].privateKey, kid: alg }, options),
    { execute: [client.allowInsecureRequests] },
  );
}

describe("private_key_jwt with openid-client", () => {
  it("completes a sandbox sign-in with an ES256 key (PKCE, nonce, iss)", async () => {
    const t = await keyApp();
    const config = await rp(t.app.clientId, "ES256");
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      nonce,
      provider: "passport",
    });
    const browser = new CookieJar();
    const started = await browser.fetch(url.href);
    expect(started.status).toBe(303);
    const handoff = new URL(started.headers.get("location")!);
    const id = handoff.pathname.split("/")[2]!;
    expect((await browser.fetch(handoff.toString())).status).toBe(303);
    expect((await t.simulate(id, { outcome: "success" })).status).toBe(200);
    const status = (await (await browser.fetch(`${server.origin}/verify/${id}/status`)).json()) as {
      next: string;
    };
    const resumed = await browser.fetch(status.next);
    expect(resumed.status).toBe(303);
    const tokens = await client.authorizationCodeGrant(config, new URL(resumed.headers.get("location")!), {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.claims()!.aud).toBe(t.app.clientId);
  });

  it.each([
    ["PS256", undefined],
    ["EdDSA", "Ed25519"],
    ["EdDSA", "EdDSA"],
    ["RS256", undefined],
  ] as const)("redeems a code with a %s key (alg %s)", async (alg, headerAlg) => {
    const t = await keyApp();
    const config = await rp(
      t.app.clientId,
      alg,
      // openid-client names an Ed25519 key's alg "Ed25519" (RFC 9864); "EdDSA" is the older name
      headerAlg === "EdDSA"
        ? { [client.modifyAssertion]: (header) => void (header.alg = "EdDSA") }
        : undefined,
    );
    const callback = new URL(REDIRECT);
    callback.searchParams.set("code", await opCode(t.app.clientId));
    callback.searchParams.set("iss", issuer);
    const tokens = await client.authorizationCodeGrant(config, callback, { idTokenExpected: true });
    expect(tokens.claims()!.aud).toBe(t.app.clientId);
  });
});

describe("the registered method", () => {
  it("refuses the client secret of a private_key_jwt app at the OP, still accepts it at the REST /token", async () => {
    const t = await keyApp();
    const code = await opCode(t.app.clientId);
    const res = await token({ code }, basic(t.app.clientId, t.app.clientSecret));
    expectInvalidClient(res, /^This client authenticates with private_key_jwt/);
    const post = await token({ code, client_id: t.app.clientId, client_secret: t.app.clientSecret });
    expectInvalidClient(post, /^This client authenticates with private_key_jwt/);
    // a wrong secret says nothing about the method
    expectInvalidClient(
      await token({ code }, basic(t.app.clientId, "cs_test_wrong")),
      /^Invalid client credentials$/,
    );
    // the code was left unused: the assertion redeems it
    const ok = await token({
      code,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: await assertion(t.app.clientId, "ES256"),
    });
    expect(ok.status).toBe(200);
    // the REST /token keeps accepting the secret methods for any app
    const v = await makeVerification(t.app.clientId);
    const restCode = await issueCode({ id: v.id, appId: v.appId, environment: "sandbox" });
    const rest = await token(
      { code: restCode },
      basic(t.app.clientId, t.app.clientSecret),
      `${server.origin}/api/sandbox/token`,
    );
    expect(rest.status).toBe(200);
  });

  it("refuses an assertion at the REST /token", async () => {
    const t = await keyApp();
    const v = await makeVerification(t.app.clientId);
    const res = await token(
      {
        code: await issueCode({ id: v.id, appId: v.appId, environment: "sandbox" }),
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        client_assertion: await assertion(t.app.clientId, "ES256"),
      },
      {},
      `${server.origin}/api/sandbox/token`,
    );
    expectInvalidClient(res, /private_key_jwt is accepted at the OpenID Provider's \/token and \/par only/);
  });

  it("refuses the assertion of a secret app: by its method when the signature verifies, else unverified", async () => {
    const withKeys = await keyApp({ tokenEndpointAuthMethod: "client_secret_basic" });
    expectInvalidClient(
      await withAssertion(withKeys.app.clientId, await assertion(withKeys.app.clientId, "ES256")),
      /^This client authenticates with client_secret_basic \(its registered method\), not private_key_jwt$/,
    );
    const noKeys = await makeOidcApp(REDIRECT, ["passport"], { pkceRequired: false });
    const unknown = `app_${newId("req").slice(4)}`;
    const a = await withAssertion(noKeys.app.clientId, await assertion(noKeys.app.clientId, "ES256"));
    expectInvalidClient(a, /signature does not verify with a key the client registered/);
    // an unknown client gets the very same answer
    const b = await token({
      code: "x".repeat(43),
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: await assertion(unknown, "ES256"),
    });
    expect(b.body).toEqual(a.body);
  });

  it("refuses an assertion mixed with the secret (400 invalid_request)", async () => {
    const t = await keyApp();
    const code = await opCode(t.app.clientId);
    const signed = await assertion(t.app.clientId, "ES256");
    const params = { code, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: signed };
    for (const res of [
      await token(params, basic(t.app.clientId, t.app.clientSecret)),
      await token({ ...params, client_secret: t.app.clientSecret }),
    ]) {
      expect([res.status, res.body.error]).toEqual([400, "invalid_request"]);
      expect(res.body.error_description).toMatch(/one client authentication method/);
    }
    const noType = await token({ code, client_assertion: signed });
    expect([noType.status, noType.body.error, noType.body.error_description]).toEqual([
      400,
      "invalid_request",
      "client_assertion_type: is required with client_assertion",
    ]);
    expectInvalidClient(
      await token({
        ...params,
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:saml2-bearer",
      }),
      /^client_assertion_type: must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer$/,
    );
  });
});

describe("the assertion's rules", () => {
  it("accepts a jti once", async () => {
    const t = await keyApp();
    const signed = await assertion(t.app.clientId, "ES256");
    expect((await withAssertion(t.app.clientId, signed)).status).toBe(200);
    expectInvalidClient(
      await withAssertion(t.app.clientId, signed),
      /^client_assertion: its jti has been used already$/,
    );
  });

  it("forgets a jti once it expired (oidc_purge)", async () => {
    const t = await keyApp();
    const signed = await assertion(t.app.clientId, "ES256");
    expect((await withAssertion(t.app.clientId, signed)).status).toBe(200);
    const scope = `client_assertion:${t.app.clientId}`;
    const remembered = () =>
      kysely().selectFrom("oidcReplay").select("key").where("scope", "=", scope).execute();
    expect(await remembered()).toHaveLength(1);
    // still valid: kept
    await purgeExpiredReplayEntries(kysely());
    expect(await remembered()).toHaveLength(1);
    expect(await purgeExpiredReplayEntries(kysely(), { now: new Date(Date.now() + 61_000) })).toBeGreaterThan(
      0,
    );
    expect(await remembered()).toHaveLength(0);
  });

  it("refuses a wrong aud, accepts the issuer or the token or PAR endpoint", async () => {
    const t = await keyApp();
    const id = t.app.clientId;
    expectInvalidClient(
      await withAssertion(id, await assertion(id, "ES256", { aud: "https://elsewhere.example.com" })),
      /^client_assertion: aud must name the issuer/,
    );
    for (const aud of [issuer, `${issuer}/token`, [`${issuer}/par`, "https://x.example"]])
      expect((await withAssertion(id, await assertion(id, "ES256", { aud }))).status).toBe(200);
  });

  it("refuses an expired assertion, iss ≠ sub, a body client_id of another app and a too long lifetime", async () => {
    const t = await keyApp();
    const id = t.app.clientId;
    const now = Math.floor(Date.now() / 1000);
    expectInvalidClient(
      await withAssertion(id, await assertion(id, "ES256", { iat: now - 120, exp: now - 60 })),
      /^client_assertion: has expired \(exp\)$/,
    );
    expectInvalidClient(
      await withAssertion(id, await assertion(id, "ES256", { iss: "app_someoneelse" })),
      /^client_assertion: iss and sub must both be the client_id$/,
    );
    expectInvalidClient(
      await withAssertion(id, await assertion(id, "ES256"), { client_id: "app_someoneelse" }),
      /^client_id: does not match the sub of client_assertion$/,
    );
    expectInvalidClient(
      await withAssertion(id, await assertion(id, "ES256", { exp: now + 3600 })),
      /^client_assertion: exp must be at most 600 seconds after iat$/,
    );
  });

  it("under fapi2: only the issuer as aud, no RS256", async () => {
    const t = await keyApp();
    const patched = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
      headers: bearer(t.ws.keys.sandbox),
      body: { oidcProfile: "fapi2" },
    });
    expect(patched.status).toBe(200);
    const id = t.app.clientId;
    expectInvalidClient(
      await withAssertion(id, await assertion(id, "ES256", { aud: `${issuer}/token` })),
      /^client_assertion: aud must be the issuer identifier .* \(FAPI 2\.0\), alone$/,
    );
    expectInvalidClient(
      await withAssertion(id, await assertion(id, "RS256")),
      /^client_assertion: alg "RS256" is not accepted for this client; sign with one of ES256, PS256, EdDSA/,
    );
    // the client is authenticated: what follows is the profile's DPoP rule, no longer the client's
    const ok = await withAssertion(id, await assertion(id, "ES256"));
    expect(ok.body.error).not.toBe("invalid_client");
  });

  it("counts failed assertions against the client's limit of failed checks", async () => {
    process.env.IDV_CREDENTIAL_LIMIT_CLIENT = "3";
    try {
      const t = await keyApp();
      const id = t.app.clientId;
      const bad = async () =>
        token({
          code: "x".repeat(43),
          client_assertion_type: CLIENT_ASSERTION_TYPE,
          client_assertion: await assertion(id, "ES256", { aud: "https://elsewhere.example.com" }),
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await bad()).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await bad();
      expect(limited.body.error).toBe("slow_down");
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      delete process.env.IDV_CREDENTIAL_LIMIT_CLIENT;
    }
  });
});

describe("jwksUri", () => {
  it("fetches the client's keys through the SSRF guard and fetches again for a rotated key", async () => {
    let served: JWK[] = [await publicJwk("ES256", "key-1")];
    const fetched: string[] = [];
    const jwksServer = http.createServer((req, res) => {
      fetched.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: served }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
    try {
      const uri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
      const t = await makeOidcApp(REDIRECT, ["passport"], { pkceRequired: false });
      // a loopback http URI is no valid setting (PATCH refuses it): written directly
      await kysely()
        .updateTable("apps")
        .set({ tokenEndpointAuthMethod: "private_key_jwt", jwksUri: uri })
        .where("id", "=", t.app.clientId)
        .execute();
      const id = t.app.clientId;
      expect((await withAssertion(id, await assertion(id, "ES256", {}, "key-1"))).status).toBe(200);
      expect(fetched).toEqual(["/jwks.json"]);
      // rotated at the client: the new kid is unknown to the cache; once the cooldown (30 s) has
      // passed, the set is fetched again
      served = [await publicJwk("PS256", "key-2")];
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 31_000);
      try {
        expect((await withAssertion(id, await assertion(id, "PS256", {}, "key-2"))).status).toBe(200);
      } finally {
        vi.useRealTimers();
      }
      expect(fetched).toEqual(["/jwks.json", "/jwks.json"]);
      // the old key is gone
      expectInvalidClient(
        await withAssertion(id, await assertion(id, "ES256", {}, "key-1")),
        /signature does not verify with a key the client registered/,
      );
    } finally {
      await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
    }
  });
});
