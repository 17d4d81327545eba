import { decodeProtectedHeader, errors as joseErrors } from "jose";
import { describe, expect, it } from "vitest";
import { createDb, kysely, type Db } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { mintIdToken, verifyIdToken } from "./id-token";
import {
  clearSigningKeyCache,
  getSigningKey,
  publicJwks,
  retiredKeyGraceSeconds,
  rotateSigningKeys,
  type TSigningAlg,
} from "./keys";
import { inTransaction } from "../db/kysely";

const DAY = 86_400_000;
const ISSUER = "http://localhost:3000/oidc/sandbox";

class Rollback extends Error {}

/** Runs `fn` in a transaction that is rolled back, so key changes never reach other test files. */
async function inRolledBackTransaction(fn: (tx: Db) => Promise<void>): Promise<void> {
  try {
    await inTransaction(kysely(), async (tx) => {
      await fn(tx);
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  } finally {
    clearSigningKeyCache();
  }
}

const mint = (db: Db, alg: TSigningAlg = "ES256", extra: Partial<Parameters<typeof mintIdToken>[1]> = {}) =>
  mintIdToken(db, {
    environment: "sandbox",
    issuer: ISSUER,
    audience: "app_test",
    subject: "sub-1",
    authTime: new Date(),
    acr: "urn:idv:loa:2",
    amr: ["passport"],
    alg,
    ...extra,
  });

describe("signing keys", () => {
  it("returns the active key, stores its private half sealed, and publishes only public parts", async () => {
    const key = await getSigningKey(kysely(), "sandbox", "ES256");
    expect(key.alg).toBe("ES256");
    const row = await kysely()
      .selectFrom("signingKeys")
      .selectAll()
      .where("id", "=", key.kid)
      .executeTakeFirstOrThrow();
    expect(row.retiredAt).toBeNull();
    expect(row.privateJwkEncrypted).toMatch(/^v1\./);
    expect(row.privateJwkEncrypted).not.toContain('"d"');
    const jwks = await publicJwks(kysely(), "sandbox");
    const published = jwks.keys.find((k) => k.kid === key.kid);
    expect(published).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: key.kid });
    for (const k of jwks.keys) expect(k).not.toHaveProperty("d");
    expect(new Set(jwks.keys.map((k) => k.kid)).size).toBe(jwks.keys.length);
    // the same key is returned again
    expect((await getSigningKey(kysely(), "sandbox", "ES256")).kid).toBe(key.kid);
  });

  it("keeps one key per environment and algorithm, with distinct kids", async () => {
    const sandboxEs = await getSigningKey(kysely(), "sandbox", "ES256");
    const sandboxRs = await getSigningKey(kysely(), "sandbox", "RS256");
    const productionEs = await getSigningKey(kysely(), "production", "ES256");
    expect(new Set([sandboxEs.kid, sandboxRs.kid, productionEs.kid]).size).toBe(3);
    const productionKids = (await publicJwks(kysely(), "production")).keys.map((k) => k.kid);
    expect(productionKids).toContain(productionEs.kid);
    expect(productionKids).not.toContain(sandboxEs.kid);
  });

  it("signs ES256 and RS256 ID tokens that verify against the JWKS", async () => {
    for (const alg of ["ES256", "RS256"] as const) {
      const token = await mint(kysely(), alg, { nonce: "abc", accessToken: "at-123" });
      expect(decodeProtectedHeader(token)).toMatchObject({ alg, typ: "JWT" });
      const claims = await verifyIdToken(kysely(), "sandbox", token, {
        issuer: ISSUER,
        audience: "app_test",
        nonce: "abc",
      });
      expect(claims).toMatchObject({
        sub: "sub-1",
        aud: "app_test",
        acr: "urn:idv:loa:2",
        amr: ["passport"],
        nonce: "abc",
      });
      expect(claims.at_hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
      // the wrong audience, issuer or nonce is refused
      await expect(
        verifyIdToken(kysely(), "sandbox", token, { issuer: ISSUER, audience: "app_other" }),
      ).rejects.toThrow();
      await expect(
        verifyIdToken(kysely(), "sandbox", token, { issuer: `${ISSUER}x`, audience: "app_test" }),
      ).rejects.toThrow();
      await expect(
        verifyIdToken(kysely(), "sandbox", token, { issuer: ISSUER, audience: "app_test", nonce: "other" }),
      ).rejects.toThrow();
      // another environment's keys do not verify it
      await expect(
        verifyIdToken(kysely(), "production", token, { issuer: ISSUER, audience: "app_test" }),
      ).rejects.toBeInstanceOf(joseErrors.JWKSNoMatchingKey);
    }
  });

  it("refuses token lifetimes beyond what retired keys stay published for", async () => {
    await expect(mint(kysely(), "ES256", { ttlSeconds: 3601 })).rejects.toThrow(RangeError);
    await expect(mint(kysely(), "ES256", { ttlSeconds: 0 })).rejects.toThrow(RangeError);
  });

  it("ends with exactly one active key when instances race to create the first one", async () => {
    // retire the current keys exactly as rotation would (they stay published), so creation is due
    const now = new Date();
    await kysely()
      .updateTable("signingKeys")
      .set({ retiredAt: now, expiresAt: new Date(now.getTime() + retiredKeyGraceSeconds() * 1000) })
      .where("environment", "=", "production")
      .where("alg", "=", "RS256")
      .where("retiredAt", "is", null)
      .execute();
    const url = process.env.DATABASE_URL!;
    const instances = [kysely(), createDb(url, 4), createDb(url, 4)];
    try {
      const keys = await Promise.all(
        instances.flatMap((db) => [0, 1, 2].map(() => getSigningKey(db, "production", "RS256"))),
      );
      expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
      const active = await kysely()
        .selectFrom("signingKeys")
        .selectAll()
        .where("environment", "=", "production")
        .where("alg", "=", "RS256")
        .where("retiredAt", "is", null)
        .execute();
      expect(active.map((k) => k.id)).toEqual([keys[0]!.kid]);
    } finally {
      await Promise.all(instances.slice(1).map((db) => db.destroy()));
    }
  });

  it("rotation replaces an old key and keeps it published until its tokens have expired", async () => {
    await getSigningKey(kysely(), "sandbox", "ES256");
    await inRolledBackTransaction(async (tx) => {
      const old = await tx
        .selectFrom("signingKeys")
        .select(["id", "createdAt"])
        .where("environment", "=", "sandbox")
        .where("alg", "=", "ES256")
        .where("retiredAt", "is", null)
        .orderBy("createdAt", "desc")
        .executeTakeFirstOrThrow();
      // a token signed just before the rotation
      const token = await mint(tx);
      expect(decodeProtectedHeader(token).kid).toBe(old.id);

      // too early: nothing happens
      const early = await rotateSigningKeys(tx, "sandbox", new Date(old.createdAt.getTime() + 89 * DAY));
      expect(early.retired).not.toContain(old.id);

      const at = new Date(old.createdAt.getTime() + 91 * DAY);
      const rotated = await rotateSigningKeys(tx, "sandbox", at);
      expect(rotated.retired).toContain(old.id);
      // every algorithm's key of that age is replaced; look at ES256's
      const { id: fresh } = await tx
        .selectFrom("signingKeys")
        .select("id")
        .where("environment", "=", "sandbox")
        .where("alg", "=", "ES256")
        .where("retiredAt", "is", null)
        .executeTakeFirstOrThrow();
      expect(rotated.created).toContain(fresh);
      expect(fresh).not.toBe(old.id);
      const retired = await tx
        .selectFrom("signingKeys")
        .select(["retiredAt", "expiresAt"])
        .where("id", "=", old.id)
        .executeTakeFirstOrThrow();
      expect(retired.retiredAt).toEqual(at);
      expect(retired.expiresAt!.getTime() - at.getTime()).toBe(retiredKeyGraceSeconds() * 1000);

      // both are published while the old key's tokens may live; new tokens use the new key
      const during = (await publicJwks(tx, "sandbox", new Date(at.getTime() + 3600_000))).keys.map(
        (k) => k.kid,
      );
      expect(during).toEqual(expect.arrayContaining([old.id, fresh]));
      expect(decodeProtectedHeader(await mint(tx)).kid).toBe(fresh);
      await verifyIdToken(tx, "sandbox", token, { issuer: ISSUER, audience: "app_test" });

      // afterwards the old key is no longer published, and the next run deletes it
      const after = new Date(retired.expiresAt!.getTime() + 1000);
      const later = (await publicJwks(tx, "sandbox", after)).keys.map((k) => k.kid);
      expect(later).toContain(fresh);
      expect(later).not.toContain(old.id);
      const cleaned = await rotateSigningKeys(tx, "sandbox", after);
      expect(cleaned.removed).toContain(old.id);
      expect(await tx.selectFrom("signingKeys").select("id").where("id", "=", old.id).execute()).toEqual([]);
      const audit = await tx
        .selectFrom("auditEvents")
        .select("actorType")
        .where("action", "=", "signing_key.retired")
        .where("targetId", "=", old.id)
        .executeTakeFirst();
      expect(audit?.actorType).toBe("system");
    });
    // rolled back: the key is still there
    expect(
      await countRows(
        kysely()
          .selectFrom("signingKeys")
          .where("environment", "=", "sandbox")
          .where("alg", "=", "ES256")
          .where("retiredAt", "is", null),
      ),
    ).toBe(1);
  });

  it("the rotation task runs for both environments without touching young keys", async () => {
    const before = await getSigningKey(kysely(), "sandbox", "ES256");
    const { rotateSigningKeysTask } = await import("./jobs");
    await rotateSigningKeysTask();
    clearSigningKeyCache();
    expect((await getSigningKey(kysely(), "sandbox", "ES256")).kid).toBe(before.kid);
  });
});
