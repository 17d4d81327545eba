import * as client from "openid-client";
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { kysely } from "@/lib/db/client";
import { startHttpServer, type TTestServer } from "@/lib/testing/http-server";
import { makeOidcApp } from "@/lib/testing/oidc-requests";
import { errorPageCode, setOidcSettings, signInFlow } from "@/lib/testing/oidc-signin";
import { parTtlSeconds } from "./par";

const REDIRECT = "https://rp.example.com/cb";

let server: TTestServer;
let issuer: string;
let flow: ReturnType<typeof signInFlow>;

beforeAll(async () => {
  server = await startHttpServer();
  process.env.PUBLIC_URL = server.origin;
  issuer = `${server.origin}/oidc/sandbox`;
  flow = signInFlow(server.origin);
});
afterAll(async () => {
  await server.close();
});

const oidcApp = () => makeOidcApp(REDIRECT, ["passport"], { pkceRequired: false });
type TApp = Awaited<ReturnType<typeof oidcApp>>;

/** openid-client configured for `t` from discovery (which names the PAR endpoint). */
async function rp(t: TApp, auth: client.ClientAuth = client.ClientSecretBasic(t.app.clientSecret)) {
  const meta = (await (
    await fetch(`${issuer}/.well-known/openid-configuration`)
  ).json()) as client.ServerMetadata;
  expect(meta.pushed_authorization_request_endpoint).toBe(`${issuer}/par`);
  const config = new client.Configuration(meta, t.app.clientId, undefined, auth);
  client.allowInsecureRequests(config);
  return config;
}

const basicAuth = (t: TApp) =>
  `Basic ${Buffer.from(`${encodeURIComponent(t.app.clientId)}:${encodeURIComponent(t.app.clientSecret)}`).toString("base64")}`;

/** POST /par with `params` (entries, so a parameter can be repeated) and `t`'s Basic credentials. */
async function push(t: TApp | undefined, params: [string, string][], headers: Record<string, string> = {}) {
  const res = await fetch(`${issuer}/par`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(t ? { authorization: basicAuth(t) } : {}),
      ...headers,
    },
    body: new URLSearchParams(params).toString(),
  });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

const request = (t: TApp, extra: Record<string, string> = {}): [string, string][] =>
  Object.entries({
    client_id: t.app.clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "openid profile",
    provider: "passport",
    state: "st-par",
    ...extra,
  });

const authWith = (clientId: string, requestUri: string, extra: Record<string, string> = {}) =>
  `${issuer}/auth?${new URLSearchParams({ client_id: clientId, request_uri: requestUri, ...extra }).toString()}`;

const pushedRow = (requestUri: string) =>
  kysely()
    .selectFrom("oidcPushedRequests")
    .selectAll()
    .where("id", "=", sha256Hex(requestUri.split(":").pop()!))
    .executeTakeFirstOrThrow();

async function errorPage(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(400);
  expect(res.headers.get("location")).toBeNull();
  return errorPageCode(await res.text());
}

