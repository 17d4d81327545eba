/**
 * What real eIDs require of the OIDC upstream adapter (issue 24 §3), each against an oidc-provider
 * configured to REQUIRE it: private_key_jwt at the token endpoint (the OP verifies the assertion
 * with the client's jwks), pushed authorization requests, signed request objects, encrypted ID
 * tokens (RSA-OAEP-256 / A256GCM) and all four at once. Each feature has a test showing the
 * sign-in fails without it and completes with the mapped claims with it. Also: the adapter's
 * requests to the upstream go through the SSRF guard.
 */
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkOidcIssuer } from "../../connections/check";
import { ApiError } from "../../errors";
import { startUpstreamOp, type TUpstreamOp } from "../../testing/upstream-oidc";
import { beginOidcAuthorization, completeOidcAuthorization } from "./oidc";
import { clearOidcDiscoveryCache } from "./oidc-client";
import { ZOidcUpstreamConfig, type TOidcUpstreamConfig } from "./oidc-settings";
import { publicJwk, type TPrivateJwk } from "./oidc-keys";

const privateJwk = (type: "rsa" | "ec", kid: string): Record<string, unknown> => ({
  ...(type === "rsa"
    ? crypto.generateKeyPairSync("rsa", { modulusLength: 2048 })
    : crypto.generateKeyPairSync("ec", { namedCurve: "P-256" })
  ).privateKey.export({ format: "jwk" }),
  kid,
});

const SIGNING = privateJwk("rsa", "broker-sig-1");
const EC_SIGNING = privateJwk("ec", "broker-sig-ec");
const DECRYPTION = privateJwk("rsa", "broker-enc-1");
const pub = (jwk: Record<string, unknown>, use: "sig" | "enc") => publicJwk(jwk as TPrivateJwk, use);

const ACCOUNTS = {
  "marianne-1789": {
    claims: { given_name: "Marianne", family_name: "Dupont", birthdate: "1989-07-14", prenom: "Marianne" },
    acr: "eidas2",
  },
};

const ops: TUpstreamOp[] = [];
async function opRequiring(client: Record<string, unknown>, features: Record<string, unknown> = {}) {
  const op = await startUpstreamOp({
    accounts: ACCOUNTS,
    scopes: { profile: ["given_name", "family_name", "birthdate", "prenom"] },
    client,
    features,
  });
  ops.push(op);
  return op;
}

/** A configuration for `op`, parsed as a stored connection is (keys from their JSON text). */
function configFor(op: TUpstreamOp, extra: Record<string, unknown>): TOidcUpstreamConfig {
  return ZOidcUpstreamConfig.parse({
    issuer: op.issuer,
    clientId: op.clientId,
    scopes: ["openid", "profile"],
    claimMapping: { prenom: "given_name", birthdate: "birthdate" },
    acrToLoa: { eidas2: 2 },
    allowInsecureRequests: true,
    ...extra,
  });
}

async function signInThrough(op: TUpstreamOp, config: TOidcUpstreamConfig) {
  const { url, saved } = await beginOidcAuthorization(config, op.redirectUri);
  const callback = await op.signIn(url, "marianne-1789");
  return {
    url: new URL(url),
    outcome: await completeOidcAuthorization(config, op.redirectUri, callback, saved),
  };
}

const MAPPED = {
  kind: "success",
  identity: {
    upstreamSubject: "marianne-1789",
    loa: 2,
    claims: { given_name: "Marianne", family_name: "Dupont", birthdate: "1989-07-14" },
  },
};

beforeEach(() => clearOidcDiscoveryCache());

afterAll(async () => {
  await Promise.all(ops.map((op) => op.close()));
});

