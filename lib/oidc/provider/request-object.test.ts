import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { AuthorizationError } from "./authorization-error";
import { checkPkce } from "./check-pkce";
import { checkDpopJkt, pushedRequestId } from "./request-source";
import { verifyRequestObject } from "./request-object";

const ISSUER = "https://idv.example.com/oidc/sandbox";
const CLIENT = "app_client";
let key: CryptoKey;
let jwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  key = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256" };
});

const input = (algs: readonly string[] = ["ES256", "RS256"]) => ({
  client: { id: CLIENT, jwks: { keys: [jwk] }, jwksUri: null },
  algs,
  issuer: ISSUER,
  clientId: CLIENT,
});

const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  new SignJWT({ iss: CLIENT, aud: [ISSUER, "https://other"], client_id: CLIENT, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: "k1", ...header })
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key);

async function refusal(jwt: string, algs?: readonly string[]): Promise<AuthorizationError> {
  const err = await verifyRequestObject(jwt, input(algs)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AuthorizationError);
  expect((err as AuthorizationError).code).toBe("invalid_request_object");
  return err as AuthorizationError;
}

describe("verifyRequestObject", () => {
  it("returns the parameters only: strings, max_age and claims as text, envelope claims dropped", async () => {
    const values = await verifyRequestObject(
      await sign(
        { scope: "openid", max_age: 60, claims: { userinfo: { name: null } }, nonce: "" },
        { typ: "JWT" },
      ),
      input(),
    );
    expect(values).toEqual({
      client_id: CLIENT,
      scope: "openid",
      max_age: "60",
      claims: '{"userinfo":{"name":null}}',
    });
  });

  it("refuses what RFC 9101 and our policy refuse, naming the reason", async () => {
    expect((await refusal("a.b.c.d.e")).message).toContain("encrypted");
    expect((await refusal("abc")).message).toContain("compact JWS");
    expect((await refusal(await sign({}), ["PS256"])).message).toContain('alg "ES256"');
    expect((await refusal(await sign({}, { typ: "dpop+jwt" }))).message).toContain("typ");
    expect((await refusal(await sign({ aud: "https://other" }))).message).toContain("aud");
    expect((await refusal(await sign({ iss: "app_x" }))).message).toContain("iss");
    expect((await refusal(await sign({ client_id: "app_x" }))).message).toContain("client_id");
    expect((await refusal(await sign({ request: "x" }))).message).toContain("request");
    expect((await refusal(await sign({ prompt: 1 }))).message).toContain("prompt");
    expect((await refusal(await sign({ state: "a\u0000b" }))).message).toContain("NUL");
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from("{}").toString("base64url")}.`;
    expect((await refusal(none)).message).toContain("none");
  });

  it("refuses a client without keys", async () => {
    const err = await verifyRequestObject(await sign({}), {
      ...input(),
      client: { id: CLIENT, jwks: null, jwksUri: null },
    }).catch((e: unknown) => e);
    expect((err as AuthorizationError).code).toBe("invalid_request_object");
    expect((err as AuthorizationError).message).toContain("no keys");
  });
});

describe("request_uri, dpop_jkt and PKCE rules", () => {
  it("knows our request_uri form only", () => {
    expect(pushedRequestId("https://rp.example.com/r")).toBeUndefined();
    expect(pushedRequestId("urn:ietf:params:oauth:request_uri:short")).toBe("");
    expect(pushedRequestId(`urn:ietf:params:oauth:request_uri:${"a".repeat(43)}`)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("checks dpop_jkt's form", () => {
    const p = (v: string) => ({ values: { dpop_jkt: v }, repeated: new Set<string>() });
    expect(checkDpopJkt(p("b".repeat(43)))).toBe("b".repeat(43));
    expect(() => checkDpopJkt(p("b"))).toThrow(/dpop_jkt/);
  });

  it("requires code_challenge when the policy does", () => {
    const none = { values: {}, repeated: new Set<string>() };
    expect(checkPkce(none)).toBeUndefined();
    expect(() => checkPkce(none, true)).toThrow(/code_challenge: is required/);
  });
});
