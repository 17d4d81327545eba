/**
 * DPoP proofs and server nonces (lib/oidc/dpop.ts), with the replay table replaced by a set
 * (dpop.integration.test.ts runs them against PostgreSQL and the real endpoints).
 */
import { createHash } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../db/kysely";

const claimed = new Set<string>();
vi.mock("./store/replay", () => ({
  claimOnce: async (_db: unknown, scope: string, value: string) => {
    const key = `${scope} ${value}`;
    if (claimed.has(key)) return false;
    claimed.add(key);
    return true;
  },
}));

const {
  checkDpopProof,
  currentDpopNonce,
  isValidDpopNonce,
  DPOP_NONCE_STEP_SECONDS,
  DpopError,
  accessTokenHash,
} = await import("./dpop");

const db = {} as Db;
const HTU = "https://idv.example/oidc/sandbox/token";
const ALGS = ["ES256", "PS256", "EdDSA", "RS256"] as const;
const opts = { htu: HTU, algs: ALGS, replayScope: "dpop:app_1" };

interface TKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function key(alg: string = "ES256"): Promise<TKey> {
  const pair = await generateKeyPair(alg, { extractable: true });
  return { privateKey: pair.privateKey, jwk: await exportJWK(pair.publicKey) };
}

let es256: TKey;
beforeEach(async () => {
  es256 ??= await key();
});

async function proof(
  k: TKey,
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT({
    htm: "POST",
    htu: HTU,
    iat: Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
    nonce: currentDpopNonce(),
    ...claims,
  })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: k.jwk, ...header } as never)
    .sign(k.privateKey);
}

function req(dpop?: string | string[], method = "POST"): Request {
  const headers = new Headers();
  for (const value of dpop === undefined ? [] : Array.isArray(dpop) ? dpop : [dpop])
    headers.append("DPoP", value);
  return new Request(`${HTU}?x=1`, { method, headers });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(DpopError);
    return { code: (err as InstanceType<typeof DpopError>).code, message: (err as Error).message };
  }
  throw new Error("expected a DpopError");
}

describe("server nonces", () => {
  it("accepts the current and the previous step's nonce, nothing older nor made up", () => {
    const now = new Date("2026-11-29T12:00:00Z");
    const nonce = currentDpopNonce(now);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(isValidDpopNonce(nonce, now)).toBe(true);
    const next = new Date(now.getTime() + DPOP_NONCE_STEP_SECONDS * 1000);
    expect(currentDpopNonce(next)).not.toBe(nonce);
    expect(isValidDpopNonce(nonce, next)).toBe(true);
    expect(isValidDpopNonce(nonce, new Date(now.getTime() + 2 * DPOP_NONCE_STEP_SECONDS * 1000))).toBe(false);
    expect(isValidDpopNonce(`${nonce.slice(0, -1)}A`, now)).toBe(nonce.endsWith("A"));
    expect(isValidDpopNonce("", now)).toBe(false);
  });
});

