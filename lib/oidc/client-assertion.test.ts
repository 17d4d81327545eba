import {
  CompactEncrypt,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JWTPayload,
} from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  assertionClientId,
  ClientAssertionError,
  NOT_VERIFIED,
  verifyClientAssertion,
  type TAssertionCheck,
} from "./client-assertion";
import { clientPolicy, type TClientOidcSettings } from "./profile";

const ISSUER = "https://op.example.com/oidc/sandbox";
const CLIENT = "app_01TESTCLIENT";
const NOW = new Date("2026-11-29T12:00:00Z");
const now = Math.floor(NOW.getTime() / 1000);

const settings = (oidcProfile: string): TClientOidcSettings => ({
  tokenEndpointAuthMethod: "private_key_jwt",
  jwks: null,
  jwksUri: null,
  requirePushedAuthorizationRequests: false,
  requireDpop: false,
  oidcProfile,
  pkceRequired: false,
});

const keys: Record<string, { privateKey: CryptoKey; publicKey: CryptoKey }> = {};
let check: (overrides?: Partial<TAssertionCheck>) => TAssertionCheck;

beforeAll(async () => {
  for (const alg of ["ES256", "PS256", "EdDSA", "RS256", "ES384"]) keys[alg] = await generateKeyPair(alg);
  const jwks = {
    keys: await Promise.all(
      ["ES256", "PS256", "EdDSA", "RS256", "ES384"].map(async (alg) => ({
        ...(await exportJWK(keys[alg]!.publicKey)),
        kid: alg,
        alg,
      })),
    ),
  };
  const local = createLocalJWKSet(jwks);
  check = (overrides = {}) => ({
    clientId: CLIENT,
    keys: local,
    policy: clientPolicy(settings("default")),
    issuer: ISSUER,
    endpoints: [`${ISSUER}/token`, `${ISSUER}/par`],
    now: NOW,
    ...overrides,
  });
});

function sign(alg: string, claims: JWTPayload = {}, header: Record<string, unknown> = {}) {
  return new SignJWT({
    iss: CLIENT,
    sub: CLIENT,
    aud: ISSUER,
    jti: `jti-${Math.random()}`,
    iat: now,
    exp: now + 60,
    ...claims,
  })
    .setProtectedHeader({ alg, kid: alg, ...header })
    .sign(keys[alg]!.privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ClientAssertionError) return err.message;
    throw err;
  }
  throw new Error("expected a ClientAssertionError");
}