describe("PAR (RFC 9126)", () => {
  it("openid-client pushes with client_secret_basic; the request_uri signs in once and yields a code", async () => {
    const t = await oidcApp();
    const config = await rp(t);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      provider: "passport",
    });
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    const requestUri = url.searchParams.get("request_uri")!;
    expect(requestUri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
    const row = await pushedRow(requestUri);
    expect(row.appId).toBe(t.app.clientId);
    expect(row.params).toMatchObject({ redirect_uri: REDIRECT, state, nonce, provider: "passport" });
    expect(row.params).not.toHaveProperty("client_secret");
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(parTtlSeconds() * 1000);

    const { location } = await flow.signIn(t.simulate, url.href);
    expect(location.searchParams.get("iss")).toBe(issuer);
    const tokens = await client.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()!.amr).toEqual(["passport"]);
    expect((await pushedRow(requestUri)).usedAt).not.toBeNull();
    // used: the same request_uri again
    expect(await errorPage(url.href)).toBe("invalid_request_uri");
  });

  it("answers 201 with no-store and ignores the outer parameters of /auth", async () => {
    const t = await oidcApp();
    const { res, body } = await push(t, request(t, { state: "pushed-state" }));
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body.expires_in).toBe(parTtlSeconds());
    const { id } = await flow.startSignIn(
      authWith(t.app.clientId, body.request_uri as string, {
        state: "outer",
        redirect_uri: "https://evil.example/cb",
      }),
    );
    const stored = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .selectAll()
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe("pushed-state");
    expect(stored.redirectUri).toBe(REDIRECT);
  });

  it("a pushed request without provider: the picker carries only client_id and request_uri, and the choice completes it", async () => {
    const t = await oidcApp();
    const { body } = await push(
      t,
      request(t, { provider: "" }).filter(([k]) => k !== "provider"),
    );
    const requestUri = body.request_uri as string;
    const res = await fetch(authWith(t.app.clientId, requestUri), { redirect: "manual" });
    expect(res.status).toBe(303);
    const picker = new URL(res.headers.get("location")!, `${issuer}/auth`);
    expect(picker.pathname).toBe("/oidc/sandbox/select");
    expect([...picker.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    // not used by the picker
    expect((await pushedRow(requestUri)).usedAt).toBeNull();
    await flow.startSignIn(authWith(t.app.clientId, requestUri, { provider: "passport" }));
    expect((await pushedRow(requestUri)).usedAt).not.toBeNull();
  });

  it("refuses an expired request_uri, another client's and an unknown one with invalid_request_uri", async () => {
    const t = await oidcApp();
    const other = await oidcApp();
    const { body } = await push(t, request(t));
    const requestUri = body.request_uri as string;
    expect(await errorPage(authWith(other.app.clientId, requestUri))).toBe("invalid_request_uri");
    expect(
      await errorPage(authWith(t.app.clientId, `urn:ietf:params:oauth:request_uri:${"A".repeat(43)}`)),
    ).toBe("invalid_request_uri");
    expect(await errorPage(authWith(t.app.clientId, "urn:ietf:params:oauth:request_uri:short"))).toBe(
      "invalid_request_uri",
    );
    await kysely()
      .updateTable("oidcPushedRequests")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", sha256Hex(requestUri.split(":").pop()!))
      .execute();
    expect(await errorPage(authWith(t.app.clientId, requestUri))).toBe("invalid_request_uri");
    // still not used: nothing was started
    expect((await pushedRow(requestUri)).usedAt).toBeNull();
  });

  it("keeps refusing request_uri values that are not ours (request_uri_not_supported)", async () => {
    const t = await oidcApp();
    const res = await fetch(
      `${issuer}/auth?${new URLSearchParams([...request(t), ["request_uri", "https://rp.example.com/r"]])}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("request_uri_not_supported");
  });

  it.each([
    ["no client authentication", undefined, {}, 401, "invalid_client"],
    ["a wrong secret", "wrong", {}, 401, "invalid_client"],
    [
      "an unregistered redirect_uri",
      null,
      { redirect_uri: "https://evil.example.com/cb" },
      400,
      "invalid_request",
    ],
    [
      "request_uri in the body",
      null,
      { request_uri: "urn:ietf:params:oauth:request_uri:x" },
      400,
      "invalid_request",
    ],
    ["another client_id", null, { client_id: "app_other" }, 400, "invalid_request"],
    ["response_type token", null, { response_type: "token" }, 400, "unsupported_response_type"],
    ["no openid scope", null, { scope: "profile" }, 400, "invalid_scope"],
    [
      "plain PKCE",
      null,
      { code_challenge: "x".repeat(43), code_challenge_method: "plain" },
      400,
      "invalid_request",
    ],
    ["prompt=none", null, { prompt: "none" }, 400, "login_required"],
    ["a bad max_age", null, { max_age: "-1" }, 400, "invalid_request"],
    ["an unavailable provider", null, { provider: "de_eid" }, 400, "invalid_request"],
    ["a bad dpop_jkt", null, { dpop_jkt: "short" }, 400, "invalid_request"],
    [
      "a request object that does not verify",
      null,
      { request: "eyJhbGciOiJub25lIn0.e30." },
      400,
      "invalid_request_object",
    ],
  ] as const)("refuses %s as JSON, never a redirect", async (_name, secret, extra, status, error) => {
    const t = await oidcApp();
    const who = secret === "wrong" ? { ...t, app: { ...t.app, clientSecret: "wrong" } } : t;
    const { res, body } = await push(secret === undefined ? undefined : who, request(t, extra));
    expect(res.status).toBe(status);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body.error).toBe(error);
    expect(typeof body.error_description).toBe("string");
    expect(
      await kysely()
        .selectFrom("oidcPushedRequests")
        .select("id")
        .where("appId", "=", t.app.clientId)
        .execute(),
    ).toEqual([]);
  });

  it("refuses a repeated parameter, a non-form body and other methods", async () => {
    const t = await oidcApp();
    const repeated = await push(t, [...request(t), ["scope", "openid"]]);
    expect(repeated.res.status).toBe(400);
    expect(repeated.body).toMatchObject({ error: "invalid_request" });
    expect(repeated.body.error_description).toContain("scope");
    const json = await fetch(`${issuer}/par`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: basicAuth(t) },
      body: JSON.stringify(Object.fromEntries(request(t))),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe("invalid_request");
    const get = await fetch(`${issuer}/par`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toContain("POST");
  });

  it("a PAR-required app: plain /auth refused (redirected with state and iss), PAR accepted", async () => {
    const t = await oidcApp();
    await setOidcSettings(t.app.clientId, { requirePushedAuthorizationRequests: true });
    const plain = await fetch(`${issuer}/auth?${new URLSearchParams(request(t))}`, { redirect: "manual" });
    expect(plain.status).toBe(303);
    const loc = new URL(plain.headers.get("location")!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get("error")).toBe("invalid_request");
    expect(loc.searchParams.get("error_description")).toContain("pushed authorization requests");
    expect(loc.searchParams.get("state")).toBe("st-par");
    expect(loc.searchParams.get("iss")).toBe(issuer);
    const { body } = await push(t, request(t));
    await flow.startSignIn(authWith(t.app.clientId, body.request_uri as string));
  });

  it("a fapi2 app: plain /auth refused with invalid_request", async () => {
    const t = await oidcApp();
    await setOidcSettings(t.app.clientId, { oidcProfile: "fapi2" });
    const plain = await fetch(`${issuer}/auth?${new URLSearchParams(request(t))}`, { redirect: "manual" });
    expect(plain.status).toBe(303);
    const loc = new URL(plain.headers.get("location")!);
    expect(loc.searchParams.get("error")).toBe("invalid_request");
    expect(loc.searchParams.get("error_description")).toContain("(PAR)");
  });

  it("a PKCE-required app: PAR without code_challenge refused", async () => {
    const t = await oidcApp();
    await setOidcSettings(t.app.clientId, { pkceRequired: true });
    const { res, body } = await push(t, request(t));
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ error: "invalid_request" });
    expect(body.error_description).toContain("code_challenge");
  });
});

describe("the FAPI 2.0 profile end to end", () => {
  it("a fapi2 app's code lives 60 s: PAR + private_key_jwt + DPoP + PKCE sign in; a code presented after 60 s is invalid_grant", async () => {
    const t = await oidcApp();
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: "fapi-1", alg: "ES256", use: "sig" };
    await setOidcSettings(t.app.clientId, {
      oidcProfile: "fapi2",
      tokenEndpointAuthMethod: "private_key_jwt",
      jwks: { keys: [jwk] },
      requirePushedAuthorizationRequests: true,
      requireDpop: true,
      pkceRequired: true,
    });
    const config = await rp(t, client.PrivateKeyJwt({ key: privateKey, kid: "fapi-1" }));
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair("ES256"));
    const sign = async () => {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = await client.buildAuthorizationUrlWithPAR(
        config,
        {
          redirect_uri: REDIRECT,
          scope: "openid",
          provider: "passport",
          state,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
        },
        { DPoP: dpop },
      );
      const { location } = await flow.signIn(t.simulate, url.href);
      return { verifier, state, location };
    };
    // in time: a DPoP-bound token
    const first = await sign();
    const tokens = await client.authorizationCodeGrant(
      config,
      first.location,
      { pkceCodeVerifier: first.verifier, expectedState: first.state },
      undefined,
      { DPoP: dpop },
    );
    expect(tokens.token_type).toBe("dpop");
    // the next code: 60 s of life, then refused
    const late = await sign();
    const codeHash = sha256Hex(late.location.searchParams.get("code")!);
    const row = await kysely()
      .selectFrom("authorizationCodes")
      .select(["createdAt", "expiresAt"])
      .where("codeHash", "=", codeHash)
      .executeTakeFirstOrThrow();
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(60_000);
    await kysely()
      .updateTable("authorizationCodes")
      .set({ createdAt: new Date(Date.now() - 61_000), expiresAt: new Date(Date.now() - 1000) })
      .where("codeHash", "=", codeHash)
      .execute();
    await expect(
      client.authorizationCodeGrant(
        config,
        late.location,
        { pkceCodeVerifier: late.verifier, expectedState: late.state },
        undefined,
        { DPoP: dpop },
      ),
    ).rejects.toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/expired/) });
  });
});

describe("DPoP key binding of the code (RFC 9449 §10)", () => {
  it("dpop_jkt at /auth is stored and carried to the code", async () => {
    const t = await oidcApp();
    const jkt = "N".repeat(43);
    const url = `${issuer}/auth?${new URLSearchParams(request(t, { dpop_jkt: jkt }))}`;
    const { id, location } = await flow.signIn(t.simulate, url);
    const stored = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .select("dpopJkt")
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.dpopJkt).toBe(jkt);
    const code = await kysely()
      .selectFrom("authorizationCodes")
      .select("dpopJkt")
      .where("codeHash", "=", sha256Hex(location.searchParams.get("code")!))
      .executeTakeFirstOrThrow();
    expect(code.dpopJkt).toBe(jkt);
  });

  it("a DPoP proof at /par binds the pushed request (openid-client, with its nonce retry) and the code", async () => {
    const t = await oidcApp();
    const config = await rp(t);
    const keyPair = await client.randomDPoPKeyPair();
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
    const url = await client.buildAuthorizationUrlWithPAR(
      config,
      { redirect_uri: REDIRECT, scope: "openid", provider: "passport" },
      { DPoP: client.getDPoPHandle(config, keyPair) },
    );
    const row = await pushedRow(url.searchParams.get("request_uri")!);
    expect(row.dpopJkt).toBe(jkt);
    const { location } = await flow.signIn(t.simulate, url.href);
    const code = await kysely()
      .selectFrom("authorizationCodes")
      .select("dpopJkt")
      .where("codeHash", "=", sha256Hex(location.searchParams.get("code")!))
      .executeTakeFirstOrThrow();
    expect(code.dpopJkt).toBe(jkt);
  });

  it("a dpop_jkt that is not the proof's key is invalid_dpop_proof; a proof without nonce is use_dpop_nonce", async () => {
    const t = await oidcApp();
    const config = await rp(t);
    const keyPair = await client.randomDPoPKeyPair();
    await expect(
      client.buildAuthorizationUrlWithPAR(
        config,
        { redirect_uri: REDIRECT, scope: "openid", provider: "passport", dpop_jkt: "M".repeat(43) },
        { DPoP: client.getDPoPHandle(config, keyPair) },
      ),
    ).rejects.toMatchObject({ error: "invalid_dpop_proof" });
    const { SignJWT } = await import("jose");
    const proof = await new SignJWT({ htm: "POST", htu: `${issuer}/par`, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(keyPair.publicKey) })
      .setIssuedAt()
      .sign(keyPair.privateKey);
    const { res, body } = await push(t, request(t), { dpop: proof });
    expect(res.status).toBe(400);
    expect(body.error).toBe("use_dpop_nonce");
    expect(res.headers.get("dpop-nonce")).toBeTruthy();
  });
});
