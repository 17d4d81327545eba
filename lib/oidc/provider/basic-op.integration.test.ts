/**
 * The OpenID Foundation's Basic OP plan (oidcc-basic-certification-test-plan), the modules no other
 * test covers, each named after its module (docs/oidc-conformance.md lists them all), and
 * response_mode=form_post. Real HTTP server, real PostgreSQL, the sandbox simulator, openid-client 6
 * as the relying party where one fits.
 */
import { createHash } from "node:crypto";
import { generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { CookieJar } from "@/lib/testing/cookie-jar";
import { startHttpServer, type TTestServer } from "@/lib/testing/http-server";
import { authorizationPath, makeOidcApp } from "@/lib/testing/oidc-requests";
import { bearer, call } from "@/lib/testing/router";

const REDIRECT = "https://rp.example.com/cb";

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

type TApp = Awaited<ReturnType<typeof makeOidcApp>>;

/** An app of the OP; PKCE optional so that plain requests are testable; it_spid discloses every scope's claims. */
const oidcApp = (providers: string[] = ["passport"]) =>
  makeOidcApp(REDIRECT, providers, { pkceRequired: false });

const authUrl = (clientId: string, extra: Record<string, string | undefined> = {}) =>
  authorizationPath(
    { client_id: clientId, redirect_uri: REDIRECT, response_type: "code", scope: "openid profile" },
    extra,
  );

const rowsOfApp = (table: "verifications" | "oidcAuthorizationRequests", appId: string) =>
  countRows(kysely().selectFrom(table).where("appId", "=", appId));

/** /auth → hand-off → sandbox outcome → the resume's answer (a Response), in one browser. */
async function signIn(
  t: TApp,
  url: string,
  outcome: "success" | "failure" | "cancel" = "success",
): Promise<{ id: string; resumed: Response }> {
  const browser = new CookieJar();
  const started = await browser.fetch(url.startsWith("http") ? url : `${server.origin}${url}`);
  expect(started.status, await started.clone().text()).toBe(303);
  const handoff = new URL(started.headers.get("location")!);
  expect(handoff.pathname).toMatch(/^\/verify\/ver_[0-9A-Z]+\/bind$/);
  const id = handoff.pathname.split("/")[2]!;
  expect((await browser.fetch(handoff.toString())).status).toBe(303);
  expect((await t.simulate(id, { outcome })).status).toBe(200);
  const status = (await (await browser.fetch(`${server.origin}/verify/${id}/status`)).json()) as {
    next: string;
  };
  return { id, resumed: await browser.fetch(status.next) };
}

/** A query-mode sign-in's callback address. */
async function callback(t: TApp, url: string, outcome: "success" | "failure" | "cancel" = "success") {
  const { id, resumed } = await signIn(t, url, outcome);
  expect(resumed.status).toBe(303);
  return { id, location: new URL(resumed.headers.get("location")!) };
}

/** The form_post page's form: its action and hidden inputs (values unescaped as a browser would). */
function parseFormPost(html: string) {
  const unescape = (s: string) =>
    s
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  const action = /<form method="post" action="([^"]*)">/.exec(html)?.[1];
  const inputs = [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(
    (m) => [unescape(m[1]!), unescape(m[2]!)] as [string, string],
  );
  const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
  return { action: action && unescape(action), inputs, params: new URLSearchParams(inputs), scripts };
}

/** Asserts the answer is the form_post page (status, headers, CSP allowing its one script) and returns its form. */
async function expectFormPost(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("location")).toBeNull();
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("cache-control")).toContain("no-store");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  const csp = res.headers.get("content-security-policy")!;
  const form = parseFormPost(await res.text());
  expect(form.action).toBe(REDIRECT);
  expect(form.scripts).toHaveLength(1);
  const hash = createHash("sha256").update(form.scripts[0]!).digest("base64");
  expect(csp).toContain(`script-src 'sha256-${hash}'`);
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain("unsafe-inline");
  return form;
}

const token = (t: TApp, body: Record<string, string>) =>
  call("POST", "/oidc/sandbox/token", {
    headers: { "content-type": "application/x-www-form-urlencoded", ...t.creds },
    rawBody: new URLSearchParams(body).toString(),
  });