describe("private_key_jwt", () => {
  let op: TUpstreamOp;
  beforeAll(async () => {
    op = await opRequiring({
      token_endpoint_auth_method: "private_key_jwt",
      client_secret: undefined,
      jwks: { keys: [pub(SIGNING, "sig"), pub(EC_SIGNING, "sig")] },
    });
  });

  it("authenticates at the token endpoint with an assertion the OP verifies against the client's keys", async () => {
    const { outcome } = await signInThrough(op, configFor(op, { privateKeyJwk: SIGNING }));
    expect(outcome).toMatchObject(MAPPED);
    // an EC key signs ES256 assertions; the method may also be named explicitly
    const ec = await signInThrough(
      op,
      configFor(op, { clientAuthMethod: "private_key_jwt", privateKeyJwk: JSON.stringify(EC_SIGNING) }),
    );
    expect(ec.outcome).toMatchObject(MAPPED);
  });

  it("fails without it (a client secret) and with a key the OP does not know", async () => {
    const secret = await signInThrough(
      op,
      configFor(op, { clientSecret: "not-the-way-this-client-signs-in" }),
    );
    expect(secret.outcome).toMatchObject({ kind: "failure", reason: "provider_error" });
    if (secret.outcome.kind === "failure") expect(secret.outcome.message).toMatch(/invalid_client/);
    const stranger = await signInThrough(
      op,
      configFor(op, { privateKeyJwk: privateJwk("rsa", "broker-sig-1") }),
    );
    expect(stranger.outcome).toMatchObject({ kind: "failure", reason: "provider_error" });
  });
});

describe("pushed authorization requests", () => {
  let op: TUpstreamOp;
  beforeAll(async () => {
    op = await opRequiring({ require_pushed_authorization_requests: true });
  });

  it("pushes the request first and sends the end-user with its request_uri only", async () => {
    const config = configFor(op, { clientSecret: op.clientSecret, pushedAuthorizationRequests: true });
    const before = op.requests.filter((r) => r === "POST /request").length;
    const { url, outcome } = await signInThrough(op, config);
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    expect(op.requests.filter((r) => r === "POST /request").length).toBe(before + 1);
    expect(outcome).toMatchObject(MAPPED);
  });

  it("fails without it: the OP refuses a plain authorization request", async () => {
    const { url, outcome } = await signInThrough(op, configFor(op, { clientSecret: op.clientSecret }));
    expect(url.searchParams.get("request_uri")).toBeNull();
    expect(outcome).toMatchObject({ kind: "failure", reason: "provider_error" });
    if (outcome.kind === "failure") expect(outcome.message).toMatch(/invalid_request/);
  });
});

describe("signed request objects", () => {
  let op: TUpstreamOp;
  beforeAll(async () => {
    op = await opRequiring(
      {
        require_signed_request_object: true,
        request_object_signing_alg: "PS256",
        jwks: { keys: [pub(SIGNING, "sig")] },
      },
      { requestObjects: { enabled: true } },
    );
  });

  it("sends the authorization request as a request object signed with the configured algorithm", async () => {
    const config = configFor(op, {
      clientSecret: op.clientSecret,
      privateKeyJwk: SIGNING,
      requestObject: { signingAlg: "PS256" },
    });
    const { url, outcome } = await signInThrough(op, config);
    const request = url.searchParams.get("request")!;
    const header = JSON.parse(Buffer.from(request.split(".")[0]!, "base64url").toString()) as Record<
      string,
      unknown
    >;
    expect(header).toMatchObject({ alg: "PS256", kid: "broker-sig-1" });
    // nothing but the request object and client_id travels in the URL
    expect(url.searchParams.get("nonce")).toBeNull();
    expect(outcome).toMatchObject(MAPPED);
  });

  it("fails without it, and with another algorithm than the client registered", async () => {
    const plain = await signInThrough(op, configFor(op, { clientSecret: op.clientSecret }));
    expect(plain.outcome).toMatchObject({ kind: "failure", reason: "provider_error" });
    const rs256 = await signInThrough(
      op,
      configFor(op, {
        clientSecret: op.clientSecret,
        privateKeyJwk: SIGNING,
        requestObject: { signingAlg: "RS256" },
      }),
    );
    expect(rs256.outcome).toMatchObject({ kind: "failure", reason: "provider_error" });
  });
});

