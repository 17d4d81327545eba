import * as client from "openid-client";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { startHttpServer, type TTestServer } from "@/lib/testing/http-server";
import { makeOidcApp } from "@/lib/testing/oidc-requests";
import { errorPageCode, setOidcSettings, signInFlow } from "@/lib/testing/oidc-signin";

const REDIRECT = "https://rp.example.com/cb";

let server: TTestServer;
let issuer: string;
let flow: ReturnType<typeof signInFlow>;
let es256: { privateKey: CryptoKey; jwk: JWK };
let rs256: { privateKey: CryptoKey; jwk: JWK };
let stranger: { privateKey: CryptoKey; jwk: JWK };

async function keyPair(alg: string, kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

beforeAll(async () => {
  server = await startHttpServer();
  process.env.PUBLIC_URL = server.origin;
  issuer = `${server.origin}/oidc/sandbox`;
  flow = signInFlow(server.origin);
  es256 = await keyPair("ES256", "es-1");
  rs256 = await keyPair("RS256", "rs-1");
  stranger = await keyPair("ES256", "es-1");
});
afterAll(async () => {
  await server.close();
});

/** An app with the ES256 and RS256 public keys registered as its jwks (unless `keys` is false). */
async function keyedApp(keys = true) {
  const t = await makeOidcApp(REDIRECT, ["passport"], { pkceRequired: false });
  if (keys) await setOidcSettings(t.app.clientId, { jwks: { keys: [es256.jwk, rs256.jwk] } });
  return t;
}
type TApp = Awaited<ReturnType<typeof keyedApp>>;

async function rp(t: TApp) {
  const meta = (await (
    await fetch(`${issuer}/.well-known/openid-configuration`)
  ).json()) as client.ServerMetadata;
  const config = new client.Configuration(
    meta,
    t.app.clientId,
    undefined,
    client.ClientSecretBasic(t.app.clientSecret),
  );
  client.allowInsecureRequests(config);
  return config;
}

const claimsFor = (t: TApp, extra: Record<string, unknown> = {}) => ({
  iss: t.app.clientId,
  aud: issuer,
  client_id: t.app.clientId,
  redirect_uri: REDIRECT,
  response_type: "code",
  scope: "openid profile",
  provider: "passport",
  state: "st-jar",
  ...extra,
});

/** A request object signed by hand (jose), for the cases a client library would not produce. */
async function sign(
  claims: Record<string, unknown>,
  key: { privateKey: CryptoKey; jwk: JWK } = es256,
  header: Record<string, unknown> = {},
  exp: number | string = "5m",
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.jwk.alg!, kid: key.jwk.kid!, typ: "oauth-authz-req+jwt", ...header })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key.privateKey);
}

const authWith = (params: Record<string, string>) =>
  `${issuer}/auth?${new URLSearchParams(params).toString()}`;

/** /auth with `jwt` and an outer redirect_uri: the redirected error code (with state and iss checked). */
async function redirectedError(t: TApp, jwt: string) {
  const res = await fetch(
    authWith({ client_id: t.app.clientId, redirect_uri: REDIRECT, state: "outer", request: jwt }),
    {
      redirect: "manual",
    },
  );
  expect(res.status).toBe(303);
  const loc = new URL(res.headers.get("location")!);
  expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
  expect(loc.searchParams.get("state")).toBe("outer");
  expect(loc.searchParams.get("iss")).toBe(issuer);
  expect(loc.searchParams.get("error_description")).toMatch(/^request: /);
  return loc.searchParams.get("error");
}