describe("checkDpopProof", () => {
  it("is undefined without a DPoP header", async () => {
    expect(await checkDpopProof(db, req(), opts)).toBeUndefined();
  });

  it.each(["ES256", "PS256", "EdDSA", "RS256"])(
    "returns the %s key's thumbprint for a valid proof",
    async (alg) => {
      const k = await key(alg);
      const jwt = await proof(k, {}, { alg });
      const result = await checkDpopProof(db, req(jwt), opts);
      expect(result?.jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    },
  );

  it("refuses an alg outside the policy, HS256 and none", async () => {
    const rs = await key("RS256");
    const jwt = await proof(rs, {}, { alg: "RS256" });
    expect(
      await refusal(checkDpopProof(db, req(jwt), { ...opts, algs: ["ES256", "PS256", "EdDSA"] })),
    ).toMatchObject({
      code: "invalid_dpop_proof",
      message: expect.stringMatching(/alg/),
    });
    const hs = await new SignJWT({ htm: "POST", htu: HTU, iat: 1, jti: "x" })
      .setProtectedHeader({ alg: "HS256", typ: "dpop+jwt", jwk: es256.jwk } as never)
      .sign(new Uint8Array(32));
    expect((await refusal(checkDpopProof(db, req(hs), opts))).code).toBe("invalid_dpop_proof");
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "dpop+jwt", jwk: es256.jwk })).toString("base64url")}.${Buffer.from("{}").toString("base64url")}.`;
    expect((await refusal(checkDpopProof(db, req(none), opts))).code).toBe("invalid_dpop_proof");
  });

  it("refuses two DPoP headers, a wrong typ, a missing jwk, a private jwk, a bad signature", async () => {
    const a = await proof(es256);
    const b = await proof(es256);
    expect((await refusal(checkDpopProof(db, req([a, b]), opts))).message).toMatch(/more than one/);
    expect(
      (await refusal(checkDpopProof(db, req(await proof(es256, {}, { typ: "JWT" })), opts))).message,
    ).toMatch(/typ/);
    expect(
      (await refusal(checkDpopProof(db, req(await proof(es256, {}, { jwk: undefined })), opts))).message,
    ).toMatch(/jwk/);
    const withPrivate = { ...es256.jwk, d: (await exportJWK(es256.privateKey)).d };
    expect(
      (await refusal(checkDpopProof(db, req(await proof(es256, {}, { jwk: withPrivate })), opts))).message,
    ).toMatch(/public key/);
    const other = await key();
    expect(
      (await refusal(checkDpopProof(db, req(await proof(other, {}, { jwk: es256.jwk })), opts))).message,
    ).toMatch(/signature/);
    expect((await refusal(checkDpopProof(db, req("not.a.jws"), opts))).code).toBe("invalid_dpop_proof");
  });

  it("checks htm, htu (without query and fragment), iat window, jti", async () => {
    const m = async (claims: Record<string, unknown>, method = "POST") =>
      (await refusal(checkDpopProof(db, req(await proof(es256, claims), method), opts))).message;
    expect(await m({ htm: "GET" })).toMatch(/htm/);
    expect(await m({}, "GET")).toMatch(/htm/);
    expect(await m({ htu: "https://idv.example/oidc/sandbox/userinfo" })).toMatch(/htu/);
    expect(await m({ htu: "https://other.example/oidc/sandbox/token" })).toMatch(/htu/);
    expect(await m({ htu: 42 })).toMatch(/htu/);
    // query and fragment are ignored on both sides
    expect(await checkDpopProof(db, req(await proof(es256, { htu: `${HTU}?a=b#c` })), opts)).toBeDefined();
    const now = Math.floor(Date.now() / 1000);
    expect(await m({ iat: now - 301 })).toMatch(/iat/);
    expect(await m({ iat: now + 61 })).toMatch(/iat/);
    expect(await checkDpopProof(db, req(await proof(es256, { iat: now - 290 })), opts)).toBeDefined();
    expect(await checkDpopProof(db, req(await proof(es256, { iat: now + 50 })), opts)).toBeDefined();
    expect(await m({ iat: undefined })).toMatch(/iat/);
    expect(await m({ jti: undefined })).toMatch(/jti/);
    expect(await m({ jti: "x".repeat(257) })).toMatch(/jti/);
  });

  it("refuses a replayed jti, per replay scope", async () => {
    const jwt = await proof(es256);
    expect(await checkDpopProof(db, req(jwt), opts)).toBeDefined();
    expect((await refusal(checkDpopProof(db, req(jwt), opts))).message).toMatch(/already used/);
    expect(await checkDpopProof(db, req(jwt), { ...opts, replayScope: "dpop:app_2" })).toBeDefined();
  });

  it("asks for the nonce when it is missing or stale, without using up the jti", async () => {
    const jti = crypto.randomUUID();
    const missing = await refusal(
      checkDpopProof(db, req(await proof(es256, { jti, nonce: undefined })), opts),
    );
    expect(missing.code).toBe("use_dpop_nonce");
    const old = currentDpopNonce(new Date(Date.now() - 2 * DPOP_NONCE_STEP_SECONDS * 1000));
    expect((await refusal(checkDpopProof(db, req(await proof(es256, { jti, nonce: old })), opts))).code).toBe(
      "use_dpop_nonce",
    );
    expect((await refusal(checkDpopProof(db, req(await proof(es256, { jti, nonce: 5 })), opts))).code).toBe(
      "invalid_dpop_proof",
    );
    expect(await checkDpopProof(db, req(await proof(es256, { jti })), opts)).toBeDefined();
  });

  it("checks ath against the access token when one is given", async () => {
    const token = "token-abc";
    const withAth = { ...opts, accessToken: token };
    expect(
      await checkDpopProof(db, req(await proof(es256, { ath: accessTokenHash(token) })), withAth),
    ).toBeDefined();
    expect(createHash("sha256").update(token).digest("base64url")).toBe(accessTokenHash(token));
    expect(
      (await refusal(checkDpopProof(db, req(await proof(es256, { ath: accessTokenHash("other") })), withAth)))
        .message,
    ).toMatch(/ath/);
    expect((await refusal(checkDpopProof(db, req(await proof(es256)), withAth))).message).toMatch(/ath/);
  });
});
