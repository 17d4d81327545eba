import { beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "../crypto/encryption";
import {
  clearedHandOffCookie,
  cookieValue,
  handOffCookie,
  isTestSignInCallback,
  PURPOSE_HANDOFF,
  readHandOffCookie,
  resultCookie,
  TEST_RESULT_COOKIE,
  TEST_SIGN_IN_COOKIE,
  type THandOff,
  type TTestSignInResult,
} from "./test-sign-in-cookies";

beforeAll(() => {
  process.env.IDV_MASTER_KEY ??= "unit-test-master-key-0123456789abcdef";
});

const handOff: THandOff = {
  purpose: PURPOSE_HANDOFF,
  env: "production",
  providerId: "demo-eid",
  userId: "usr_1",
  sessionId: "ses_1",
  expiresAt: Date.now() + 60_000,
  adapter: "oidc",
  state: { state: "s", nonce: "n", codeVerifier: "v" },
};

const result: TTestSignInResult = {
  env: "production",
  providerId: "demo-eid",
  outcome: "success",
  reason: null,
  message: null,
  claims: { given_name: "Erika" },
  rawClaims: { prenom: "Erika" },
  loa: 2,
  evidence: { issuer: "https://op.test" },
  truncated: false,
  at: new Date().toISOString(),
};

/** name=value of a Set-Cookie value, as a browser would send it back. */
const sentBack = (setCookie: string) => setCookie.split(";")[0]!;

describe("the hand-off cookie", () => {
  it("is HttpOnly on /verify for 10 minutes and reads back as the hand-off", () => {
    const setCookie = handOffCookie(handOff);
    expect(setCookie).toMatch(
      new RegExp(`^${TEST_SIGN_IN_COOKIE}=[^;]+; Path=/verify; HttpOnly; SameSite=Lax; Max-Age=600`),
    );
    expect(readHandOffCookie(`other=1; ${sentBack(setCookie)}; idv_session=x`)).toEqual(handOff);
    expect(clearedHandOffCookie()).toMatch(new RegExp(`^${TEST_SIGN_IN_COOKIE}=; Path=/verify; .*Max-Age=0`));
  });

  it("reads a missing, forged or foreign value as absent", () => {
    expect(readHandOffCookie(null)).toBeNull();
    expect(readHandOffCookie(`${TEST_SIGN_IN_COOKIE}=v1.forged`)).toBeNull();
    // a sealed result is not a hand-off
    expect(
      readHandOffCookie(
        `${TEST_SIGN_IN_COOKIE}=${cookieValue(sentBack(resultCookie(handOff, result)), TEST_RESULT_COOKIE)}`,
      ),
    ).toBeNull();
  });

  it("marks a callback as a test sign-in's only without a session's cookie", () => {
    const cookie = sentBack(handOffCookie(handOff));
    expect(isTestSignInCallback(cookie, "idv_upstream")).toBe(true);
    expect(isTestSignInCallback(`${cookie}; idv_upstream=ver_1`, "idv_upstream")).toBe(false);
    expect(isTestSignInCallback("idv_upstream=ver_1", "idv_upstream")).toBe(false);
  });
});

describe("the result cookie", () => {
  const sealedOf = (setCookie: string) =>
    JSON.parse(decryptSecret(cookieValue(sentBack(setCookie), TEST_RESULT_COOKIE)!)) as {
      userId: string;
      sessionId: string;
      result: TTestSignInResult;
    };

  it("is sealed for the hand-off's session on the environment's connections pages", () => {
    const setCookie = resultCookie(handOff, result);
    expect(setCookie).toMatch(
      /; Path=\/operator\/production\/connections; HttpOnly; SameSite=Lax; Max-Age=300/,
    );
    expect(sealedOf(setCookie)).toMatchObject({ userId: "usr_1", sessionId: "ses_1", result });
  });

  it("keeps only the outcome when the claims do not fit in a cookie", () => {
    const big = { ...result, rawClaims: { blob: "x".repeat(5000) } };
    const setCookie = resultCookie(handOff, big);
    expect(setCookie.length).toBeLessThan(4096);
    expect(sealedOf(setCookie).result).toEqual({
      ...result,
      claims: {},
      rawClaims: {},
      evidence: {},
      truncated: true,
    });
  });
});
