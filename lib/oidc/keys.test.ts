import {
  compactVerify,
  decodeProtectedHeader,
  importJWK,
  SignJWT,
  jwtVerify,
  calculateJwkThumbprint,
} from "jose";
import { describe, expect, it } from "vitest";
import {
  generateSigningKeyMaterial,
  isPublished,
  planRotation,
  publicPartOf,
  retiredKeyGraceSeconds,
  type TKeyRecord,
} from "./keys";
import { MAX_TOKEN_LIFETIME_SECONDS } from "./settings";

const DAY = 86_400_000;

describe("signing key material", () => {
  it.each(["ES256", "RS256"] as const)(
    "%s: signs with the private key and verifies with the public part",
    async (alg) => {
      const { kid, publicJwk, privateJwk } = await generateSigningKeyMaterial(alg);
      expect(kid).toBe(await calculateJwkThumbprint(publicJwk, "sha256"));
      const privateKey = await importJWK(privateJwk, alg);
      const token = await new SignJWT({ hello: "world" })
        .setProtectedHeader({ alg, kid })
        .setExpirationTime("1m")
        .sign(privateKey);
      expect(decodeProtectedHeader(token)).toMatchObject({ alg, kid });
      const { payload } = await jwtVerify(token, await importJWK(publicJwk, alg), { algorithms: [alg] });
      expect(payload.hello).toBe("world");
      // another key's public part does not verify it
      const other = await generateSigningKeyMaterial(alg);
      await expect(compactVerify(token, await importJWK(other.publicJwk, alg))).rejects.toThrow();
    },
  );

  it("publishes no private member", async () => {
    for (const alg of ["ES256", "RS256"] as const) {
      const { publicJwk, privateJwk } = await generateSigningKeyMaterial(alg);
      expect(privateJwk.d).toBeTruthy();
      for (const member of ["d", "p", "q", "dp", "dq", "qi", "oth", "k"])
        expect(publicJwk).not.toHaveProperty(member);
      expect(publicPartOf(privateJwk)).toEqual(publicJwk);
    }
    expect(Object.keys((await generateSigningKeyMaterial("ES256")).publicJwk).sort()).toEqual([
      "crv",
      "kty",
      "x",
      "y",
    ]);
    expect(Object.keys((await generateSigningKeyMaterial("RS256")).publicJwk).sort()).toEqual([
      "e",
      "kty",
      "n",
    ]);
  });

  it("gives every key its own kid", async () => {
    const kids = await Promise.all(
      ["ES256", "ES256", "ES256", "RS256", "RS256"].map(
        async (alg) => (await generateSigningKeyMaterial(alg as "ES256")).kid,
      ),
    );
    expect(new Set(kids).size).toBe(kids.length);
  });

  it("refuses key types it cannot publish safely", () => {
    expect(() => publicPartOf({ kty: "oct", k: "c2VjcmV0" })).toThrow();
  });
});

describe("rotation plan", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  const key = (id: string, alg: string, ageDays: number, extra: Partial<TKeyRecord> = {}): TKeyRecord => ({
    id,
    alg,
    createdAt: new Date(now.getTime() - ageDays * DAY),
    retiredAt: null,
    expiresAt: null,
    ...extra,
  });

  it("does nothing without keys (the first key is created on first use)", () => {
    expect(planRotation([], now, 90)).toEqual({ create: [], retire: [], remove: [] });
  });

  it("keeps an active key younger than the rotation period", () => {
    expect(planRotation([key("a", "ES256", 89), key("b", "RS256", 1)], now, 90)).toEqual({
      create: [],
      retire: [],
      remove: [],
    });
  });

  it("replaces a key that reached the rotation period, per algorithm", () => {
    const plan = planRotation([key("a", "ES256", 90), key("b", "RS256", 10)], now, 90);
    expect(plan).toEqual({ create: ["ES256"], retire: ["a"], remove: [] });
  });

  it("honours the configured period", () => {
    expect(planRotation([key("a", "ES256", 8)], now, 7).create).toEqual(["ES256"]);
    expect(planRotation([key("a", "ES256", 6)], now, 7).create).toEqual([]);
  });

  it("keeps a retired key until its publication ends, then removes it", () => {
    const retired = key("old", "ES256", 100, {
      retiredAt: new Date(now.getTime() - 1000),
      expiresAt: new Date(now.getTime() + 1000),
    });
    expect(planRotation([retired, key("new", "ES256", 0)], now, 90).remove).toEqual([]);
    const later = new Date(now.getTime() + 1000);
    expect(planRotation([retired, key("new", "ES256", 0)], later, 90).remove).toEqual(["old"]);
  });

  it("retires stray extra active keys and keeps the newest", () => {
    const plan = planRotation([key("older", "ES256", 5), key("newest", "ES256", 1)], now, 90);
    expect(plan).toEqual({ create: [], retire: ["older"], remove: [] });
  });

  it("keeps retired keys published longer than any token they signed can live", () => {
    expect(retiredKeyGraceSeconds()).toBeGreaterThan(MAX_TOKEN_LIFETIME_SECONDS);
    expect(isPublished({ expiresAt: null }, now)).toBe(true);
    expect(isPublished({ expiresAt: new Date(now.getTime() + 1) }, now)).toBe(true);
    expect(isPublished({ expiresAt: now }, now)).toBe(false);
  });
});
