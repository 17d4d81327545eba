import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { sha256Hex } from "@/lib/crypto/hash";
import { PROVIDERS } from "@/lib/providers/catalog";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { startHttpServer, type TTestServer } from "@/lib/testing/http-server";
import { basic, bearer, call } from "@/lib/testing/router";
import { authorizationPath, makeOidcApp, postAuthorization } from "@/lib/testing/oidc-requests";
import { issueCode, makeVerification } from "@/lib/testing/tokens";
import { makeVerifyingApp } from "@/lib/testing/verifications";

const REDIRECT = "https://rp.example.com/cb";

/** The rows of `table` that belong to the apps `appIds`, counted. */
const rowsOfApps = (table: "verifications" | "oidcAuthorizationRequests", ...appIds: string[]) =>
  countRows(kysely().selectFrom(table).where("appId", "in", appIds));

/** The stored authorization code `code` (by its hash). */
const storedCode = (code: string) =>
  kysely()
    .selectFrom("authorizationCodes")
    .selectAll()
    .where("codeHash", "=", sha256Hex(code))
    .executeTakeFirstOrThrow();
const SANDBOX_PROVIDERS = PROVIDERS.filter((p) => p.verificationModel === "disclosure").map((p) => p.id);

let server: TTestServer;
let issuer: string;

beforeAll(async () => {
  server = await startHttpServer();
  process.env.PUBLIC_URL = server.origin;
  issuer = `${server.origin}/oidc/sandbox`;
});
afterAll(async () => {
  await server.close();
});

/** An app signing in through the OP; PKCE optional, so the rules of requests without it are testable. */
const oidcApp = (providers: string[] = ["passport"]) =>
  makeOidcApp(REDIRECT, providers, { pkceRequired: false });

const authUrl = (clientId: string, extra: Record<string, string | undefined> = {}) =>
  authorizationPath(
    { client_id: clientId, redirect_uri: REDIRECT, response_type: "code", scope: "openid profile" },
    extra,
  );

/**
 * One browser: /auth → the hosted page (which binds it); the session is driven by the sandbox
 * helper; the page's status names the resume address; resume → the client's redirect.
 */
async function startSignIn(url: string, browser = new CookieJar()) {
  const started = await browser.fetch(url.startsWith("http") ? url : `${server.origin}${url}`);
  expect(started.status).toBe(303);
  const handoff = new URL(started.headers.get("location")!);
  expect(handoff.pathname).toMatch(/^\/verify\/ver_[0-9A-Z]+\/bind$/);
  const id = handoff.pathname.split("/")[2]!;
  expect((await browser.fetch(handoff.toString())).status).toBe(303);
  return { id, browser };
}

async function resumeAddress(browser: CookieJar, id: string): Promise<string> {
  const status = (await (await browser.fetch(`${server.origin}/verify/${id}/status`)).json()) as {
    next?: string;
  };
  expect(status.next).toMatch(/\/oidc\/sandbox\/resume\/[A-Za-z0-9_-]{43}\?p=[0-9a-f]{64}$/);
  return status.next!;
}

async function signIn(
  t: Awaited<ReturnType<typeof oidcApp>>,
  url: string,
  outcome: "success" | "failure" | "cancel" | "expire" = "success",
) {
  const { id, browser } = await startSignIn(url);
  const sim = await t.simulate(id, { outcome });
  expect(sim.status).toBe(200);
  const next = await resumeAddress(browser, id);
  const resumed = await browser.fetch(next);
  expect(resumed.status).toBe(303);
  return { id, browser, next, location: new URL(resumed.headers.get("location")!) };
}

