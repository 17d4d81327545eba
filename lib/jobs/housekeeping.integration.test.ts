/**
 * The housekeeping jobs delete what has expired — authorization codes, OP access tokens, OIDC
 * authorization requests, idempotency records, ended rate-limit windows, sessions long past
 * retention, SAML test sign-ins' hand-offs — in bounded batches, and keep every live row.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { purgeExpiredTestSignInHandOffs } from "../connections/test-sign-in-hand-offs";
import { kysely } from "../db/client";
import { countRows, likeLiteral } from "../db/kysely";
import { newId, randomToken } from "../ids";
import { purgeExpiredAuthorizationCodes } from "../oidc/purge";
import { makeTokenApp, makeVerification } from "../testing/tokens";
import { nextUrlFor } from "../verifications/return";
import { CRONTAB, jobNamed } from "./handlers";

const DAY = 24 * 3600 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);
const ahead = (ms: number) => new Date(Date.now() + ms);

async function runTask(name: string): Promise<void> {
  const job = jobNamed(name);
  expect(job, `task ${name}`).toBeDefined();
  await job!.task({});
}

function scheduled(name: string): boolean {
  return CRONTAB.some((line) => line.split(/\s+/)[5] === name);
}

async function oidcRequest(appId: string, verificationId: string, expiresAt: Date) {
  return kysely()
    .insertInto("oidcAuthorizationRequests")
    .values({
      id: newId("oar"),
      verificationId,
      appId,
      environment: "sandbox",
      redirectUri: "https://rp.example.com/cb",
      scope: "openid",
      createdAt: new Date(expiresAt.getTime() - 900_000),
      expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The rows of each table the OIDC purge empties. */
async function oidcCounts() {
  const db = kysely();
  return {
    codes: await countRows(db.selectFrom("authorizationCodes")),
    tokens: await countRows(db.selectFrom("oidcAccessTokens")),
    requests: await countRows(db.selectFrom("oidcAuthorizationRequests")),
  };
}