describe("verifyClientAssertion", () => {
  it("accepts ES256, PS256 and EdDSA, and RS256 under the default profile", async () => {
    for (const alg of ["ES256", "PS256", "EdDSA", "RS256"]) {
      const result = await verifyClientAssertion(await sign(alg, { jti: `j-${alg}` }), check());
      expect(result).toEqual({ jti: `j-${alg}`, expiresAt: new Date((now + 60) * 1000) });
    }
  });

  it("refuses RS256 under FAPI 2.0, after the signature", async () => {
    const fapi = check({ policy: clientPolicy(settings("fapi2")) });
    expect(await refusal(verifyClientAssertion(await sign("RS256"), fapi))).toMatch(
      /alg "RS256" is not accepted for this client; sign with one of ES256, PS256, EdDSA/,
    );
    await expect(verifyClientAssertion(await sign("ES256"), fapi)).resolves.toBeDefined();
  });

  it("refuses none, HMAC and other algorithms for every client", async () => {
    const unsigned = new UnsecuredJWT({
      iss: CLIENT,
      sub: CLIENT,
      aud: ISSUER,
      jti: "x",
      exp: now + 60,
    }).encode();
    expect(await refusal(verifyClientAssertion(unsigned, check()))).toMatch(/alg "none" is not accepted/);
    const hs = await new SignJWT({ iss: CLIENT, sub: CLIENT, aud: ISSUER, jti: "x", exp: now + 60 })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new Uint8Array(32));
    expect(await refusal(verifyClientAssertion(hs, check()))).toMatch(/alg "HS256" is not accepted/);
    expect(await refusal(verifyClientAssertion(await sign("ES384"), check()))).toMatch(
      /alg "ES384" is not accepted/,
    );
  });

  it("refuses encrypted assertions and what is no JWS", async () => {
    const jwe = await new CompactEncrypt(new TextEncoder().encode("{}"))
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .encrypt(new Uint8Array(32));
    expect(await refusal(verifyClientAssertion(jwe, check()))).toMatch(/encrypted assertions \(JWE\)/);
    expect(await refusal(verifyClientAssertion("not-a-jwt", check()))).toMatch(/compact JWS/);
  });

  it("says the same for no keys, another key and a forged signature", async () => {
    const good = await sign("ES256");
    expect(await refusal(verifyClientAssertion(good, check({ keys: undefined })))).toBe(NOT_VERIFIED);
    const other = await generateKeyPair("ES256");
    const forged = await new SignJWT({ iss: CLIENT, sub: CLIENT, aud: ISSUER, jti: "f", exp: now + 60 })
      .setProtectedHeader({ alg: "ES256", kid: "ES256" })
      .sign(other.privateKey);
    expect(await refusal(verifyClientAssertion(forged, check()))).toBe(NOT_VERIFIED);
    const [h, p] = good.split(".");
    expect(await refusal(verifyClientAssertion(`${h}.${p}.${"A".repeat(86)}`, check()))).toBe(NOT_VERIFIED);
  });

  it("requires iss = sub = the client", async () => {
    expect(() => assertionClientId("a.b")).toThrow(ClientAssertionError);
    expect(await refusal(verifyClientAssertion(await sign("ES256", { iss: "app_other" }), check()))).toMatch(
      /iss and sub must both be the client_id/,
    );
    expect(await refusal(verifyClientAssertion(await sign("ES256", { sub: undefined }), check()))).toMatch(
      /sub is required/,
    );
  });

  it("checks exp, iat, nbf and the lifetime", async () => {
    const msg = async (claims: JWTPayload) =>
      refusal(verifyClientAssertion(await sign("ES256", claims), check()));
    expect(await msg({ exp: undefined })).toMatch(/exp is required/);
    expect(await msg({ exp: now - 1, iat: now - 30 })).toMatch(/has expired/);
    expect(await msg({ exp: now, iat: now - 30 })).toMatch(/has expired/);
    expect(await msg({ iat: now + 61, exp: now + 120 })).toMatch(/iat is in the future/);
    expect(await msg({ nbf: now + 61 })).toMatch(/nbf is in the future/);
    expect(await msg({ iat: now, exp: now + 601 })).toMatch(/at most 600 seconds after iat/);
    expect(await msg({ iat: undefined, exp: now + 601 })).toMatch(/at most 600 seconds after now/);
    expect(await msg({ exp: "soon" as unknown as number })).toMatch(/exp must be a NumericDate/);
    // the leeway: 60 s of clock skew
    await expect(
      verifyClientAssertion(await sign("ES256", { iat: now + 60, nbf: now + 60, exp: now + 600 }), check()),
    ).resolves.toBeDefined();
  });

  it("requires a jti", async () => {
    expect(await refusal(verifyClientAssertion(await sign("ES256", { jti: undefined }), check()))).toMatch(
      /jti is required/,
    );
    expect(
      await refusal(verifyClientAssertion(await sign("ES256", { jti: "x".repeat(257) }), check())),
    ).toMatch(/jti is required/);
  });

  it("accepts the issuer or an endpoint as aud by default, only the issuer under FAPI 2.0", async () => {
    const fapi = check({ policy: clientPolicy(settings("fapi2")) });
    for (const aud of [ISSUER, [ISSUER], `${ISSUER}/token`, `${ISSUER}/par`, ["x", `${ISSUER}/token`]])
      await expect(verifyClientAssertion(await sign("ES256", { aud }), check())).resolves.toBeDefined();
    for (const aud of ["https://elsewhere.example", [], ["https://elsewhere.example"]])
      expect(await refusal(verifyClientAssertion(await sign("ES256", { aud }), check()))).toMatch(
        /aud must name the issuer/,
      );
    await expect(verifyClientAssertion(await sign("ES256", { aud: [ISSUER] }), fapi)).resolves.toBeDefined();
    for (const aud of [`${ISSUER}/token`, [ISSUER, `${ISSUER}/token`]])
      expect(await refusal(verifyClientAssertion(await sign("ES256", { aud }), fapi))).toMatch(
        /aud must be the issuer identifier .* \(FAPI 2\.0\), alone/,
      );
  });
});
