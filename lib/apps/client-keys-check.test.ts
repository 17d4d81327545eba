import { generateKeyPairSync } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { checkJwkSet, checkJwksUri, JWKS_MAX_BYTES } from "./client-keys-check";

/** A public JWK and its private form, of a fresh key pair. */
async function pair(alg: string, options: Parameters<typeof generateKeyPair>[1] = {}) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...options });
  return { pub: await exportJWK(publicKey), priv: await exportJWK(privateKey) };
}

let ec256: { pub: JWK; priv: JWK };
let ec384: JWK;
let ec521: JWK;
let rsa: { pub: JWK; priv: JWK };
let rsa1024: JWK;
let ed: { pub: JWK; priv: JWK };

beforeAll(async () => {
  ec256 = await pair("ES256");
  ec384 = (await pair("ES384")).pub;
  ec521 = (await pair("ES512")).pub;
  rsa = await pair("PS256");
  // jose generates no key this weak
  rsa1024 = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "jwk" }) as JWK;
  ed = await pair("EdDSA", { crv: "Ed25519" });
});

describe("checkJwkSet", () => {
  it("accepts public EC (P-256, P-384, P-521), RSA ≥ 2048 bits and Ed25519 keys, with kid, use sig and alg", async () => {
    expect(
      await checkJwkSet({
        keys: [
          { ...ec256.pub, kid: "a", use: "sig", alg: "ES256" },
          { ...ec384, kid: "b" },
          ec521,
          { ...rsa.pub, kid: "c", alg: "RS256" },
          { ...rsa.pub, kid: "d", alg: "PS256" },
          { ...ed.pub, kid: "e", alg: "EdDSA" },
        ],
      }),
    ).toBeUndefined();
  });

  it("refuses what is not a JWK Set", async () => {
    for (const value of [null, "keys", [], [ec256.pub], {}, ec256.pub]) {
      expect(await checkJwkSet(value)).toEqual({ path: "jwks", message: expect.stringContaining("JWK Set") });
    }
    expect(await checkJwkSet({ keys: ec256.pub })).toEqual({
      path: "jwks.keys",
      message: "must be an array of JWKs",
    });
    expect(await checkJwkSet({ keys: [] })).toEqual({
      path: "jwks.keys",
      message: "must contain 1 to 10 keys",
    });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ ...ec256.pub, kid: `k${i}` }));
    expect(await checkJwkSet({ keys: eleven })).toEqual({
      path: "jwks.keys",
      message: "must contain 1 to 10 keys",
    });
    expect(await checkJwkSet({ keys: [ec256.pub, "key"] })).toEqual({
      path: "jwks.keys[1]",
      message: "must be a JWK object",
    });
  });

  it("refuses a set over 16 KB as JSON", async () => {
    const big = { keys: [{ ...rsa.pub, kid: "x".repeat(JWKS_MAX_BYTES) }] };
    expect(await checkJwkSet(big)).toEqual({
      path: "jwks",
      message: expect.stringMatching(/^must be at most 16 KB/),
    });
  });

  it("refuses private members, naming the key and the member", async () => {
    expect(await checkJwkSet({ keys: [ec256.pub, ec256.priv] })).toEqual({
      path: "jwks.keys[1].d",
      message: "is a private key member: register public keys only",
    });
    expect(await checkJwkSet({ keys: [rsa.priv] })).toMatchObject({ path: "jwks.keys[0].d" });
    for (const member of ["p", "q", "dp", "dq", "qi", "oth"]) {
      expect(await checkJwkSet({ keys: [{ ...rsa.pub, [member]: "AQAB" }] })).toMatchObject({
        path: `jwks.keys[0].${member}`,
      });
    }
    expect(await checkJwkSet({ keys: [ed.priv] })).toMatchObject({ path: "jwks.keys[0].d" });
  });

  it("refuses symmetric keys and unknown key types", async () => {
    expect(await checkJwkSet({ keys: [{ kty: "oct", k: "c2VjcmV0" }] })).toMatchObject({
      path: "jwks.keys[0].k",
    });
    expect(await checkJwkSet({ keys: [{ kty: "oct", kid: "x" }] })).toEqual({
      path: "jwks.keys[0].kty",
      message: "symmetric keys (oct) are not allowed: register public keys only",
    });
    expect(await checkJwkSet({ keys: [{ kty: "AKP", x: "AA" }] })).toEqual({
      path: "jwks.keys[0].kty",
      message: "must be one of EC, RSA, OKP",
    });
    expect(await checkJwkSet({ keys: [{ n: rsa.pub.n, e: "AQAB" }] })).toMatchObject({
      path: "jwks.keys[0].kty",
    });
  });

  it("refuses curves and members a key type lacks", async () => {
    expect(await checkJwkSet({ keys: [{ ...ec256.pub, crv: "secp256k1" }] })).toEqual({
      path: "jwks.keys[0].crv",
      message: "must be one of P-256, P-384, P-521",
    });
    expect(await checkJwkSet({ keys: [{ ...ed.pub, crv: "X25519" }] })).toEqual({
      path: "jwks.keys[0].crv",
      message: "must be Ed25519",
    });
    const { y: _y, ...noY } = ec256.pub;
    expect(await checkJwkSet({ keys: [noY] })).toEqual({
      path: "jwks.keys[0].y",
      message: "is required for kty EC",
    });
    const { e: _e, ...noE } = rsa.pub;
    expect(await checkJwkSet({ keys: [noE] })).toEqual({
      path: "jwks.keys[0].e",
      message: "is required for kty RSA",
    });
    expect(await checkJwkSet({ keys: [{ ...ed.pub, x: 42 }] })).toEqual({
      path: "jwks.keys[0].x",
      message: "must be a base64url string",
    });
  });

  it("refuses RSA moduli under 2048 bits", async () => {
    expect(await checkJwkSet({ keys: [rsa1024] })).toEqual({
      path: "jwks.keys[0].n",
      message: "RSA modulus must be at least 2048 bits (it is 1024)",
    });
  });

  it("refuses use other than sig, a non-signature alg, and keys jose cannot import", async () => {
    expect(await checkJwkSet({ keys: [{ ...ec256.pub, use: "enc" }] })).toMatchObject({
      path: "jwks.keys[0].use",
    });
    for (const alg of ["RSA-OAEP", "HS256", "none", 5]) {
      expect(await checkJwkSet({ keys: [{ ...rsa.pub, alg }] })).toMatchObject({ path: "jwks.keys[0].alg" });
    }
    // an alg of another key type
    expect(await checkJwkSet({ keys: [{ ...rsa.pub, alg: "ES256" }] })).toMatchObject({
      path: "jwks.keys[0]",
      message: expect.stringMatching(/^is not a usable RSA public key/),
    });
    // a point that is not on the curve
    const offCurve = { ...ec256.pub, y: ec256.pub.x };
    expect(await checkJwkSet({ keys: [offCurve] })).toMatchObject({
      path: "jwks.keys[0]",
      message: expect.stringMatching(/^is not a usable EC public key/),
    });
    // a coordinate of the wrong length
    expect(await checkJwkSet({ keys: [{ ...ed.pub, x: "AAAA" }] })).toMatchObject({
      path: "jwks.keys[0]",
      message: expect.stringMatching(/^is not a usable OKP public key/),
    });
  });

  it("refuses duplicate and non-string kids", async () => {
    expect(
      await checkJwkSet({
        keys: [
          { ...ec256.pub, kid: "one" },
          { ...ed.pub, kid: "two" },
          { ...rsa.pub, kid: "one" },
        ],
      }),
    ).toEqual({ path: "jwks.keys[2].kid", message: 'must be unique: jwks.keys[0] has kid "one" too' });
    expect(await checkJwkSet({ keys: [{ ...ec256.pub, kid: 7 }] })).toEqual({
      path: "jwks.keys[0].kid",
      message: "must be a string",
    });
  });

  it("names the field it is given", async () => {
    expect(await checkJwkSet({ keys: [ec256.priv] }, "body.jwks")).toMatchObject({
      path: "body.jwks.keys[0].d",
    });
  });
});