describe("discovery and keys", () => {
  it("publishes a complete discovery document with cache headers", async () => {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256", "RS256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
      token_endpoint_auth_signing_alg_values_supported: ["ES256", "PS256", "EdDSA", "Ed25519", "RS256"],
      dpop_signing_alg_values_supported: ["ES256", "PS256", "EdDSA", "Ed25519", "RS256"],
      request_object_signing_alg_values_supported: ["ES256", "PS256", "EdDSA", "Ed25519", "RS256"],
      pushed_authorization_request_endpoint: `${issuer}/par`,
      require_pushed_authorization_requests: false,
      response_modes_supported: ["query", "form_post"],
      request_parameter_supported: true,
      request_uri_parameter_supported: false,
      authorization_response_iss_parameter_supported: true,
      acr_values_supported: ["urn:idv:loa:0", "urn:idv:loa:1", "urn:idv:loa:2", "urn:idv:loa:3"],
    });
    expect(doc.scopes_supported).toEqual(
      expect.arrayContaining(["openid", "profile", "email", "address", "phone"]),
    );
    expect(doc.claims_supported).toEqual(expect.arrayContaining(["sub", "acr", "given_name", "nationality"]));
    expect(doc.authorization_request_parameters_supported).toContain("provider");
    expect((await fetch(`${server.origin}/oidc/staging/.well-known/openid-configuration`)).status).toBe(404);
  });

  it("publishes only public keys with distinct kids", async () => {
    const res = await fetch(`${issuer}/jwks`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
    const { keys } = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(keys.map((k) => k.alg)).toEqual(expect.arrayContaining(["ES256", "RS256"]));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(keys.length);
    for (const key of keys)
      for (const priv of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(priv);
  });
});