describe("encrypted ID tokens", () => {
  let op: TUpstreamOp;
  beforeAll(async () => {
    op = await opRequiring(
      {
        id_token_encrypted_response_alg: "RSA-OAEP-256",
        id_token_encrypted_response_enc: "A256GCM",
        // as FranceConnect+: userinfo answers a signed, then encrypted JWT too
        userinfo_signed_response_alg: "RS256",
        userinfo_encrypted_response_alg: "RSA-OAEP-256",
        userinfo_encrypted_response_enc: "A256GCM",
        jwks: { keys: [pub(DECRYPTION, "enc")] },
      },
      { encryption: { enabled: true }, jwtUserinfo: { enabled: true } },
    );
  });

  it("decrypts the ID token and the userinfo JWT with idTokenDecryptionKey and checks them as any other", async () => {
    const { outcome } = await signInThrough(
      op,
      configFor(op, { clientSecret: op.clientSecret, idTokenDecryptionKey: DECRYPTION }),
    );
    expect(outcome).toMatchObject(MAPPED);
    if (outcome.kind === "success") expect(outcome.identity.evidence).toMatchObject({ issuer: op.issuer });
  });

  it("fails without the key, and with another key", async () => {
    const none = await signInThrough(op, configFor(op, { clientSecret: op.clientSecret }));
    expect(none.outcome.kind).toBe("failure");
    const other = await signInThrough(
      op,
      configFor(op, {
        clientSecret: op.clientSecret,
        idTokenDecryptionKey: privateJwk("rsa", "broker-enc-1"),
      }),
    );
    expect(other.outcome.kind).toBe("failure");
  });
});

describe("all four, as FranceConnect+ asks", () => {
  it("private_key_jwt, a signed request object pushed first, and an encrypted ID token", async () => {
    const op = await opRequiring(
      {
        token_endpoint_auth_method: "private_key_jwt",
        client_secret: undefined,
        require_pushed_authorization_requests: true,
        require_signed_request_object: true,
        id_token_encrypted_response_alg: "RSA-OAEP-256",
        id_token_encrypted_response_enc: "A256GCM",
        jwks: { keys: [pub(EC_SIGNING, "sig"), pub(DECRYPTION, "enc")] },
      },
      { requestObjects: { enabled: true }, encryption: { enabled: true } },
    );
    const config = configFor(op, {
      privateKeyJwk: EC_SIGNING,
      requestObject: {},
      pushedAuthorizationRequests: true,
      idTokenDecryptionKey: DECRYPTION,
    });
    const { url, outcome } = await signInThrough(op, config);
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    expect(outcome).toMatchObject(MAPPED);
  });
});

