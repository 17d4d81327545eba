import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto/hash";
import { kysely } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { issueCode, redeemAuthorizationCode } from "./codes";
import { s256Challenge } from "./pkce";

const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

// codes reference apps and verifications by id only; opaque ids keep these tests independent
function ids() {
  return {
    appId: newId("app"),
    verificationId: newId("ver"),
    environment: "sandbox" as const,
    surface: "rest" as const,
  };
}

describe("authorization codes", () => {
  it("issues 256-bit codes stored only as their SHA-256, with a short lifetime", async () => {
    const base = ids();
    const before = Date.now();
    const code = await issueCode(kysely(), { ...base, nonce: "n", scope: "openid" });
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await kysely()
      .selectFrom("authorizationCodes")
      .selectAll()
      .where("codeHash", "=", sha256Hex(code))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      appId: base.appId,
      surface: "rest",
      verificationId: base.verificationId,
      nonce: "n",
      usedAt: null,
    });
    expect(JSON.stringify(row)).not.toContain(code);
    const ttl = row.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
    expect(await issueCode(kysely(), base)).not.toBe(code);
  });

  it("refuses lifetimes over 10 minutes and malformed challenges", async () => {
    await expect(issueCode(kysely(), { ...ids(), ttlSeconds: 601 })).rejects.toThrow(RangeError);
    await expect(issueCode(kysely(), { ...ids(), codeChallenge: "short" })).rejects.toThrow(TypeError);
  });

  it("redeems once; the second redemption reports reuse", async () => {
    const base = ids();
    const code = await issueCode(kysely(), base);
    const first = await redeemAuthorizationCode(kysely(), {
      code,
      appId: base.appId,
      surface: "rest",
      environment: "sandbox",
    });
    expect(first.ok).toBe(true);
    if (first.ok) expect(first.code.usedAt).toBeInstanceOf(Date);
    const second = await redeemAuthorizationCode(kysely(), {
      code,
      appId: base.appId,
      surface: "rest",
      environment: "sandbox",
    });
    expect(second).toMatchObject({ ok: false, error: "invalid_grant", reason: "reused", reused: true });
    if (!second.ok) expect(second.code?.verificationId).toBe(base.verificationId);
  });

  it("of concurrent redemptions exactly one wins", async () => {
    const base = ids();
    const code = await issueCode(kysely(), base);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        redeemAuthorizationCode(kysely(), {
          code,
          appId: base.appId,
          surface: "rest",
          environment: "sandbox",
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reused)).toHaveLength(7);
  });

  it("binds the code to its app and environment without consuming it on a mismatch", async () => {
    const base = ids();
    const code = await issueCode(kysely(), base);
    const other = await redeemAuthorizationCode(kysely(), {
      code,
      appId: newId("app"),
      surface: "rest",
      environment: "sandbox",
    });
    expect(other).toMatchObject({ ok: false, reason: "wrong_client", reused: false });
    expect(other.ok === false && other.code).toBeFalsy();
    const env = await redeemAuthorizationCode(kysely(), {
      code,
      appId: base.appId,
      surface: "rest",
      environment: "production",
    });
    expect(env).toMatchObject({ ok: false, reason: "unknown_code" });
    const unknown = await redeemAuthorizationCode(kysely(), {
      code: `${code}x`,
      appId: base.appId,
      surface: "rest",
      environment: "sandbox",
    });
    expect(unknown).toMatchObject({ ok: false, reason: "unknown_code" });
    expect(
      (
        await redeemAuthorizationCode(kysely(), {
          code,
          appId: base.appId,
          surface: "rest",
          environment: "sandbox",
        })
      ).ok,
    ).toBe(true);
  });

  it("binds the code to the surface that issued it, without consuming it elsewhere", async () => {
    for (const [issuedBy, other] of [
      ["rest", "op"],
      ["op", "rest"],
    ] as const) {
      const base = { ...ids(), surface: issuedBy };
      const code = await issueCode(kysely(), base);
      const redeem = (surface: "rest" | "op") =>
        redeemAuthorizationCode(kysely(), { code, appId: base.appId, environment: "sandbox", surface });
      const elsewhere = await redeem(other);
      expect(elsewhere).toMatchObject({ ok: false, reason: "wrong_surface", reused: false });
      expect(elsewhere.ok === false && elsewhere.code).toBeFalsy();
      expect((await redeem(issuedBy)).ok).toBe(true);
      // a used code presented at the other surface is still not that surface's business
      expect(await redeem(other)).toMatchObject({ ok: false, reason: "wrong_surface", reused: false });
    }
  });

  it("refuses an expired code", async () => {
    const base = ids();
    const issuedAt = new Date(Date.now() - 60_000);
    const code = await issueCode(kysely(), { ...base, ttlSeconds: 30, now: issuedAt });
    const res = await redeemAuthorizationCode(kysely(), {
      code,
      appId: base.appId,
      surface: "rest",
      environment: "sandbox",
    });
    expect(res).toMatchObject({ ok: false, reason: "expired", reused: false });
    // just before expiry it would have been fine
    const early = await redeemAuthorizationCode(kysely(), {
      code,
      appId: base.appId,
      surface: "rest",
      environment: "sandbox",
      now: new Date(issuedAt.getTime() + 29_000),
    });
    expect(early.ok).toBe(true);
  });

  it("requires the redirect_uri the code was issued for", async () => {
    const base = ids();
    const code = await issueCode(kysely(), { ...base, redirectUri: "https://rp.example/cb" });
    const redeem = (redirectUri?: string) =>
      redeemAuthorizationCode(kysely(), {
        code,
        appId: base.appId,
        surface: "rest",
        environment: "sandbox",
        ...(redirectUri !== undefined ? { redirectUri } : {}),
      });
    expect(await redeem()).toMatchObject({ ok: false, reason: "redirect_uri_mismatch" });
    expect(await redeem("https://rp.example/cb/")).toMatchObject({
      ok: false,
      reason: "redirect_uri_mismatch",
    });
    expect((await redeem("https://rp.example/cb")).ok).toBe(true);
  });

  it("enforces PKCE S256 both ways", async () => {
    const base = ids();
    const withChallenge = await issueCode(kysely(), {
      ...base,
      codeChallenge: s256Challenge(VERIFIER),
    });
    const redeem = (code: string, codeVerifier?: string) =>
      redeemAuthorizationCode(kysely(), {
        code,
        appId: base.appId,
        surface: "rest",
        environment: "sandbox",
        ...(codeVerifier !== undefined ? { codeVerifier } : {}),
      });
    expect(await redeem(withChallenge)).toMatchObject({ ok: false, reason: "pkce_verifier_missing" });
    expect(await redeem(withChallenge, VERIFIER.replace("d", "e"))).toMatchObject({
      ok: false,
      reason: "pkce_verifier_mismatch",
    });
    expect((await redeem(withChallenge, VERIFIER)).ok).toBe(true);

    const without = await issueCode(kysely(), base);
    expect(await redeem(without, VERIFIER)).toMatchObject({ ok: false, reason: "pkce_not_expected" });
    expect((await redeem(without)).ok).toBe(true);
  });
});