describe("relying parties", () => {
  it("openid-client completes sign-in with every sandbox provider (PKCE, nonce, basic auth) and reads userinfo", async () => {
    const t = await oidcApp(SANDBOX_PROVIDERS);
    const config = await client.discovery(
      new URL(issuer),
      t.app.clientId,
      undefined,
      client.ClientSecretBasic(t.app.clientSecret),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    for (const provider of SANDBOX_PROVIDERS) {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: "openid profile",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
        provider,
      });
      const { id, location } = await signIn(t, url.href);
      expect(location.searchParams.get("iss")).toBe(issuer);
      const tokens = await client.authorizationCodeGrant(config, location, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      expect(tokens.token_type.toLowerCase()).toBe("bearer");
      const claims = tokens.claims()!;
      expect(claims.amr).toEqual([provider]);
      expect(claims.acr).toMatch(/^urn:idv:loa:[0-3]$/);
      expect(typeof claims.at_hash).toBe("string");
      expect(typeof claims.auth_time).toBe("number");
      // no personal data in the ID token
      for (const k of ["name", "given_name", "family_name", "birthdate", "email", "address"])
        expect(claims).not.toHaveProperty(k);
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      const rest = await t.userinfo(id);
      expect(userinfo).toEqual(rest.body);
    }
  });

  it("oauth4webapi completes sign-in with client_secret_post and POST userinfo", async () => {
    const t = await oidcApp(["de_eid"]);
    const opts = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      new URL(issuer),
      await oauth.discoveryRequest(new URL(issuer), opts),
    );
    const c: oauth.Client = { client_id: t.app.clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: t.app.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid email",
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      provider: "de_eid",
    }))
      url.searchParams.set(k, v);
    const { location } = await signIn(t, url.href);
    const params = oauth.validateAuthResponse(as, c, location, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      c,
      oauth.ClientSecretPost(t.app.clientSecret),
      params,
      REDIRECT,
      verifier,
      opts,
    );
    const result = await oauth.processAuthorizationCodeResponse(as, c, response, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    expect(result.scope).toBe("openid email");
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    const ui = await oauth.processUserInfoResponse(
      as,
      c,
      claims.sub,
      await oauth.userInfoRequest(as, c, result.access_token, opts),
    );
    expect(ui.sub).toBe(claims.sub);
    const viaForm = await fetch(`${issuer}/userinfo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ access_token: result.access_token }),
    });
    expect(viaForm.status).toBe(200);
    expect(((await viaForm.json()) as { sub: string }).sub).toBe(claims.sub);
  });
});

describe("/auth rules", () => {
  it("shows the error page (never redirects) for a bad client_id or redirect_uri", async () => {
    const t = await oidcApp();
    const other = await oidcApp();
    const prod = await makeVerifyingApp([], "production");
    for (const url of [
      authUrl(t.app.clientId, { client_id: undefined }),
      authUrl("app_unknown"),
      authUrl(prod.app.clientId),
      authUrl(t.app.clientId, { redirect_uri: undefined }),
      authUrl(t.app.clientId, { redirect_uri: "https://evil.example.com/cb" }),
      authUrl(t.app.clientId, { redirect_uri: `${REDIRECT}/` }),
      `${authUrl(t.app.clientId)}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    ]) {
      const res = await call("GET", url);
      expect(res.status, url).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
    }
    expect(await rowsOfApps("oidcAuthorizationRequests", t.app.clientId, other.app.clientId)).toBe(0);
  });

  it.each([
    [{ response_type: undefined }, "invalid_request", "response_type"],
    [{ response_type: "token" }, "unsupported_response_type", "response_type"],
    [{ response_type: "code id_token" }, "unsupported_response_type", "response_type"],
    [{ response_mode: "fragment" }, "invalid_request", "response_mode"],
    [{ scope: undefined }, "invalid_request", "scope"],
    [{ scope: "profile email" }, "invalid_scope", "scope"],
    [
      { code_challenge: "x".repeat(43), code_challenge_method: "plain" },
      "invalid_request",
      "code_challenge_method",
    ],
    [{ code_challenge: "x".repeat(43) }, "invalid_request", "code_challenge_method"],
    [{ code_challenge_method: "S256" }, "invalid_request", "code_challenge"],
    [{ code_challenge: "short", code_challenge_method: "S256" }, "invalid_request", "code_challenge"],
    [{ prompt: "none" }, "login_required", "prompt"],
    [{ prompt: "none login" }, "invalid_request", "prompt"],
    [{ prompt: "bogus" }, "invalid_request", "prompt"],
    [{ max_age: "-1" }, "invalid_request", "max_age"],
    [{ provider: "nope" }, "invalid_request", "provider"],
    [{ provider: "de_eid" }, "invalid_request", "provider"],
    [{ request: "eyJ.x.y" }, "invalid_request_object", "request"],
    [{ request_uri: "https://rp.example.com/r" }, "request_uri_not_supported", "request_uri"],
    [{ registration: "{}" }, "registration_not_supported", "registration"],
  ] as const)("%o → %s redirected with state and iss", async (extra, error, field) => {
    const t = await oidcApp();
    const res = await call("GET", authUrl(t.app.clientId, { state: "st-1", provider: "passport", ...extra }));
    expect(res.status).toBe(303);
    const loc = new URL(res.headers.get("location")!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get("error")).toBe(error);
    expect(loc.searchParams.get("error_description")).toContain(
      field === "prompt" && error === "login_required" ? "prompt" : field,
    );
    expect(loc.searchParams.get("state")).toBe("st-1");
    expect(loc.searchParams.get("iss")).toBe(issuer);
    expect(await rowsOfApps("verifications", t.app.clientId)).toBe(0);
    expect(await rowsOfApps("oidcAuthorizationRequests", t.app.clientId)).toBe(0);
  });

  it("refuses a repeated parameter and ignores unknown ones", async () => {
    const t = await oidcApp();
    const dup = await call("GET", `${authUrl(t.app.clientId, { provider: "passport" })}&scope=openid`);
    expect(new URL(dup.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
    const ok = await call(
      "GET",
      authUrl(t.app.clientId, { provider: "passport", frobnicate: "1", claims_locales: "de" }),
    );
    expect(new URL(ok.headers.get("location")!).pathname).toMatch(/^\/verify\/ver_/);
  });

  it("accepts POST, starts an oidc-channel session with the ui_locales locale and stores the request", async () => {
    const t = await oidcApp();
    const v = await postAuthorization({
      client_id: t.app.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid unknown_scope email",
      provider: "passport",
      ui_locales: "de-CH en",
      acr_values: "urn:idv:loa:2 urn:other:x",
      max_age: "0",
      nonce: "n-1",
      prompt: "login",
    });
    expect(v).toMatchObject({ channel: "oidc", locale: "de-CH", providerId: "passport" });
    const r = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .selectAll()
      .where("verificationId", "=", v.id)
      .executeTakeFirstOrThrow();
    expect(r).toMatchObject({
      scope: "openid email",
      minLoa: 2,
      maxAge: 0,
      nonce: "n-1",
      prompt: "login",
      uiLocales: "de-CH en",
    });
  });

  it("without provider shows the branded picker with the app's activated providers", async () => {
    const t = await oidcApp(["passport", "de_eid", "nl_digid"]);
    await kysely()
      .updateTable("appProviders")
      .set({ enabled: false, updatedAt: new Date() })
      .where("appId", "=", t.app.clientId)
      .where("providerId", "=", "nl_digid")
      .execute();
    const res = await call("GET", authUrl(t.app.clientId, { state: "s" }));
    expect(res.status).toBe(303);
    const select = res.headers.get("location")!;
    expect(select.startsWith("select?")).toBe(true);
    const page = await call("GET", `/oidc/sandbox/${select}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Sign in to Test app");
    expect(page.text).toContain('data-provider="passport"');
    expect(page.text).toContain('data-provider="de_eid"');
    expect(page.text).not.toContain('data-provider="nl_digid"');
    const link = /href="(auth\?[^"]+)"/.exec(page.text)![1]!.replaceAll("&amp;", "&");
    const chosen = await call("GET", `/oidc/sandbox/${link}`);
    expect(new URL(chosen.headers.get("location")!).pathname).toMatch(/^\/verify\/ver_/);
  });
});

describe("resume", () => {
  it("answers access_denied for failed and cancelled sessions and a too low LoA, and only once", async () => {
    const t = await oidcApp();
    for (const outcome of ["failure", "cancel"] as const) {
      const { browser, next, location } = await signIn(
        t,
        authUrl(t.app.clientId, { provider: "passport", state: "s" }),
        outcome,
      );
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(location.searchParams.get("state")).toBe("s");
      expect(location.searchParams.get("iss")).toBe(issuer);
      const again = await browser.fetch(next);
      expect(again.status).toBe(400);
      expect(again.headers.get("location")).toBeNull();
    }
    const low = await signIn(
      t,
      authUrl(t.app.clientId, { provider: "passport", acr_values: "urn:idv:loa:3" }),
    );
    // passport sessions reach LoA 2 (substantial): below the requested 3, so the client is refused
    const v = await kysely()
      .selectFrom("verifications")
      .selectAll()
      .where("id", "=", low.id)
      .executeTakeFirstOrThrow();
    expect(v.loa).toBe(2);
    expect(low.location.searchParams.get("error")).toBe("access_denied");
    expect(low.location.searchParams.get("code")).toBeNull();
    const enough = await signIn(
      t,
      authUrl(t.app.clientId, { provider: "passport", acr_values: "urn:idv:loa:2" }),
    );
    expect(enough.location.searchParams.get("code")).not.toBeNull();
    expect((await call("GET", "/oidc/sandbox/resume/ver_unknown")).status).toBe(400);
    expect((await call("GET", `/oidc/sandbox/resume/${"x".repeat(43)}`)).status).toBe(400);
  });

  it("refuses, without redirecting, when the redirect_uri was removed from the app meanwhile", async () => {
    const t = await oidcApp();
    for (const outcome of ["success", "failure"] as const) {
      const { id, browser } = await startSignIn(
        authUrl(t.app.clientId, { provider: "passport", state: "s" }),
      );
      expect((await t.simulate(id, { outcome })).status).toBe(200);
      const next = await resumeAddress(browser, id);
      const patched = await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
        headers: bearer(t.ws.keys.sandbox),
        body: { redirectUris: ["https://rp.example.com/elsewhere"] },
      });
      expect(patched.status).toBe(200);
      const resumed = await browser.fetch(next);
      expect(resumed.status).toBe(400);
      expect(resumed.headers.get("location")).toBeNull();
      expect(
        await countRows(kysely().selectFrom("authorizationCodes").where("verificationId", "=", id)),
      ).toBe(0);
      // re-registered: the request was not answered, so it is answered now, once
      await call("PATCH", `/api/sandbox/v1/apps/${t.app.clientId}`, {
        headers: bearer(t.ws.keys.sandbox),
        body: { redirectUris: [REDIRECT] },
      });
      const answered = await browser.fetch(next);
      expect(answered.status).toBe(303);
      expect(answered.headers.get("location")).toMatch(/^https:\/\/rp\.example\.com\/cb\?/);
    }
  });
});

describe("/token and /userinfo rules", () => {
  async function codeFor(t: Awaited<ReturnType<typeof oidcApp>>, extra: Record<string, string> = {}) {
    const { location } = await signIn(t, authUrl(t.app.clientId, { provider: "passport", ...extra }));
    return location.searchParams.get("code")!;
  }
  const token = (headers: Record<string, string>, body: Record<string, string>) =>
    call("POST", "/oidc/sandbox/token", {
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      rawBody: new URLSearchParams(body).toString(),
    });

  it("binds the code to client, redirect_uri and PKCE; refuses reuse and revokes its tokens", async () => {
    const t = await oidcApp();
    const other = await oidcApp();
    const verifier = client.randomPKCECodeVerifier();
    const code = await codeFor(t, {
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    const failures: [Record<string, string>, Record<string, string>, number, string][] = [
      [basic(other.app.clientId, other.app.clientSecret), base, 400, "invalid_grant"],
      [basic(t.app.clientId, "wrong"), base, 401, "invalid_client"],
      [{}, base, 401, "invalid_client"],
      [t.creds, { ...base, redirect_uri: "https://rp.example.com/other" }, 400, "invalid_grant"],
      [t.creds, { ...base, code_verifier: undefined as unknown as string }, 400, "invalid_grant"],
      [t.creds, { ...base, code_verifier: client.randomPKCECodeVerifier() }, 400, "invalid_grant"],
      [t.creds, { ...base, grant_type: "client_credentials" }, 400, "unsupported_grant_type"],
    ];
    for (const [headers, body, status, error] of failures) {
      const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      const res = await token(headers, clean);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toBe(error);
      expect(res.headers.get("cache-control")).toBe("no-store");
      if (status === 401) expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
    }
    const ok = await token(t.creds, base);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(ok.body).toMatchObject({ token_type: "Bearer", expires_in: 600, scope: "openid profile" });
    const ui = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(ok.body.access_token) });
    expect(ui.status).toBe(200);

    const reused = await token(t.creds, base);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    const row = await kysely()
      .selectFrom("oidcAccessTokens")
      .selectAll()
      .where("tokenHash", "=", sha256Hex(ok.body.access_token))
      .executeTakeFirstOrThrow();
    expect(row.revokedAt).not.toBeNull();
    const revoked = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(ok.body.access_token) });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("lets exactly one of concurrent exchanges of one code succeed; the others are reuses and revoke its token", async () => {
    const t = await oidcApp();
    const code = await codeFor(t);
    const body = { grant_type: "authorization_code", code, redirect_uri: REDIRECT };
    const results = await Promise.all(Array.from({ length: 6 }, () => token(t.creds, body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.error === "invalid_grant")).toBe(true);
    const winner = results.find((r) => r.status === 200)!;
    const stored = await storedCode(code);
    expect(stored.usedAt).not.toBeNull();
    // one access token was issued, and the reuses revoked it
    const tokens = await kysely()
      .selectFrom("oidcAccessTokens")
      .selectAll()
      .where("codeHash", "=", stored.codeHash)
      .execute();
    expect(tokens.map((r) => r.tokenHash)).toEqual([sha256Hex(winner.body.access_token)]);
    expect(tokens[0]!.revokedAt).not.toBeNull();
    const audits = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", stored.verificationId)
      .where("action", "in", ["authorization_code.redeemed", "authorization_code.reused"])
      .execute();
    expect(audits.filter((a) => a.action === "authorization_code.redeemed")).toHaveLength(1);
    expect(audits.filter((a) => a.action === "authorization_code.reused")).toHaveLength(5);
  });

  it("refuses a verifier for a code without challenge, and REST codes", async () => {
    const t = await oidcApp();
    const code = await codeFor(t);
    const res = await token(t.creds, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: client.randomPKCECodeVerifier(),
    });
    expect(res.body.error).toBe("invalid_grant");
    const ok = await token(
      {},
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: t.app.clientId,
        client_secret: t.app.clientSecret,
      },
    );
    expect(ok.status).toBe(200);
  });

  it("refuses OP codes at the REST /token without consuming them", async () => {
    const t = await oidcApp();
    const code = await codeFor(t);
    for (const body of [
      { grant_type: "authorization_code", code },
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT },
    ]) {
      const rest = await call("POST", "/api/sandbox/token", { headers: t.creds, body });
      expect(rest.status).toBe(401);
      expect(rest.body.error).toBe("invalid_grant");
      expect(rest.body.id_token).toBeUndefined();
    }
    const row = await storedCode(code);
    expect(row.usedAt).toBeNull();
    const ok = await token(t.creds, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
    expect(ok.status).toBe(200);
  });

  it("refuses REST codes, even ones bound to a redirect_uri", async () => {
    const t = await oidcApp();
    const verification = await makeVerification(t.app.clientId);
    for (const options of [{}, { redirectUri: REDIRECT }]) {
      const code = await issueCode(verification, options);
      const res = await token(t.creds, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_grant");
    }
  });

  it("rotating the client secret revokes the app's outstanding access tokens", async () => {
    const t = await oidcApp();
    const other = await oidcApp();
    const issue = async (app: typeof t) => {
      const code = await codeFor(app);
      const ok = await token(app.creds, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
      expect(ok.status).toBe(200);
      return ok.body.access_token as string;
    };
    const [first, second, theirs] = [await issue(t), await issue(t), await issue(other)];
    const pending = await codeFor(t);
    const rotated = await call("POST", `/api/sandbox/v1/apps/${t.app.clientId}/rotate-client-secret`, {
      headers: bearer(t.ws.keys.sandbox),
    });
    expect(rotated.status).toBe(200);
    for (const at of [first, second]) {
      const ui = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(at) });
      expect(ui.status).toBe(401);
      expect(ui.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
    // another app's tokens are untouched
    expect((await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(theirs) })).status).toBe(200);
    // a token issued after the rotation, with the new secret, works
    const fresh = await token(basic(t.app.clientId, rotated.body.clientSecret as string), {
      grant_type: "authorization_code",
      code: pending,
      redirect_uri: REDIRECT,
    });
    expect(fresh.status).toBe(200);
    const ui = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(fresh.body.access_token) });
    expect(ui.status).toBe(200);
  });

  it("userinfo: missing, malformed, doubled, unknown and expired tokens are refused with WWW-Authenticate", async () => {
    const t = await oidcApp();
    const code = await codeFor(t);
    const ok = await token(t.creds, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
    const at = ok.body.access_token as string;
    const none = await call("GET", "/oidc/sandbox/userinfo");
    expect(none.status).toBe(401);
    // both schemes (RFC 9449 §7.1)
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm="userinfo", DPoP algs="[^"]+"$/);
    const malformed = await call("GET", "/oidc/sandbox/userinfo", {
      headers: { authorization: "Basic abc" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("www-authenticate")).toContain('error="invalid_request"');
    const both = await call("POST", "/oidc/sandbox/userinfo", {
      headers: { ...bearer(at), "content-type": "application/x-www-form-urlencoded" },
      rawBody: `access_token=${at}`,
    });
    expect(both.status).toBe(400);
    const unknown = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer("nope") });
    expect(unknown.status).toBe(401);
    expect((await call("GET", "/oidc/production/userinfo", { headers: bearer(at) })).status).toBe(401);
    await kysely()
      .updateTable("oidcAccessTokens")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("tokenHash", "=", sha256Hex(at))
      .execute();
    const expired = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(at) });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toContain("expired");
  });
});

describe("the OP's pages in the hosted frame", () => {
  it("the picker speaks the request's ui_locales, else Accept-Language, with the end-user headers", async () => {
    const t = await oidcApp(["passport", "de_eid"]);
    const select = (await call("GET", authUrl(t.app.clientId, { ui_locales: "de-CH en" }))).headers.get(
      "location",
    )!;
    const de = await call("GET", `/oidc/sandbox/${select}`, { headers: { "accept-language": "fr" } });
    expect(de.status).toBe(200);
    expect(de.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(de.headers.get("x-frame-options")).toBe("DENY");
    expect(de.headers.get("referrer-policy")).toBe("no-referrer");
    expect(de.headers.get("cache-control")).toContain("no-store");
    expect(de.headers.get("permissions-policy")).toContain("camera=()");
    const csp = de.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("script-src");
    expect(de.text).toContain('<html lang="de">');
    expect(de.text).toContain("Bei Test app anmelden");
    expect(de.text).toContain("Sandbox: nur Testdaten");
    expect(de.text).toContain("Verfügbar in: Deutschland");
    expect(de.text).toContain('data-provider="de_eid"');

    const plain = (await call("GET", authUrl(t.app.clientId))).headers.get("location")!;
    const fr = await call("GET", `/oidc/sandbox/${plain}`, {
      headers: { "accept-language": "fr-FR,fr;q=0.9" },
    });
    expect(fr.text).toContain('<html lang="fr">');
    expect(fr.text).toContain("Se connecter à Test app");
    const en = await call("GET", `/oidc/sandbox/${plain}`);
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain("Choose how to prove your identity:");
  });

  it("an error page speaks the request's ui_locales and keeps its status", async () => {
    const t = await oidcApp();
    const res = await call(
      "GET",
      authUrl(t.app.clientId, { redirect_uri: "https://evil.example.com/cb", ui_locales: "fr" }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.text).toContain('<html lang="fr">');
    expect(res.text).toContain("Cette connexion ne peut pas continuer");
    expect(res.text).toContain('data-error="invalid_request"');
    expect(res.text).toContain("redirect_uri");
    const unknown = await call("GET", authUrl("app_00000000000000000000000000"), {
      headers: { "accept-language": "de" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("Diese Anmeldung kann nicht fortgesetzt werden");
  });

  it("resume: another browser sees its own language, never the sign-in's; the sign-in's browser sees the request's", async () => {
    const t = await oidcApp();
    const { id, browser } = await startSignIn(
      authUrl(t.app.clientId, { provider: "passport", ui_locales: "de" }),
    );
    expect((await t.simulate(id, { outcome: "success" })).status).toBe(200);
    const next = await resumeAddress(browser, id);
    const stranger = await new CookieJar().fetch(next, { headers: { "accept-language": "fr" } });
    expect(stranger.status).toBe(400);
    const strangerPage = await stranger.text();
    expect(strangerPage).toContain('<html lang="fr">');
    expect(strangerPage).toContain("a été commencée dans un autre navigateur");
    expect((await browser.fetch(next)).status).toBe(303);
    const again = await browser.fetch(next, { headers: { "accept-language": "fr" } });
    expect(again.status).toBe(400);
    const againPage = await again.text();
    expect(againPage).toContain('<html lang="de">');
    expect(againPage).toContain("Diese Anmeldung wurde bereits beantwortet.");
  });
});
