import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../../errors";
import { startUpstreamOp, type TUpstreamOp } from "../../testing/upstream-oidc";
import { beginOidcAuthorization, completeOidcAuthorization } from "./oidc";
import { clearOidcDiscoveryCache } from "./oidc-client";
import type { TOidcUpstreamConfig } from "./oidc-settings";

const HIGH = "http://eidas.europa.eu/LoA/high";

let op: TUpstreamOp;
let config: TOidcUpstreamConfig;

beforeAll(async () => {
  op = await startUpstreamOp({
    accounts: {
      "erika-4711": {
        claims: {
          given_name: "Erika",
          family_name: "Mustermann",
          birthdate: "1964-08-12",
          address: {
            street_address: "Heidestraße 17",
            postal_code: "51147",
            locality: "Köln",
            country: "DE",
          },
          country_of_citizenship: "DE",
          document: { type: "ID", number_last4: "4711" },
        },
        acr: HIGH,
        amr: ["hwk"],
      },
      "jonas-0815": {
        claims: { given_name: "Jonas", family_name: "Becker", birthdate: "1991-05-23" },
        acr: "urn:example:unknown-level",
      },
    },
    scopes: { eid: ["country_of_citizenship", "document"] },
  });
  config = {
    issuer: op.issuer,
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    scopes: ["openid", "profile", "address", "eid"],
    claimMapping: { country_of_citizenship: "nationality", "/document/number_last4": "document_number" },
    acrToLoa: { [HIGH]: 3, "http://eidas.europa.eu/LoA/substantial": 2 },
    allowInsecureRequests: true,
  };
});

afterAll(async () => {
  await op.close();
});

beforeEach(() => {
  clearOidcDiscoveryCache();
});

const count = (what: string) => op.requests.filter((r) => r === what).length;

