/**
 * The OpenID Provider for regulated integrators, end to end (issue 28): openid-client 6 is the
 * relying party, running in the test's Node process; the end-user's browser is Chromium on the real
 * hosted pages, and the sandbox simulator completes the verification. The relying party's
 * redirect_uri is a small server on 127.0.0.1 that records what it receives (e2e/support/relying-party.ts).
 * - a FAPI 2.0 app: PAR + private_key_jwt (ES256) + DPoP with the OP's nonce → hosted page →
 *   callback with `iss` (openid-client checks it) → DPoP-bound tokens → userinfo with a proof;
 *   the same access token as a Bearer token is refused;
 * - response_mode=form_post: the browser POSTs code, state and iss to the relying party;
 * - a signed request object by value (JAR, PS256);
 * - what the browser sees when the rules refuse: a plain /auth for the FAPI app, a reused request_uri.
 */
import { expect, test as base } from "@playwright/test";
import * as client from "openid-client";
import { createWorkspace, type CreatedWorkspace } from "../support/cli";
import {
  clientKey,
  createOidcApp,
  HOSTED_PAGE,
  recordingFetch,
  SANDBOX_ISSUER,
  signInInBrowser,
  startRelyingParty,
  type TClientKey,
  type TExchange,
  type TRelyingParty,
} from "../support/relying-party";

const test = base.extend<object, { workspace: CreatedWorkspace; rp: TRelyingParty }>({
  workspace: [
    async ({}, use, workerInfo) => use(await createWorkspace(`oidc fapi worker ${workerInfo.workerIndex}`)),
    { scope: "worker", timeout: 90_000 },
  ],
  rp: [
    async ({}, use) => {
      const rp = await startRelyingParty();
      await use(rp);
      await rp.close();
    },
    { scope: "worker" },
  ],
});

/** The OP's pages and the e2e server run over http on 127.0.0.1. */
const INSECURE = { execute: [client.allowInsecureRequests] };

/** A FAPI 2.0 app: private_key_jwt with `key` registered in its jwks, profile fapi2. */
async function fapiApp(
  request: Parameters<typeof createOidcApp>[0],
  workspace: CreatedWorkspace,
  rp: TRelyingParty,
  key: TClientKey,
) {
  const app = await createOidcApp(
    request,
    workspace.keys.sandbox,
    rp.callbackUrl,
    { tokenEndpointAuthMethod: "private_key_jwt", jwks: { keys: [key.jwk] }, oidcProfile: "fapi2" },
    "FAPI Bank",
  );
  // the profile turns on what it requires, in the same write
  expect(app.resource).toMatchObject({
    oidcProfile: "fapi2",
    tokenEndpointAuthMethod: "private_key_jwt",
    requirePushedAuthorizationRequests: true,
    requireDpop: true,
    pkceRequired: true,
  });
  const log: TExchange[] = [];
  const config = await client.discovery(
    new URL(SANDBOX_ISSUER),
    app.clientId,
    undefined,
    client.PrivateKeyJwt(key.privateKey),
    INSECURE,
  );
  config[client.customFetch] = recordingFetch(log);
  return { app, config, log };
}

/** One authorization request's secrets and its parameters (PKCE S256, state, nonce, passport). */
async function authorizationRequest(rp: TRelyingParty, extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  return {
    verifier,
    state,
    nonce,
    params: {
      redirect_uri: rp.callbackUrl,
      scope: "openid profile",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      provider: "passport",
      ...extra,
    },
  };
}

const endpoint = (log: TExchange[], path: string) =>
  log.filter((e) => e.url.href === `${SANDBOX_ISSUER}${path}`);

