import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { makeApp, makeOperator, makeWorkspace } from "../testing/factories";
import { requestProductionTest, scheduleProductionTest } from "../testing/production-tests";
import { claimStamp, recordParticipation, type TParticipationInput } from "./participation";
import { countRows, inTransaction } from "../db/kysely";

async function challenge(maxStampClaims = 3) {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  const operator = await makeOperator();
  const req = await requestProductionTest(ws.keys.sandbox, app.clientId, "sandbox", { maxStampClaims });
  const item = await scheduleProductionTest(operator.operatorKey, req.request.id);
  return { ws, challengeId: item.challenge.id };
}

const record = (input: TParticipationInput, now?: Date) =>
  inTransaction(kysely(), (tx) => recordParticipation(tx, input, now));
const claim = (participationId: string, now?: Date) =>
  inTransaction(kysely(), (tx) => claimStamp(tx, participationId, now));

async function successfulParticipation(challengeId: string) {
  const r = await record({ challengeId, providerId: "passport", successful: true });
  if (!r.ok) throw new Error(r.reason);
  return r.participation;
}

const participations = (challengeId: string) =>
  countRows(kysely().selectFrom("productionTestParticipations").where("challengeId", "=", challengeId));
const claimedCount = (challengeId: string) =>
  countRows(
    kysely()
      .selectFrom("productionTestParticipations")
      .where("challengeId", "=", challengeId)
      .where("claimed", "=", true),
  );
const challengeRow = (challengeId: string) =>
  kysely()
    .selectFrom("productionTestChallenges")
    .selectAll()
    .where("id", "=", challengeId)
    .executeTakeFirstOrThrow();

describe("recordParticipation", () => {
  it("records successful and unsuccessful attempts with the test's providers", async () => {
    const { challengeId } = await challenge();
    const ok = await record({
      challengeId,
      providerId: "passport",
      successful: true,
      verificationId: "ver_1",
    });
    expect(ok).toMatchObject({ ok: true, created: true });
    if (!ok.ok) return;
    expect(ok.participation).toMatchObject({
      challengeId,
      providerId: "passport",
      successful: true,
      claimed: false,
      verificationId: "ver_1",
    });
    expect(ok.participation.id).toMatch(/^ptp_[0-9A-Z]{26}$/);
    const failed = await record({ challengeId, providerId: "passport", successful: false });
    expect(failed).toMatchObject({ ok: true, created: true, participation: { successful: false } });
    expect(await participations(challengeId)).toBe(2);
  });

  it("records a verification once per challenge", async () => {
    const { challengeId } = await challenge();
    const first = await record({
      challengeId,
      providerId: "passport",
      successful: true,
      verificationId: "ver_x",
    });
    const again = await record({
      challengeId,
      providerId: "passport",
      successful: false,
      verificationId: "ver_x",
    });
    expect(again).toMatchObject({ ok: true, created: false });
    if (!first.ok || !again.ok) throw new Error("refused");
    expect(again.participation.id).toBe(first.participation.id);
    expect(await participations(challengeId)).toBe(1);
  });

  it("refuses providers outside the test and inactive challenges, writing nothing", async () => {
    const { challengeId } = await challenge(1);
    expect(await record({ challengeId, providerId: "other-eid", successful: true })).toEqual({
      ok: false,
      reason: "provider_not_in_test",
    });
    const future = new Date(Date.now() + 15 * 24 * 60 * 60 * 1000);
    expect(await record({ challengeId, providerId: "passport", successful: true }, future)).toEqual({
      ok: false,
      reason: "challenge_expired",
    });
    expect(await participations(challengeId)).toBe(0);

    const p = await successfulParticipation(challengeId);
    expect(await claim(p.id)).toMatchObject({ ok: true, completed: true });
    expect(await record({ challengeId, providerId: "passport", successful: true })).toEqual({
      ok: false,
      reason: "challenge_completed",
    });
    expect(await participations(challengeId)).toBe(1);
  });

  it("throws 404 for an unknown challenge and refuses to run outside a transaction", async () => {
    await expect(
      record({ challengeId: "chl_01HZZZZZZZZZZZZZZZZZZZZZZZ", providerId: "passport", successful: true }),
    ).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    const { challengeId } = await challenge();
    await expect(
      recordParticipation(kysely(), { challengeId, providerId: "passport", successful: true }),
    ).rejects.toThrow(/inside a transaction/);
  });
});

describe("claimStamp", () => {
  it("claims once per successful participation and completes the challenge at maxStampClaims", async () => {
    const { ws, challengeId } = await challenge(2);
    const p1 = await successfulParticipation(challengeId);
    const p2 = await successfulParticipation(challengeId);
    const p3 = await successfulParticipation(challengeId);

    expect(await claim(p1.id)).toMatchObject({ ok: true, totalClaims: 1, completed: false });
    expect(await claim(p1.id)).toEqual({ ok: false, reason: "already_claimed" });
    let row = await challengeRow(challengeId);
    expect(row.completedAt).toBeNull();

    expect(await claim(p2.id)).toMatchObject({ ok: true, totalClaims: 2, completed: true });
    row = await challengeRow(challengeId);
    expect(row.completedAt).not.toBeNull();
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", challengeId)
      .where("action", "=", "production_test.completed")
      .executeTakeFirst();
    expect(audit).toMatchObject({ workspaceId: ws.workspaceId, environment: "sandbox", actorType: "system" });

    expect(await claim(p3.id)).toEqual({ ok: false, reason: "challenge_completed" });
    expect(await claimedCount(challengeId)).toBe(2);
  });

  it("refuses unsuccessful participations and claims after expiry", async () => {
    const { challengeId } = await challenge();
    const failed = await record({ challengeId, providerId: "passport", successful: false });
    if (!failed.ok) throw new Error(failed.reason);
    expect(await claim(failed.participation.id)).toEqual({ ok: false, reason: "not_successful" });

    const p = await successfulParticipation(challengeId);
    await kysely()
      .updateTable("productionTestChallenges")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", challengeId)
      .execute();
    expect(await claim(p.id)).toEqual({ ok: false, reason: "challenge_expired" });
    expect(await claimedCount(challengeId)).toBe(0);
  });

  it("throws 404 for an unknown participation", async () => {
    await expect(claim("ptp_01HZZZZZZZZZZZZZZZZZZZZZZZ")).rejects.toMatchObject({
      code: "RESOURCE_NOT_FOUND",
    });
  });

  it("never exceeds maxStampClaims when more claims than stamps arrive at once", async () => {
    const max = 5;
    const { challengeId } = await challenge(max);
    const participations = [];
    for (let i = 0; i < 12; i++) participations.push(await successfulParticipation(challengeId));
    const results = await Promise.all(participations.map((p) => claim(p.id)));
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(max);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "challenge_completed")).toBe(true);
    expect(won.filter((r) => r.ok && r.completed)).toHaveLength(1);
    expect(await claimedCount(challengeId)).toBe(max);
    const row = await challengeRow(challengeId);
    expect(row.completedAt).not.toBeNull();
  });

  it("claims one participation only once under concurrent claims", async () => {
    const { challengeId } = await challenge(10);
    const p = await successfulParticipation(challengeId);
    const results = await Promise.all([claim(p.id), claim(p.id), claim(p.id), claim(p.id)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "already_claimed")).toHaveLength(3);
    expect(await claimedCount(challengeId)).toBe(1);
  });
});