describe("OIDC upstream adapter against a real OpenID Provider", () => {
  it("sends an S256 PKCE, state and nonce request and returns the mapped identity", async () => {
    const { url, saved } = await beginOidcAuthorization(config, op.redirectUri);
    const request = new URL(url);
    expect(`${request.origin}${request.pathname}`).toBe(`${op.issuer}/auth`);
    const params = Object.fromEntries(request.searchParams);
    expect(params).toMatchObject({
      client_id: op.clientId,
      redirect_uri: op.redirectUri,
      response_type: "code",
      scope: "openid profile address eid",
      state: saved.state,
      nonce: saved.nonce,
      code_challenge_method: "S256",
    });
    expect(params.code_challenge).toBe(createHash("sha256").update(saved.codeVerifier).digest("base64url"));
    expect(saved.codeVerifier.length).toBeGreaterThanOrEqual(43);

    const callback = await op.signIn(url, "erika-4711");
    expect(callback.searchParams.get("state")).toBe(saved.state);
    expect(callback.searchParams.get("code")).toBeTruthy();

    const outcome = await completeOidcAuthorization(config, op.redirectUri, callback, saved);
    expect(outcome.kind).toBe("success");
    if (outcome.kind !== "success") return;
    const { identity } = outcome;
    expect(identity.upstreamSubject).toBe("erika-4711");
    expect(identity.loa).toBe(3);
    expect(identity.claims).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      birthdate: "1964-08-12",
      address: { street_address: "Heidestraße 17", postal_code: "51147", locality: "Köln", country: "DE" },
      nationality: "DE",
      document_number: "4711",
    });
    // the upstream's own names, without protocol claims
    expect(identity.rawClaims).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      birthdate: "1964-08-12",
      address: { street_address: "Heidestraße 17", postal_code: "51147", locality: "Köln", country: "DE" },
      country_of_citizenship: "DE",
      document: { type: "ID", number_last4: "4711" },
    });
    expect(identity.evidence).toMatchObject({ issuer: op.issuer, sub: "erika-4711", acr: HIGH, amr: "hwk" });
    expect(identity.evidence.auth_time).toMatch(/^\d{10}$/);
    for (const value of Object.values(identity.evidence)) expect(typeof value).toBe("string");
    expect(count("POST /token")).toBeGreaterThan(0);
  });

  it("reports loa null for an acr the configuration does not map, and only the claims granted", async () => {
    const { url, saved } = await beginOidcAuthorization({ ...config, scopes: ["profile"] }, op.redirectUri);
    expect(new URL(url).searchParams.get("scope")).toBe("openid profile");
    const callback = await op.signIn(url, "jonas-0815");
    const outcome = await completeOidcAuthorization(config, op.redirectUri, callback, saved);
    expect(outcome).toMatchObject({
      kind: "success",
      identity: {
        upstreamSubject: "jonas-0815",
        loa: null,
        claims: { given_name: "Jonas", family_name: "Becker", birthdate: "1991-05-23" },
        evidence: { acr: "urn:example:unknown-level" },
      },
    });
    if (outcome.kind === "success") expect(outcome.identity.claims).not.toHaveProperty("nationality");
  });

  it("fetches the discovery document and the signing keys once per issuer", async () => {
    const discoveryBefore = count("GET /.well-known/openid-configuration");
    const jwksBefore = count("GET /jwks");
    for (let i = 0; i < 2; i++) {
      const { url, saved } = await beginOidcAuthorization(config, op.redirectUri);
      const outcome = await completeOidcAuthorization(
        config,
        op.redirectUri,
        await op.signIn(url, "erika-4711"),
        saved,
      );
      expect(outcome.kind).toBe("success");
    }
    expect(count("GET /.well-known/openid-configuration") - discoveryBefore).toBe(1);
    expect(count("GET /jwks") - jwksBefore).toBe(1);
  });

  it("fails on a callback whose state is not the session's, without redeeming the code", async () => {
    const { url, saved } = await beginOidcAuthorization(config, op.redirectUri);
    const callback = await op.signIn(url, "erika-4711");
    const forged = new URL(callback);
    forged.searchParams.set("state", "attacker-state");
    const tokenCalls = count("POST /token");
    const outcome = await completeOidcAuthorization(config, op.redirectUri, forged, saved);
    expect(outcome).toMatchObject({ kind: "failure", reason: "invalid_response" });
    expect(count("POST /token")).toBe(tokenCalls);
    // the genuine callback still works: nothing was consumed
    expect((await completeOidcAuthorization(config, op.redirectUri, callback, saved)).kind).toBe("success");
  });

  it("treats access_denied from the sign-in page as a cancellation, but not with a foreign state", async () => {
    const { url, saved } = await beginOidcAuthorization(config, op.redirectUri);
    const callback = await op.cancel(url);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(await completeOidcAuthorization(config, op.redirectUri, callback, saved)).toEqual({
      kind: "cancelled",
    });

    const other = await beginOidcAuthorization(config, op.redirectUri);
    expect(await completeOidcAuthorization(config, op.redirectUri, callback, other.saved)).toMatchObject({
      kind: "failure",
      reason: "invalid_response",
    });
  });

  it("reports any other upstream error as provider_error", async () => {
    const { saved } = await beginOidcAuthorization(config, op.redirectUri);
    const callback = new URL(op.redirectUri);
    callback.search = new URLSearchParams({
      error: "temporarily_unavailable",
      error_description: "maintenance",
      state: saved.state,
      iss: op.issuer,
    }).toString();
    expect(await completeOidcAuthorization(config, op.redirectUri, callback, saved)).toEqual({
      kind: "failure",
      reason: "provider_error",
      message: "temporarily_unavailable: maintenance",
      // carried by the browser: never counted against the connection
      origin: "callback",
    });
  });

  it("fails on a tampered code, a wrong PKCE verifier, a wrong nonce and a replayed code", async () => {
    const tampered = await beginOidcAuthorization(config, op.redirectUri);
    const tamperedCallback = await op.signIn(tampered.url, "erika-4711");
    tamperedCallback.searchParams.set("code", `${tamperedCallback.searchParams.get("code")}x`);
    const a = await completeOidcAuthorization(config, op.redirectUri, tamperedCallback, tampered.saved);
    expect(a).toMatchObject({ kind: "failure", reason: "provider_error", origin: "callback" });
    if (a.kind === "failure") expect(a.message).toMatch(/invalid_grant/);

    const pkce = await beginOidcAuthorization(config, op.redirectUri);
    const pkceCallback = await op.signIn(pkce.url, "erika-4711");
    const b = await completeOidcAuthorization(config, op.redirectUri, pkceCallback, {
      ...pkce.saved,
      codeVerifier: "x".repeat(64),
    });
    expect(b).toMatchObject({
      kind: "failure",
      reason: "provider_error",
      message: expect.stringMatching(/invalid_grant/),
    });

    const nonce = await beginOidcAuthorization(config, op.redirectUri);
    const nonceCallback = await op.signIn(nonce.url, "erika-4711");
    const c = await completeOidcAuthorization(config, op.redirectUri, nonceCallback, {
      ...nonce.saved,
      nonce: "another-nonce",
    });
    expect(c).toMatchObject({ kind: "failure", reason: "invalid_response" });

    const replay = await beginOidcAuthorization(config, op.redirectUri);
    const replayCallback = await op.signIn(replay.url, "erika-4711");
    expect((await completeOidcAuthorization(config, op.redirectUri, replayCallback, replay.saved)).kind).toBe(
      "success",
    );
    expect(
      await completeOidcAuthorization(config, op.redirectUri, replayCallback, replay.saved),
    ).toMatchObject({
      kind: "failure",
      reason: "provider_error",
    });
  });

  it("fails when the upstream refuses the client's credentials", async () => {
    const wrong = { ...config, clientSecret: "not-the-secret" };
    const { url, saved } = await beginOidcAuthorization(wrong, op.redirectUri);
    const callback = await op.signIn(url, "erika-4711");
    const outcome = await completeOidcAuthorization(wrong, op.redirectUri, callback, saved);
    expect(outcome).toMatchObject({
      kind: "failure",
      reason: "provider_error",
      message: expect.stringMatching(/invalid_client/),
    });
    // the upstream refused our credentials: the connection's fault, not the browser's
    expect(outcome).not.toHaveProperty("origin");
  });

  it("refuses an unreachable issuer and plain http without allowInsecureRequests", async () => {
    const closed = await startUpstreamOp({ accounts: {} });
    await closed.close();
    const unreachable = { ...config, issuer: closed.issuer };
    const error = await beginOidcAuthorization(unreachable, op.redirectUri).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(String((error as ApiError).message)).not.toContain("127.0.0.1");

    const saved = { state: "s", nonce: "n", codeVerifier: "v".repeat(43) };
    const callback = new URL(`${op.redirectUri}?code=abc&state=s&iss=${encodeURIComponent(closed.issuer)}`);
    expect(await completeOidcAuthorization(unreachable, op.redirectUri, callback, saved)).toMatchObject({
      kind: "failure",
      reason: "provider_unavailable",
    });

    const insecure = { ...config, allowInsecureRequests: false };
    await expect(beginOidcAuthorization(insecure, op.redirectUri)).rejects.toMatchObject({
      code: "PROVIDER_NOT_AVAILABLE",
    });
  });

  it("replays the callback onto the registered redirect URI, whatever host delivered it", async () => {
    const { url, saved } = await beginOidcAuthorization(config, op.redirectUri);
    const callback = await op.signIn(url, "erika-4711");
    const proxied = new URL(`http://10.0.0.5:3000/internal/callback${callback.search}`);
    expect((await completeOidcAuthorization(config, op.redirectUri, proxied, saved)).kind).toBe("success");
    await expect(beginOidcAuthorization(config, `${op.redirectUri}?x=1`)).rejects.toThrow(
      /query or fragment/,
    );
  });
});