test("FAPI 2.0: PAR + private_key_jwt + DPoP (nonce retry) through the hosted page; iss checked; DPoP-bound tokens", async ({
  page,
  request,
  workspace,
  rp,
}) => {
  const key = await clientKey("ES256");
  const { config, log } = await fapiApp(request, workspace, rp, key);
  const meta = config.serverMetadata();
  expect(meta.pushed_authorization_request_endpoint).toBe(`${SANDBOX_ISSUER}/par`);
  expect(meta.authorization_response_iss_parameter_supported).toBe(true);
  expect(meta.dpop_signing_alg_values_supported).toContain("ES256");
  expect(meta.token_endpoint_auth_methods_supported).toContain("private_key_jwt");

  const dpopKeys = await client.randomDPoPKeyPair("ES256");
  const dpop = client.getDPoPHandle(config, dpopKeys);
  const auth = await authorizationRequest(rp);
  const url = await client.buildAuthorizationUrlWithPAR(config, auth.params, { DPoP: dpop });
  // the browser carries only the reference to the pushed request
  expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
  expect(url.searchParams.get("request_uri")).toMatch(
    /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/,
  );

  // PAR: a proof without the OP's nonce is answered use_dpop_nonce with a DPoP-Nonce header;
  // openid-client retries with it; both requests carry a client assertion, never a secret
  const par = endpoint(log, "/par");
  expect(par.map((e) => e.status)).toEqual([400, 201]);
  expect(par[0]!.json?.error).toBe("use_dpop_nonce");
  expect(par[0]!.headers.get("dpop-nonce")).toBeTruthy();
  for (const e of par) {
    expect(e.dpopProof).toBeTruthy();
    expect(e.authorization).toBeUndefined();
    expect(e.form?.get("client_assertion_type")).toBe(
      "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    );
    expect(e.form?.get("client_assertion")).toBeTruthy();
    expect(e.form?.has("client_secret")).toBe(false);
  }
  expect(par[1]!.json?.expires_in).toBeLessThanOrEqual(60);
  // two attempts, two assertions: a client assertion's jti is single use
  expect(par[0]!.form?.get("client_assertion")).not.toBe(par[1]!.form?.get("client_assertion"));

  const { callback } = await signInInBrowser(page, url, rp, auth.state);
  expect(callback.method).toBe("GET");
  expect(callback.params.get("iss")).toBe(SANDBOX_ISSUER);
  expect(callback.params.get("code")).toBeTruthy();

  // openid-client checks iss and state, sends the code with PKCE, a client assertion and a proof
  const tokens = await client.authorizationCodeGrant(
    config,
    callback.url,
    { pkceCodeVerifier: auth.verifier, expectedState: auth.state, expectedNonce: auth.nonce },
    undefined,
    { DPoP: dpop },
  );
  expect(tokens).toBeDefined();
  const token = endpoint(log, "/token").at(-1)!;
  expect(token.status).toBe(200);
  expect(token.json?.token_type).toBe("DPoP");
  expect(token.dpopProof).toBeTruthy();
  expect(token.form?.get("client_assertion")).toBeTruthy();
  expect(tokens.token_type.toLowerCase()).toBe("dpop");
  const claims = tokens.claims()!;
  expect(claims.iss).toBe(SANDBOX_ISSUER);
  expect(claims.amr).toEqual(["passport"]);

  // userinfo with the DPoP scheme and a proof bound to the token (ath)
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP: dpop });
  expect(userinfo.sub).toBe(claims.sub);
  const info = endpoint(log, "/userinfo").at(-1)!;
  expect(info.status).toBe(200);
  expect(info.authorization).toBe(`DPoP ${tokens.access_token}`);

  // the same access token as a Bearer token: refused, and the OP says the token needs DPoP
  const bearer = await fetch(`${SANDBOX_ISSUER}/userinfo`, {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
  });
  expect(bearer.status).toBe(401);
  const challenge = bearer.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/DPoP/);
  expect(challenge).toMatch(/error="invalid_token"/);
});

test("form_post: the browser POSTs code, state and iss to the relying party; openid-client redeems it", async ({
  page,
  request,
  workspace,
  rp,
}) => {
  const app = await createOidcApp(request, workspace.keys.sandbox, rp.callbackUrl, {}, "Form Post Shop");
  const config = await client.discovery(
    new URL(SANDBOX_ISSUER),
    app.clientId,
    app.clientSecret,
    undefined,
    INSECURE,
  );
  expect(config.serverMetadata().response_modes_supported).toContain("form_post");
  const auth = await authorizationRequest(rp, { response_mode: "form_post" });
  const url = client.buildAuthorizationUrl(config, auth.params);

  // what the browser gets at the resume (a page, not a redirect) and what it sends the relying party
  const resumed = page.waitForResponse((r) => r.url().includes("/oidc/sandbox/resume/"));
  const posted = page.waitForRequest((r) => r.url() === rp.callbackUrl);
  const { callback } = await signInInBrowser(page, url, rp, auth.state);
  const resume = await resumed;
  expect(resume.status()).toBe(200);
  expect(resume.headers()["content-type"]).toContain("text/html");
  expect(resume.headers()["cache-control"]).toContain("no-store");
  // its one inline script (the self-submission) is allowed by its hash, nothing else
  expect(resume.headers()["content-security-policy"]).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
  const form = await posted;
  expect(form.method()).toBe("POST");
  expect(new URLSearchParams(form.postData() ?? "").get("code")).toBe(callback.params.get("code"));

  expect(callback.method).toBe("POST");
  expect(callback.contentType).toBe("application/x-www-form-urlencoded");
  // nothing in the URL: the response is the form
  expect(callback.url.search).toBe("");
  expect([...callback.params.keys()].sort()).toEqual(["code", "iss", "state"]);
  expect(callback.params.get("iss")).toBe(SANDBOX_ISSUER);
  expect(callback.params.get("state")).toBe(auth.state);

  const tokens = await client.authorizationCodeGrant(config, rp.asRequest(callback), {
    pkceCodeVerifier: auth.verifier,
    expectedState: auth.state,
    expectedNonce: auth.nonce,
  });
  expect(tokens.token_type.toLowerCase()).toBe("bearer");
  const claims = tokens.claims()!;
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  expect(userinfo.sub).toBe(claims.sub);
});