/** A code for `t` (query mode) exchanged at /token: the token response's body. */
async function tokensFor(t: TApp, extra: Record<string, string> = {}) {
  const { location } = await callback(t, authUrl(t.app.clientId, { provider: "passport", ...extra }));
  const code = location.searchParams.get("code")!;
  const res = await token(t, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
  expect(res.status).toBe(200);
  return { code, body: res.body as { access_token: string; id_token: string; scope: string } };
}

const claimsOf = (idToken: string) =>
  JSON.parse(Buffer.from(idToken.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;

/** /auth's query-mode error redirect for `extra`: error, description, state, iss. */
async function authError(t: TApp, extra: Record<string, string | undefined>) {
  const res = await call("GET", authUrl(t.app.clientId, { provider: "passport", state: "st", ...extra }));
  expect(res.status).toBe(303);
  const loc = new URL(res.headers.get("location")!);
  expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
  expect(loc.searchParams.get("state")).toBe("st");
  expect(loc.searchParams.get("iss")).toBe(issuer);
  return {
    error: loc.searchParams.get("error"),
    description: loc.searchParams.get("error_description") ?? "",
  };
}

async function discovered(t: TApp) {
  return client.discovery(
    new URL(issuer),
    t.app.clientId,
    undefined,
    client.ClientSecretBasic(t.app.clientSecret),
    {
      execute: [client.allowInsecureRequests],
    },
  );
}

describe("response_mode=form_post", () => {
  it("posts the code with state and iss; openid-client redeems the POSTed callback", async () => {
    const t = await oidcApp();
    const config = await discovered(t);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile",
      response_mode: "form_post",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      provider: "passport",
    });
    const { id, resumed } = await signIn(t, url.href);
    const stored = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .select("responseMode")
      .where("verificationId", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.responseMode).toBe("form_post");
    const form = await expectFormPost(resumed);
    expect(form.inputs.map(([name]) => name)).toEqual(["code", "state", "iss"]);
    expect(form.params.get("state")).toBe(state);
    expect(form.params.get("iss")).toBe(issuer);
    // what the browser sends to the client: a form POST to the redirect_uri
    const posted = new Request(form.action!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.params.toString(),
    });
    const tokens = await client.authorizationCodeGrant(config, posted, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()!.nonce).toBe(nonce);
  });

  it("posts errors at /auth and at the resume, escaped; the request is not stored", async () => {
    const t = await oidcApp();
    const state = `"><script>alert(1)</script>&'`;
    const res = await call(
      "GET",
      authUrl(t.app.clientId, { provider: "passport", response_mode: "form_post", scope: "profile", state }),
    );
    const html = res.text;
    expect(html).not.toContain("<script>alert");
    const form = await expectFormPost(new Response(html, { status: res.status, headers: res.headers }));
    expect(form.inputs.map(([name]) => name)).toEqual(["error", "error_description", "state", "iss"]);
    expect(form.params.get("error")).toBe("invalid_scope");
    expect(form.params.get("state")).toBe(state);
    expect(form.params.get("iss")).toBe(issuer);
    expect(await rowsOfApp("oidcAuthorizationRequests", t.app.clientId)).toBe(0);

    const { resumed } = await signIn(
      t,
      authUrl(t.app.clientId, { provider: "passport", response_mode: "form_post", state: "s" }),
      "cancel",
    );
    const denied = await expectFormPost(resumed);
    expect(denied.params.get("error")).toBe("access_denied");
    expect(denied.params.get("state")).toBe("s");
    expect(denied.params.get("code")).toBeNull();
  });

  it("never posts to an untrusted redirect_uri, and answers a bad response_mode in the default mode", async () => {
    const t = await oidcApp();
    const page = await call(
      "GET",
      authUrl(t.app.clientId, { response_mode: "form_post", redirect_uri: "https://evil.example.com/cb" }),
    );
    expect(page.status).toBe(400);
    expect(page.text).not.toContain('<form method="post"');
    expect(page.text).not.toContain('evil.example.com/cb"');
    for (const mode of ["fragment", "jwt", "query.jwt", "form_post.jwt"]) {
      const { error, description } = await authError(t, { response_mode: mode });
      expect(error).toBe("invalid_request");
      expect(description).toContain("response_mode");
    }
    const twice = await call(
      "GET",
      `${authUrl(t.app.clientId, { provider: "passport", response_mode: "form_post" })}&response_mode=form_post`,
    );
    expect(twice.status).toBe(303);
    expect(new URL(twice.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });
});

describe("Basic OP plan", () => {
  it("oidcc-ensure-request-without-nonce-succeeds-for-code-flow; nonce echoed when sent", async () => {
    const t = await oidcApp();
    const without = await tokensFor(t);
    expect(claimsOf(without.body.id_token)).not.toHaveProperty("nonce");
    const withNonce = await tokensFor(t, { nonce: "n-0123" });
    expect(claimsOf(withNonce.body.id_token).nonce).toBe("n-0123");
  });

  it("oidcc-idtoken-signature: signed with a published key named by kid; oidcc-idtoken-unsigned: none is not offered", async () => {
    const t = await oidcApp();
    const { body } = await tokensFor(t);
    const header = JSON.parse(Buffer.from(body.id_token.split(".")[0]!, "base64url").toString()) as {
      alg: string;
      kid: string;
    };
    const jwks = (await call("GET", "/oidc/sandbox/jwks")).body as { keys: { kid: string; alg: string }[] };
    expect(jwks.keys.find((k) => k.kid === header.kid)?.alg).toBe(header.alg);
    const doc = (await call("GET", "/oidc/sandbox/.well-known/openid-configuration")).body as Record<
      string,
      string[]
    >;
    expect(doc.id_token_signing_alg_values_supported).not.toContain("none");
  });

  it("oidcc-userinfo-get, oidcc-userinfo-post-header, oidcc-userinfo-post-body: the same claims", async () => {
    const t = await oidcApp();
    const { body } = await tokensFor(t);
    const get = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(body.access_token) });
    const postHeader = await call("POST", "/oidc/sandbox/userinfo", { headers: bearer(body.access_token) });
    const postBody = await call("POST", "/oidc/sandbox/userinfo", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      rawBody: new URLSearchParams({ access_token: body.access_token }).toString(),
    });
    for (const res of [get, postHeader, postBody]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
    expect(get.body.sub).toBe(claimsOf(body.id_token).sub);
    expect(postHeader.body).toEqual(get.body);
    expect(postBody.body).toEqual(get.body);
  });

  it("oidcc-scope-profile/email/address/phone/all, oidcc-alternate-happy-flow: userinfo holds what the workflow collected, whatever the scope (under `user`)", async () => {
    const t = await oidcApp(["it_spid"]);
    const scopes = [
      "openid profile",
      "openid email",
      "openid address",
      "openid phone",
      "phone address email profile openid",
    ];
    for (const scope of scopes) {
      const { id, location } = await callback(t, authUrl(t.app.clientId, { provider: "it_spid", scope }));
      const res = await token(t, {
        grant_type: "authorization_code",
        code: location.searchParams.get("code")!,
        redirect_uri: REDIRECT,
      });
      expect(res.status, scope).toBe(200);
      expect(res.body.scope.split(" ").sort()).toEqual(scope.split(" ").sort());
      const ui = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(res.body.access_token) });
      expect(ui.status).toBe(200);
      // the service's userinfo (the REST one): sub and the session's facts at the top, the personal
      // claims the app's workflow collected under `user` — the same ones whatever the scope
      expect(ui.body.sub).toBe(claimsOf(res.body.id_token).sub);
      expect(Object.keys(ui.body.user as object).sort()).toEqual(["birthdate", "family_name", "given_name"]);
      expect(ui.body).toEqual((await t.userinfo(id)).body);
    }
  });

  it("oidcc-display-page, oidcc-display-popup, oidcc-login-hint, oidcc-claims-locales, oidcc-ensure-request-with-unknown-parameter-succeeds: accepted and ignored", async () => {
    const t = await oidcApp();
    for (const extra of [
      { display: "page" },
      { display: "popup" },
      { login_hint: "buffy@example.com" },
      { claims_locales: "se" },
      { extra_param: "foo" },
    ]) {
      const { location } = await callback(
        t,
        authUrl(t.app.clientId, { provider: "passport", state: "s", ...extra }),
      );
      expect(location.searchParams.get("code"), JSON.stringify(extra)).not.toBeNull();
      expect(location.searchParams.get("state")).toBe("s");
    }
    // sent twice, they are refused like any parameter (OAuth 2.0 §3.1)
    for (const name of ["login_hint", "claims_locales", "display"]) {
      const res = await call(
        "GET",
        `${authUrl(t.app.clientId, { provider: "passport", [name]: "a" })}&${name}=b`,
      );
      expect(new URL(res.headers.get("location")!).searchParams.get("error_description")).toContain(name);
    }
  });

  it("oidcc-ui-locales: the session speaks the first well-formed tag", async () => {
    const t = await oidcApp();
    const { id, location } = await callback(
      t,
      authUrl(t.app.clientId, { provider: "passport", ui_locales: "se de" }),
    );
    expect(location.searchParams.get("code")).not.toBeNull();
    const v = await kysely()
      .selectFrom("verifications")
      .select("locale")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(v.locale).toBe("se");
  });

  it("oidcc-ensure-request-with-acr-values-succeeds: the ID token's acr meets the request", async () => {
    const t = await oidcApp();
    const { body } = await tokensFor(t, { acr_values: "urn:idv:loa:1 urn:other" });
    expect(claimsOf(body.id_token).acr).toMatch(/^urn:idv:loa:[1-3]$/);
  });

  it("oidcc-prompt-login, oidcc-max-age-1, oidcc-max-age-10000: a fresh sign-in, auth_time present and recent", async () => {
    const t = await oidcApp();
    for (const extra of [{ prompt: "login" }, { max_age: "1" }, { max_age: "10000" }] as Record<
      string,
      string
    >[]) {
      const before = Math.floor(Date.now() / 1000);
      const { body } = await tokensFor(t, extra);
      const authTime = claimsOf(body.id_token).auth_time as number;
      expect(typeof authTime).toBe("number");
      expect(authTime).toBeGreaterThanOrEqual(before - 1);
      expect(authTime).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    }
  });

  it("oidcc-prompt-none-not-logged-in, oidcc-prompt-none-logged-in: login_required (no OP session), even after a sign-in", async () => {
    const t = await oidcApp();
    await tokensFor(t);
    const { error, description } = await authError(t, { prompt: "none" });
    expect(error).toBe("login_required");
    expect(description).toContain("prompt");
    expect(await rowsOfApp("oidcAuthorizationRequests", t.app.clientId)).toBe(1);
  });

  it("oidcc-id-token-hint: our ID token for this client is accepted (prompt=none stays login_required); any other is invalid_request", async () => {
    const t = await oidcApp();
    const other = await oidcApp();
    const hint = (await tokensFor(t)).body.id_token;
    const accepted = await callback(
      t,
      authUrl(t.app.clientId, { provider: "passport", id_token_hint: hint }),
    );
    expect(accepted.location.searchParams.get("code")).not.toBeNull();
    expect((await authError(t, { prompt: "none", id_token_hint: hint })).error).toBe("login_required");

    const theirs = (await tokensFor(other)).body.id_token;
    const { privateKey } = await generateKeyPair("ES256");
    const claims = claimsOf(hint);
    const forged = await new SignJWT(claims)
      .setProtectedHeader({
        alg: "ES256",
        kid: JSON.parse(Buffer.from(hint.split(".")[0]!, "base64url").toString()).kid,
      })
      .sign(privateKey);
    const unsigned = new UnsecuredJWT(claims).encode();
    const [h, , s] = hint.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url")}.${s}`;
    for (const [bad, why] of [
      [theirs, "client"],
      [forged, "signed"],
      [unsigned, "signed"],
      [tampered, "signed"],
      ["not-a-jwt", "ID token"],
      ["a.b.c", "signed"],
    ] as const) {
      const { error, description } = await authError(t, { id_token_hint: bad });
      expect(error, bad).toBe("invalid_request");
      expect(description).toContain("id_token_hint");
      expect(description).toContain(why);
    }
    expect(await rowsOfApp("oidcAuthorizationRequests", t.app.clientId)).toBe(2);
  });

  it("oidcc-codereuse-30seconds: a code presented again 30 s later is invalid_grant and its token is revoked", async () => {
    const t = await oidcApp();
    const { code, body } = await tokensFor(t);
    const back = (d: Date | null) => (d ? new Date(d.getTime() - 30_000) : null);
    const row = await kysely()
      .selectFrom("authorizationCodes")
      .selectAll()
      .where("codeHash", "=", sha256Hex(code))
      .executeTakeFirstOrThrow();
    expect(row.usedAt).not.toBeNull();
    await kysely()
      .updateTable("authorizationCodes")
      .set({ createdAt: back(row.createdAt)!, expiresAt: back(row.expiresAt)!, usedAt: back(row.usedAt) })
      .where("codeHash", "=", row.codeHash)
      .execute();
    const reused = await token(t, { grant_type: "authorization_code", code, redirect_uri: REDIRECT });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    const ui = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(body.access_token) });
    expect(ui.status).toBe(401);
    expect(ui.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("oidcc-ensure-registered-redirect-uri: an unregistered redirect_uri gets the error page, never a redirect", async () => {
    const t = await oidcApp();
    const res = await call(
      "GET",
      authUrl(t.app.clientId, { redirect_uri: "https://rp.example.com/other", state: "s" }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.text).toContain("redirect_uri");
    expect(await rowsOfApp("verifications", t.app.clientId)).toBe(0);
  });

  it("oidcc-unsigned-request-object-… and oidcc-request-uri-unsigned-…: an unsigned request object and a request_uri by reference are refused", async () => {
    const t = await oidcApp();
    const object = new UnsecuredJWT({
      client_id: t.app.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid",
      state: "inner",
    })
      .setIssuer(t.app.clientId)
      .setAudience(issuer)
      .setExpirationTime("5m")
      .encode();
    const byValue = await authError(t, { request: object });
    // refused as unsupported before request objects, as invalid_request_object (alg none) since
    expect(["request_not_supported", "invalid_request_object"]).toContain(byValue.error);
    expect(byValue.description).toContain("request");
    const byReference = await authError(t, { request_uri: "https://rp.example.com/request.jwt" });
    expect(byReference.error).toBe("request_uri_not_supported");
    expect(await rowsOfApp("verifications", t.app.clientId)).toBe(0);
  });

  it("oidcc-claims-essential: a well-formed claims request is accepted (and not used); a malformed one is invalid_request", async () => {
    const t = await oidcApp(["it_spid"]);
    const claims = JSON.stringify({ userinfo: { name: { essential: true } } });
    const { location } = await callback(t, authUrl(t.app.clientId, { provider: "it_spid", claims }));
    const res = await token(t, {
      grant_type: "authorization_code",
      code: location.searchParams.get("code")!,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(200);
    expect(claimsOf(res.body.id_token)).not.toHaveProperty("name");
    const ui = await call("GET", "/oidc/sandbox/userinfo", { headers: bearer(res.body.access_token) });
    expect(ui.body.user).toHaveProperty("given_name");
    for (const bad of ["{", "[]", "null", '"x"', '{"userinfo":[]}', '{"id_token":"name"}']) {
      const { error, description } = await authError(t, { provider: "it_spid", claims: bad });
      expect(error, bad).toBe("invalid_request");
      expect(description).toContain("claims");
    }
  });

  it("oidcc-refresh-token: not offered (skipped by the plan): no refresh_token, the grant is unsupported", async () => {
    const t = await oidcApp();
    const { body } = await tokensFor(t, { scope: "openid offline_access" });
    expect(body).not.toHaveProperty("refresh_token");
    const res = await token(t, { grant_type: "refresh_token", refresh_token: "x" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("unsupported_grant_type");
  });
});