describe("checkJwksUri", () => {
  it("accepts https everywhere and http in the sandbox only", () => {
    expect(checkJwksUri("https://client.example.com/jwks.json", "production")).toBeUndefined();
    expect(checkJwksUri("https://client.example.com/jwks.json", "sandbox")).toBeUndefined();
    expect(checkJwksUri("http://client.example.com/jwks.json", "sandbox")).toBeUndefined();
    expect(checkJwksUri("http://client.example.com/jwks.json", "production")).toBe(
      "must use https in production",
    );
  });

  it("refuses what is not an absolute http(s) URL, credentials, fragments and long values", () => {
    expect(checkJwksUri("", "sandbox")).toBe("must not be empty (null removes it)");
    expect(checkJwksUri("/jwks.json", "sandbox")).toMatch(/^must be an absolute https URL/);
    expect(checkJwksUri("ftp://client.example.com/jwks", "sandbox")).toBe("must use https");
    expect(checkJwksUri("javascript:alert(1)", "sandbox")).toBe("must use https");
    expect(checkJwksUri("https://user:pw@client.example.com/jwks", "sandbox")).toBe(
      "must not contain user credentials",
    );
    expect(checkJwksUri("https://client.example.com/jwks#a", "sandbox")).toBe(
      "must not contain a fragment (#…)",
    );
    expect(checkJwksUri(" https://client.example.com/jwks", "sandbox")).toBe("must not contain whitespace");
    expect(checkJwksUri(`https://client.example.com/${"a".repeat(2048)}`, "sandbox")).toBe(
      "must be at most 2048 characters",
    );
  });
});