describe("housekeeping jobs", () => {
  it("are scheduled", () => {
    for (const name of ["idempotency_purge", "oidc_purge", "rate_limit_purge", "verification_purge"]) {
      expect(scheduled(name), name).toBe(true);
    }
  });

  it("delete expired codes, access tokens and authorization requests, and keep live ones", async () => {
    const { app } = await makeTokenApp();
    const codeRow = (expiresAt: Date) =>
      kysely()
        .insertInto("authorizationCodes")
        .values({
          codeHash: randomToken(64),
          appId: app.clientId,
          environment: "sandbox",
          verificationId: newId("ver"),
          surface: "op",
          expiresAt,
          createdAt: new Date(expiresAt.getTime() - 60_000),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    const tokenRow = (expiresAt: Date) =>
      kysely()
        .insertInto("oidcAccessTokens")
        .values({
          tokenHash: randomToken(64),
          appId: app.clientId,
          environment: "sandbox",
          verificationId: newId("ver"),
          codeHash: randomToken(64),
          scope: "openid",
          expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    const expiredCodes = await Promise.all([codeRow(ago(2 * DAY)), codeRow(ago(3 * DAY))]);
    // expired an hour ago: still recognised as used or expired for a day
    const liveCodes = await Promise.all([codeRow(ahead(60_000)), codeRow(ago(3600_000))]);
    const expiredTokens = await Promise.all([tokenRow(ago(2 * DAY)), tokenRow(ago(5 * DAY))]);
    const liveTokens = await Promise.all([tokenRow(ahead(600_000)), tokenRow(ago(3600_000))]);
    const expiredRequests = await Promise.all([
      oidcRequest(app.clientId, newId("ver"), ago(2 * DAY)),
      oidcRequest(app.clientId, newId("ver"), ago(9 * DAY)),
    ]);
    const liveRequests = await Promise.all([oidcRequest(app.clientId, newId("ver"), ahead(900_000))]);

    const before = await oidcCounts();
    await runTask("oidc_purge");
    const after = await oidcCounts();
    expect(after.codes).toBeLessThanOrEqual(before.codes - expiredCodes.length);
    expect(after.tokens).toBeLessThanOrEqual(before.tokens - expiredTokens.length);
    expect(after.requests).toBeLessThanOrEqual(before.requests - expiredRequests.length);

    const codes = await kysely()
      .selectFrom("authorizationCodes")
      .select("codeHash")
      .where(
        "codeHash",
        "in",
        [...expiredCodes, ...liveCodes].map((c) => c.codeHash),
      )
      .execute();
    expect(codes.map((c) => c.codeHash).sort()).toEqual(liveCodes.map((c) => c.codeHash).sort());
    const tokens = await kysely()
      .selectFrom("oidcAccessTokens")
      .select("tokenHash")
      .where(
        "tokenHash",
        "in",
        [...expiredTokens, ...liveTokens].map((t) => t.tokenHash),
      )
      .execute();
    expect(tokens.map((t) => t.tokenHash).sort()).toEqual(liveTokens.map((t) => t.tokenHash).sort());
    const requests = await kysely()
      .selectFrom("oidcAuthorizationRequests")
      .select("id")
      .where(
        "id",
        "in",
        [...expiredRequests, ...liveRequests].map((r) => r.id),
      )
      .execute();
    expect(requests.map((r) => r.id)).toEqual(liveRequests.map((r) => r.id));
  });

  it("deletes in bounded batches until nothing expired is left", async () => {
    const db = kysely();
    const { app } = await makeTokenApp();
    const hashes: string[] = [];
    for (let i = 0; i < 7; i++) {
      const codeHash = randomToken(64);
      hashes.push(codeHash);
      await db
        .insertInto("authorizationCodes")
        .values({
          codeHash,
          appId: app.clientId,
          environment: "sandbox",
          verificationId: newId("ver"),
          surface: "rest",
          expiresAt: ago(2 * DAY),
        })
        .execute();
    }
    const deleted = await purgeExpiredAuthorizationCodes(db, { batchSize: 3 });
    expect(deleted).toBeGreaterThanOrEqual(7);
    expect(await countRows(db.selectFrom("authorizationCodes").where("codeHash", "in", hashes))).toBe(0);
  });

  it("an OIDC session whose request was purged returns nowhere (not to the app's REST defaults)", async () => {
    const db = kysely();
    const { app } = await makeTokenApp();
    await db
      .updateTable("apps")
      .set({ defaultSuccessRedirectUri: "https://rp.example.com/done", updatedAt: new Date() })
      .where("id", "=", app.clientId)
      .execute();
    // a session the OpenID Provider started (/oidc/{env}/auth)
    const v = await db
      .updateTable("verifications")
      .set({ viaOidcProvider: true, updatedAt: new Date() })
      .where("id", "=", (await makeVerification(app.clientId)).id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const request = await oidcRequest(app.clientId, v.id, ago(2 * DAY));
    await db
      .updateTable("oidcAuthorizationRequests")
      .set({ resumeToken: randomToken(43) })
      .where("id", "=", request.id)
      .execute();
    expect(await nextUrlFor(db, v)).toMatch(/\/resume\//);
    await runTask("oidc_purge");
    expect(await countRows(db.selectFrom("oidcAuthorizationRequests").where("id", "=", request.id))).toBe(0);
    expect(await nextUrlFor(db, v)).toBeNull();
  });

  it("delete expired idempotency records and ended rate-limit windows, and keep live ones", async () => {
    const { ws } = await makeTokenApp();
    const record = (key: string, expiresAt: Date) =>
      kysely()
        .insertInto("idempotencyRecords")
        .values({
          id: randomUUID(),
          workspaceId: ws.workspaceId,
          environment: "sandbox",
          key,
          method: "POST",
          path: "/v1/apps",
          requestHash: "0".repeat(64),
          lockedUntil: expiresAt,
          expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    const expired = await Promise.all([
      record(`old-${randomToken(8)}`, ago(1000)),
      record(`old-${randomToken(8)}`, ago(DAY)),
    ]);
    const live = await record(`new-${randomToken(8)}`, ahead(DAY));

    const prefix = `housekeeping-test-${randomToken(8)}`;
    const windowRow = (key: string, expire: number) =>
      kysely()
        .insertInto("rateLimits")
        .values({ key: `${prefix}:${key}`, points: 3, expire: String(expire) })
        .execute();
    await windowRow("ended-1", Date.now() - 1000);
    await windowRow("ended-2", Date.now() - DAY);
    await windowRow("open", Date.now() + 600_000);

    const before = await countRows(kysely().selectFrom("idempotencyRecords"));
    await runTask("idempotency_purge");
    await runTask("rate_limit_purge");
    expect(await countRows(kysely().selectFrom("idempotencyRecords"))).toBeLessThanOrEqual(
      before - expired.length,
    );
    const records = await kysely()
      .selectFrom("idempotencyRecords")
      .select("id")
      .where(
        "id",
        "in",
        [...expired, live].map((r) => r.id),
      )
      .execute();
    expect(records.map((r) => r.id)).toEqual([live.id]);
    const windows = await kysely()
      .selectFrom("rateLimits")
      .select("key")
      .where("key", "like", `${likeLiteral(prefix)}%`)
      .execute();
    expect(windows.map((w) => w.key)).toEqual([`${prefix}:open`]);
  });

  it("deletes sessions IDV_SESSION_DELETE_DAYS after they ended once their personal data is gone, with their events", async () => {
    const { app } = await makeTokenApp();
    const session = async (endedAt: Date, wiped: boolean) => {
      const v = await makeVerification(app.clientId);
      await kysely()
        .updateTable("verifications")
        .set({ endedAt, personalDataDeletedAt: wiped ? endedAt : null, updatedAt: new Date() })
        .where("id", "=", v.id)
        .execute();
      await kysely()
        .insertInto("verificationEvents")
        .values({
          id: newId("evt"),
          verificationId: v.id,
          appId: app.clientId,
          type: "verification.completed",
          payload: JSON.stringify({}),
        })
        .execute();
      return v.id;
    };
    const old = await session(ago(400 * DAY), true);
    // personal data not yet wiped (the retention job runs first): kept for now
    const unwiped = await session(ago(400 * DAY), false);
    const recent = await session(ago(40 * DAY), true);

    await runTask("verification_purge");
    const left = await kysely()
      .selectFrom("verifications")
      .select("id")
      .where("id", "in", [old, unwiped, recent])
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual([unwiped, recent].sort());
    const events = (verificationId: string) =>
      countRows(kysely().selectFrom("verificationEvents").where("verificationId", "=", verificationId));
    expect(await events(old)).toBe(0);
    expect(await events(recent)).toBe(1);
  });

  it("delete the SAML test sign-ins' hand-offs that expired unanswered, hourly with the assertion IDs, and keep live ones", async () => {
    const db = kysely();
    const providerId = `housekeeping_${randomToken(8)}`;
    const handOff = (id: string, expiresAt: Date) =>
      db
        .insertInto("connectionTestHandOffs")
        .values({
          id: `${providerId}-${id}`,
          environment: "production",
          providerId,
          handOffSealed: "x",
          expiresAt,
        })
        .execute();
    await handOff("old-1", ago(1000));
    await handOff("old-2", ago(DAY));
    await handOff("old-3", ago(2 * DAY));
    await handOff("live", ahead(600_000));
    expect(CRONTAB).toContain("40 * * * * saml_assertion_purge");

    await runTask("saml_assertion_purge");
    const left = await db
      .selectFrom("connectionTestHandOffs")
      .select("id")
      .where("providerId", "=", providerId)
      .execute();
    expect(left.map((r) => r.id)).toEqual([`${providerId}-live`]);

    // in bounded batches
    await handOff("old-4", ago(1000));
    await handOff("old-5", ago(1000));
    await handOff("old-6", ago(1000));
    expect(await purgeExpiredTestSignInHandOffs(db, { batchSize: 2 })).toBeGreaterThanOrEqual(3);
    expect(
      await countRows(db.selectFrom("connectionTestHandOffs").where("providerId", "=", providerId)),
    ).toBe(1);
  });
});