describe("authorization parameters a scheme requires (acr_values, vtr, prompt)", () => {
  const PARAMETERS = { acr_values: "eidas3", vtr: '["Cl.Cm"]', prompt: "login" };
  async function opAsking(client: Record<string, unknown>, features: Record<string, unknown> = {}) {
    const op = await startUpstreamOp({
      accounts: ACCOUNTS,
      scopes: { profile: ["given_name", "family_name", "birthdate", "prenom"] },
      client,
      features,
      // the account signs in at eidas2 unless eidas3 is asked for; GOV.UK's vtr is read
      acrValues: ["eidas3"],
      extraParams: ["vtr"],
    });
    ops.push(op);
    return op;
  }
  const levelOf = (outcome: Awaited<ReturnType<typeof signInThrough>>["outcome"]) =>
    outcome.kind === "success" ? outcome.identity.loa : outcome.kind;

  it("sends them in a plain authorization request: the OP reads them and authenticates at the acr asked for", async () => {
    const op = await opAsking({});
    const base = { clientSecret: op.clientSecret, acrToLoa: { eidas2: 2, eidas3: 3 } };
    // without them the OP's default level applies
    const plain = await signInThrough(op, configFor(op, base));
    expect(plain.url.searchParams.get("acr_values")).toBeNull();
    expect(op.authorizationParams.at(-1)).not.toHaveProperty("acr_values");
    expect(levelOf(plain.outcome)).toBe(2);

    const { url, outcome } = await signInThrough(
      op,
      configFor(op, { ...base, authorizationParameters: PARAMETERS }),
    );
    expect(
      Object.fromEntries(["acr_values", "vtr", "prompt"].map((k) => [k, url.searchParams.get(k)])),
    ).toEqual(PARAMETERS);
    expect(op.authorizationParams.at(-1)).toMatchObject(PARAMETERS);
    expect(outcome).toMatchObject({ kind: "success", identity: { loa: 3 } });
    // the check says when the level asked for is not one the issuer lists
    const listed = await checkOidcIssuer(
      "ch_swissid",
      configFor(op, { ...base, authorizationParameters: PARAMETERS }),
    );
    expect(listed.warnings.filter((w) => w.includes("acr_values"))).toEqual([]);
    const unlisted = await checkOidcIssuer(
      "ch_swissid",
      configFor(op, { ...base, authorizationParameters: { acr_values: "eidas3 qoa9" } }),
    );
    expect(unlisted.warnings).toContain(
      "acr_values_supported does not list qoa9 (authorizationParameters.acr_values)",
    );
  });

  it("puts them inside the signed request object", async () => {
    const op = await opAsking(
      { require_signed_request_object: true, jwks: { keys: [pub(SIGNING, "sig")] } },
      { requestObjects: { enabled: true } },
    );
    const config = configFor(op, {
      clientSecret: op.clientSecret,
      privateKeyJwk: SIGNING,
      requestObject: {},
      acrToLoa: { eidas2: 2, eidas3: 3 },
      authorizationParameters: PARAMETERS,
    });
    const { url, outcome } = await signInThrough(op, config);
    expect(url.searchParams.get("acr_values")).toBeNull();
    const claims = JSON.parse(
      Buffer.from(url.searchParams.get("request")!.split(".")[1]!, "base64url").toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject(PARAMETERS);
    expect(op.authorizationParams.at(-1)).toMatchObject(PARAMETERS);
    expect(outcome).toMatchObject({ kind: "success", identity: { loa: 3 } });
  });

  it("pushes them with the request (PAR), the end-user's URL carrying only the request_uri", async () => {
    const op = await opAsking({ require_pushed_authorization_requests: true });
    const config = configFor(op, {
      clientSecret: op.clientSecret,
      pushedAuthorizationRequests: true,
      acrToLoa: { eidas2: 2, eidas3: 3 },
      authorizationParameters: PARAMETERS,
    });
    const { url, outcome } = await signInThrough(op, config);
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    expect(op.authorizationParams.at(-1)).toMatchObject(PARAMETERS);
    expect(outcome).toMatchObject({ kind: "success", identity: { loa: 3 } });
  });
});

describe("check connection", () => {
  it("warns about what the configuration needs and the upstream does not offer", async () => {
    const plain = await opRequiring({});
    const config = configFor(plain, {
      privateKeyJwk: SIGNING,
      requestObject: {},
      pushedAuthorizationRequests: true,
      idTokenDecryptionKey: DECRYPTION,
    });
    const lacking = await checkOidcIssuer("fr_franceconnect", config);
    expect(lacking.ok).toBe(true);
    expect(lacking.warnings).toEqual(
      expect.arrayContaining([
        "request_object_signing_alg_values_supported does not list RS256 (requestObject)",
        "idTokenDecryptionKey is set but the issuer lists no id_token_encryption_alg_values_supported",
      ]),
    );
    const able = await opRequiring(
      { jwks: { keys: [pub(SIGNING, "sig"), pub(DECRYPTION, "enc")] } },
      { requestObjects: { enabled: true }, encryption: { enabled: true } },
    );
    const offered = await checkOidcIssuer(
      "fr_franceconnect",
      configFor(able, { ...config, issuer: able.issuer }),
    );
    expect(offered.ok).toBe(true);
    expect(
      offered.warnings.filter((w) =>
        /requestObject|idTokenDecryptionKey|PushedAuth|pushed|does not list/.test(w),
      ),
    ).toEqual([]);
  });
});

describe("the SSRF guard", () => {
  afterEach(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
  });

  it("refuses an upstream on a private address unless private networks are allowed", async () => {
    const op = await opRequiring({});
    const config = configFor(op, { clientSecret: op.clientSecret });
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "0";
    const before = op.requests.length;
    const refused = await beginOidcAuthorization(config, op.redirectUri).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("PROVIDER_NOT_AVAILABLE");
    expect(op.requests.length).toBe(before);

    // allowed: discovery goes through; a callback redeemed after the guard is back on fails cleanly
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    clearOidcDiscoveryCache();
    const { url, saved } = await beginOidcAuthorization(config, op.redirectUri);
    const callback = await op.signIn(url, "marianne-1789");
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "0";
    const tokenRequests = op.requests.filter((r) => r === "POST /token").length;
    const outcome = await completeOidcAuthorization(config, op.redirectUri, callback, saved);
    expect(outcome).toMatchObject({ kind: "failure", reason: "provider_unavailable" });
    expect(op.requests.filter((r) => r === "POST /token").length).toBe(tokenRequests);
  });
});