describe("signed request objects (JAR, RFC 9101)", () => {
  it("openid-client's request object at /auth signs in; only its parameters count", async () => {
    const t = await keyedApp();
    const config = await rp(t);
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const url = await client.buildAuthorizationUrlWithJAR(
      config,
      {
        redirect_uri: REDIRECT,
        scope: "openid profile",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state: "st-1",
        nonce,
        provider: "passport",
      },
      { key: es256.privateKey, kid: es256.jwk.kid! },
    );
    expect(url.searchParams.get("request")).toBeTruthy();
    // an outer parameter that the request object does not carry is ignored
    url.searchParams.set("state", "outer");
    const { location } = await flow.signIn(t.simulate, url.href);
    expect(location.searchParams.get("state")).toBe("st-1");
    const tokens = await client.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: "st-1",
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()!.amr).toEqual(["passport"]);
  });

  it("accepts RS256 under the default profile, and a request object pushed through PAR", async () => {
    const t = await keyedApp();
    const rsJwt = await sign(claimsFor(t), rs256);
    await flow.startSignIn(authWith({ client_id: t.app.clientId, request: rsJwt }));
    const pushed = await fetch(`${issuer}/par`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: t.app.clientId,
        client_secret: t.app.clientSecret,
        request: await sign(claimsFor(t, { state: "via-par", max_age: 600 })),
      }).toString(),
    });
    expect(pushed.status).toBe(201);
    const { request_uri } = (await pushed.json()) as { request_uri: string };
    const { id } = await flow.startSignIn(authWith({ client_id: t.app.clientId, request_uri }));
    const stored = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .selectAll()
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe("via-par");
    expect(stored.maxAge).toBe(600);
  });

  it.each([
    ["a bad signature", async (t: TApp) => sign(claimsFor(t), stranger)],
    ["a wrong aud", async (t: TApp) => sign(claimsFor(t, { aud: "https://other.example.com" }))],
    ["a wrong iss", async (t: TApp) => sign(claimsFor(t, { iss: "app_other" }))],
    ["another client_id claim", async (t: TApp) => sign(claimsFor(t, { client_id: "app_other" }))],
    ["no client_id claim", async (t: TApp) => sign(claimsFor(t, { client_id: undefined }))],
    ["an expired one", async (t: TApp) => sign(claimsFor(t), es256, {}, Math.floor(Date.now() / 1000) - 120)],
    ["a lifetime over 60 minutes", async (t: TApp) => sign(claimsFor(t), es256, {}, "2h")],
    [
      "an nbf in the future",
      async (t: TApp) => sign(claimsFor(t, { nbf: Math.floor(Date.now() / 1000) + 600 })),
    ],
    ["a request_uri inside", async (t: TApp) => sign(claimsFor(t, { request_uri: "https://x.example/r" }))],
    ["a non-string parameter", async (t: TApp) => sign(claimsFor(t, { scope: ["openid"] }))],
    ["an unaccepted typ", async (t: TApp) => sign(claimsFor(t), es256, { typ: "dpop+jwt" })],
    [
      "alg none",
      async (t: TApp) =>
        `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify({ ...claimsFor(t), exp: Math.floor(Date.now() / 1000) + 60 })).toString("base64url")}.`,
    ],
    ["a JWE", async () => "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d"],
  ] as const)(
    "refuses %s with invalid_request_object, redirected to the registered redirect_uri",
    async (_name, make) => {
      const t = await keyedApp();
      expect(await redirectedError(t, await make(t))).toBe("invalid_request_object");
      expect(
        await kysely()
          .selectFrom("oidcAuthorizationRequests")
          .select("id")
          .where("appId", "=", t.app.clientId)
          .execute(),
      ).toEqual([]);
    },
  );

  it("refuses a client without keys, and shows the error page when no registered redirect_uri is outside", async () => {
    const t = await keyedApp(false);
    expect(await redirectedError(t, await sign(claimsFor(t)))).toBe("invalid_request_object");
    const keyed = await keyedApp();
    const res = await fetch(
      authWith({ client_id: keyed.app.clientId, request: await sign(claimsFor(keyed), stranger) }),
      {
        redirect: "manual",
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(errorPageCode(await res.text())).toBe("invalid_request_object");
  });

  it("refuses RS256 under the fapi2 profile (and ES256 passes the object's check)", async () => {
    const t = await keyedApp();
    await setOidcSettings(t.app.clientId, { oidcProfile: "fapi2" });
    expect(await redirectedError(t, await sign(claimsFor(t), rs256))).toBe("invalid_request_object");
    // a valid ES256 object is verified, then refused because fapi2 requires PAR
    const res = await fetch(
      authWith({ client_id: t.app.clientId, redirect_uri: REDIRECT, request: await sign(claimsFor(t)) }),
      { redirect: "manual" },
    );
    const loc = new URL(res.headers.get("location")!);
    expect(loc.searchParams.get("error")).toBe("invalid_request");
    expect(loc.searchParams.get("state")).toBe("st-jar");
  });

  it("refuses request together with request_uri, and a bad request object at /par as JSON", async () => {
    const t = await keyedApp();
    const both = await fetch(
      authWith({
        client_id: t.app.clientId,
        request: await sign(claimsFor(t)),
        request_uri: "urn:ietf:params:oauth:request_uri:x",
      }),
      { redirect: "manual" },
    );
    expect(both.status).toBe(400);
    expect(errorPageCode(await both.text())).toBe("invalid_request");
    const pushed = await fetch(`${issuer}/par`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: t.app.clientId,
        client_secret: t.app.clientSecret,
        request: await sign(claimsFor(t, { aud: "https://other.example.com" })),
      }).toString(),
    });
    expect(pushed.status).toBe(400);
    expect(await pushed.json()).toMatchObject({ error: "invalid_request_object" });
  });
});
