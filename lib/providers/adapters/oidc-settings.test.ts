import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { clientAuthMethodOf } from "./oidc-client";
import { jwkThumbprint, publicJwk, type TPrivateJwk } from "./oidc-keys";
import { invertLegacyClaimMapping, ZOidcUpstreamConfig } from "./oidc-settings";

const valid = {
  issuer: "https://login.example-eid.test",
  clientId: "broker",
  clientSecret: "s3cret",
  scopes: ["openid", "profile"],
  claimMapping: {
    country_of_citizenship: "nationality",
    "/vc/credentialSubject/birthDate/0/value": "birthdate",
  },
  acrToLoa: { "http://eidas.europa.eu/LoA/high": 3 },
};

const rsaJwk = crypto
  .generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ format: "jwk" });
const ecJwk = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
const otherRsa = crypto
  .generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ format: "jwk" });
const publicRsa = Object.fromEntries(Object.entries(rsaJwk).filter(([k]) => ["kty", "n", "e"].includes(k)));

function issuePaths(input: unknown): string[] {
  const parsed = ZOidcUpstreamConfig.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
}

describe("ZOidcUpstreamConfig", () => {
  it("accepts a complete configuration", () => {
    expect(ZOidcUpstreamConfig.parse(valid)).toEqual(valid);
    expect(issuePaths({ issuer: "https://x.test", clientId: "c", clientSecret: "s" })).toEqual([]);
  });

  it("refuses plain http unless insecure requests are allowed", () => {
    expect(issuePaths({ ...valid, issuer: "http://127.0.0.1:4000" })).toEqual(["issuer"]);
    expect(issuePaths({ ...valid, issuer: "http://127.0.0.1:4000", allowInsecureRequests: true })).toEqual(
      [],
    );
    expect(issuePaths({ ...valid, issuer: "ftp://x.test" })).toEqual(["issuer"]);
  });

  it("names bad mappings, levels, scopes and unknown fields", () => {
    // keys are the upstream's names; a value that is not a known OIDC claim is named by its key
    expect(issuePaths({ ...valid, claimMapping: { sn: "surname" } })).toEqual(["claimMapping.sn"]);
    expect(issuePaths({ ...valid, claimMapping: { "": "given_name" } })).toEqual(["claimMapping."]);
    expect(issuePaths({ ...valid, acrToLoa: { high: 4 } })).toEqual(["acrToLoa.high"]);
    expect(issuePaths({ ...valid, scopes: ["open id"] })).toEqual(["scopes.0"]);
    expect(issuePaths({ ...valid, clientSecret: "" })).toEqual(["clientSecret"]);
    expect(issuePaths({ ...valid, tokenUrl: "https://x.test/token" })).toEqual([""]);
  });

  it("takes a scheme's authorization parameters and refuses the ones the adapter sets itself", () => {
    const parameters = { acr_values: "eidas2", vtr: '["Cl.Cm"]', prompt: "login", claims: "{}" };
    expect(ZOidcUpstreamConfig.parse({ ...valid, authorizationParameters: parameters })).toMatchObject({
      authorizationParameters: parameters,
    });
    for (const owned of [
      "client_id",
      "redirect_uri",
      "response_type",
      "response_mode",
      "scope",
      "state",
      "nonce",
      "code_challenge",
      "code_challenge_method",
      "request",
      "request_uri",
    ])
      expect(issuePaths({ ...valid, authorizationParameters: { acr_values: "x", [owned]: "x" } })).toEqual([
        `authorizationParameters.${owned}`,
      ]);
    const scope = ZOidcUpstreamConfig.safeParse({ ...valid, authorizationParameters: { scope: "openid" } });
    expect(scope.error?.issues[0]?.message).toMatch(/scopes/);
    expect(issuePaths({ ...valid, authorizationParameters: { "acr values": "x" } })).toEqual([
      "authorizationParameters.acr values",
    ]);
    expect(issuePaths({ ...valid, authorizationParameters: { prompt: 1 } })).toEqual([
      "authorizationParameters.prompt",
    ]);
  });

  it("accepts private_key_jwt with a private RSA or EC key, as an object or its JSON text", () => {
    const { clientSecret: _s, ...noSecret } = valid;
    expect(issuePaths({ ...noSecret, clientAuthMethod: "private_key_jwt", privateKeyJwk: rsaJwk })).toEqual(
      [],
    );
    expect(issuePaths({ ...noSecret, privateKeyJwk: JSON.stringify(ecJwk) })).toEqual([]);
    const parsed = ZOidcUpstreamConfig.parse({ ...noSecret, privateKeyJwk: rsaJwk });
    // a key without kid gets its RFC 7638 thumbprint
    expect(parsed.privateKeyJwk!.kid).toBe(jwkThumbprint(rsaJwk as Record<string, unknown>));
    expect(clientAuthMethodOf(parsed, {})).toBe("private_key_jwt");
  });

  it("names the missing credential and refuses public or unusable keys", () => {
    const { clientSecret: _s, ...noSecret } = valid;
    expect(issuePaths({ ...noSecret, clientAuthMethod: "private_key_jwt" })).toEqual(["privateKeyJwk"]);
    expect(
      issuePaths({ ...noSecret, clientAuthMethod: "client_secret_post", privateKeyJwk: rsaJwk }),
    ).toEqual(["clientSecret"]);
    expect(issuePaths(noSecret)).toEqual(["clientSecret"]);
    expect(issuePaths({ ...valid, privateKeyJwk: publicRsa })).toEqual(["privateKeyJwk"]);
    expect(issuePaths({ ...valid, idTokenDecryptionKey: publicRsa })).toEqual(["idTokenDecryptionKey"]);
    expect(issuePaths({ ...valid, privateKeyJwk: "not json" })).toEqual(["privateKeyJwk"]);
    expect(issuePaths({ ...valid, privateKeyJwk: { ...otherRsa, n: rsaJwk.n } })).toEqual(["privateKeyJwk"]);
    expect(issuePaths({ ...valid, privateKeyJwk: { ...ecJwk, d: rsaJwk.e } })).toEqual(["privateKeyJwk"]);
    expect(issuePaths({ ...valid, privateKeyJwk: { ...rsaJwk, use: "enc" } })).toEqual(["privateKeyJwk"]);
    expect(issuePaths({ ...valid, privateKeyJwk: { ...rsaJwk, alg: "ES256" } })).toEqual(["privateKeyJwk"]);
    expect(issuePaths({ ...valid, idTokenDecryptionKey: { ...ecJwk, use: "sig" } })).toEqual([
      "idTokenDecryptionKey",
    ]);
    const small = crypto
      .generateKeyPairSync("rsa", { modulusLength: 1024 })
      .privateKey.export({ format: "jwk" });
    expect(issuePaths({ ...valid, privateKeyJwk: small })).toEqual(["privateKeyJwk"]);
  });

  it("requires a signing key for request objects, of the algorithm's type", () => {
    expect(issuePaths({ ...valid, requestObject: {} })).toEqual(["privateKeyJwk"]);
    expect(issuePaths({ ...valid, requestObject: { signingAlg: "PS256" }, privateKeyJwk: rsaJwk })).toEqual(
      [],
    );
    expect(issuePaths({ ...valid, requestObject: { signingAlg: "ES256" }, privateKeyJwk: rsaJwk })).toEqual([
      "requestObject.signingAlg",
    ]);
    expect(issuePaths({ ...valid, requestObject: { signingAlg: "HS256" }, privateKeyJwk: rsaJwk })).toEqual([
      "requestObject.signingAlg",
    ]);
  });

  it("serves only the public members of a key", () => {
    const parsed = ZOidcUpstreamConfig.parse({ ...valid, idTokenDecryptionKey: { ...rsaJwk, kid: "enc-1" } });
    const served = publicJwk(parsed.idTokenDecryptionKey as TPrivateJwk, "enc");
    expect(served).toEqual({ kty: "RSA", n: rsaJwk.n, e: rsaJwk.e, kid: "enc-1", use: "enc" });
  });
});

describe("invertLegacyClaimMapping", () => {
  it("turns a mapping of the former direction around", () => {
    expect(invertLegacyClaimMapping({ given_name: "prenom", birthdate: "/a/0" })).toEqual({
      prenom: "given_name",
      "/a/0": "birthdate",
    });
    expect(invertLegacyClaimMapping(undefined)).toBeUndefined();
  });
});