test("a signed request object by value (JAR, PS256): only client_id and request in the URL; sign-in completes", async ({
  page,
  request,
  workspace,
  rp,
}) => {
  const key = await clientKey("PS256");
  const app = await createOidcApp(
    request,
    workspace.keys.sandbox,
    rp.callbackUrl,
    { jwks: { keys: [key.jwk] } },
    "Signed Request Shop",
  );
  const config = await client.discovery(
    new URL(SANDBOX_ISSUER),
    app.clientId,
    app.clientSecret,
    undefined,
    INSECURE,
  );
  const meta = config.serverMetadata();
  expect(meta.request_parameter_supported).toBe(true);
  expect(meta.request_object_signing_alg_values_supported).toContain("PS256");
  const auth = await authorizationRequest(rp);
  const url = await client.buildAuthorizationUrlWithJAR(config, auth.params, key.privateKey);
  expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request"]);
  expect(url.searchParams.get("request")!.split(".")).toHaveLength(3);

  const { callback } = await signInInBrowser(page, url, rp, auth.state);
  expect(callback.method).toBe("GET");
  expect(callback.params.get("iss")).toBe(SANDBOX_ISSUER);
  const tokens = await client.authorizationCodeGrant(config, callback.url, {
    pkceCodeVerifier: auth.verifier,
    expectedState: auth.state,
    expectedNonce: auth.nonce,
  });
  const claims = tokens.claims()!;
  expect(claims.amr).toEqual(["passport"]);
  expect((await client.fetchUserInfo(config, tokens.access_token, claims.sub)).sub).toBe(claims.sub);
});

test("refused in the browser: a plain /auth for the FAPI app, a reused request_uri", async ({
  page,
  request,
  workspace,
  rp,
}) => {
  const key = await clientKey("ES256");
  const { config } = await fapiApp(request, workspace, rp, key);

  // a plain authorization request (PKCE and all, but not pushed): back at the relying party
  // with invalid_request, the state and the OP's iss; no verification is started
  const plain = await authorizationRequest(rp);
  await page.goto(client.buildAuthorizationUrl(config, plain.params).href);
  await expect(page).toHaveURL((url) => url.origin === rp.base, { timeout: 10_000 });
  const refused = await rp.waitFor(plain.state);
  expect(refused.method).toBe("GET");
  expect(refused.params.get("error")).toBe("invalid_request");
  expect(refused.params.get("error_description")).toMatch(/pushed authorization request|PAR/i);
  expect(refused.params.get("iss")).toBe(SANDBOX_ISSUER);
  expect(refused.params.has("code")).toBe(false);
  // and openid-client reports it as the authorization server's error
  await expect(
    client.authorizationCodeGrant(config, refused.url, {
      pkceCodeVerifier: plain.verifier,
      expectedState: plain.state,
    }),
  ).rejects.toMatchObject({ error: "invalid_request" });

  // a pushed request is used once: the first visit starts the sign-in, the second is refused
  // on the OP's error page (an unusable request_uri names no redirect_uri to trust)
  const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair("ES256"));
  const pushed = await authorizationRequest(rp);
  const url = await client.buildAuthorizationUrlWithPAR(config, pushed.params, { DPoP: dpop });
  await page.goto(url.href);
  await expect(page).toHaveURL(HOSTED_PAGE, { timeout: 10_000 });
  const again = await page.goto(url.href);
  expect(again!.status()).toBe(400);
  expect(again!.headers()["location"]).toBeUndefined();
  expect(new URL(page.url()).pathname).toBe("/oidc/sandbox/auth");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This sign-in cannot continue");
  await expect(page.locator("#error")).toHaveAttribute("data-error", "invalid_request_uri");
  await expect(page.locator("#error")).toContainText("request_uri");
  expect(rp.received.filter((c) => c.params.get("state") === pushed.state)).toEqual([]);
});
