/**
 * The production-test store (lib/production-tests/store/) reads whole rows — every column as a
 * plain select of the table reads it, a request's challenge in the same statement with its
 * timestamps to the millisecond and its JSON documents as written (keys with underscores kept,
 * `sources` a JSON array, absent ones SQL NULL) — and the operators' list filters by status, app
 * and environment.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { countRows } from "../../db/kysely";
import { sql } from "kysely";
import type { TRow } from "../../db/rows";
import { makeApp, makeOperator, makeWorkspace } from "../../testing/factories";
import { participate, requestProductionTest, scheduleProductionTest } from "../../testing/production-tests";
import { countParticipationGroups, pageParticipations, readAppChallenge } from "./challenges";
import {
  countOperatorRequests,
  listAppRequests,
  listOperatorRequests,
  readOperatorRequest,
} from "./requests";

const SPONSOR = { name: "Acme", logo_url: "https://acme.example/logo.png", tier_level: 2 };
const SOURCES = [{ kind: "web", page_url: "https://acme.example" }, "flyer"];

async function scheduled(body: Record<string, unknown>) {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  const operator = await makeOperator();
  const req = await requestProductionTest(ws.keys.sandbox, app.clientId, "sandbox", { maxStampClaims: 5 });
  const item = await scheduleProductionTest(operator.operatorKey, req.request.id, "sandbox", body);
  const pending = await requestProductionTest(ws.keys.sandbox, app.clientId);
  return {
    ws,
    app,
    requestId: req.request.id,
    challengeId: item.challenge.id,
    pendingId: pending.request.id,
  };
}

/** The request as a select of each table reads it, with its challenge (null until scheduled). */
async function requestRow(
  id: string,
): Promise<TRow<"productionTestRequests"> & { challenge: TRow<"productionTestChallenges"> | null }> {
  const request = await kysely()
    .selectFrom("productionTestRequests")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const challenge = await kysely()
    .selectFrom("productionTestChallenges")
    .selectAll()
    .where("requestId", "=", id)
    .executeTakeFirst();
  return { ...request, challenge: challenge ?? null };
}

describe("the production-test store", () => {
  it("reads a request with its challenge, every column, JSON documents as written", async () => {
    const t = await scheduled({ sponsor: SPONSOR, sources: SOURCES, description: "Try it" });
    const [expected, pending] = await Promise.all([requestRow(t.requestId), requestRow(t.pendingId)]);
    expect(expected).toMatchObject({ id: t.requestId, appId: t.app.clientId, status: "scheduled" });
    expect(expected.challenge).toMatchObject({
      id: t.challengeId,
      requestId: t.requestId,
      appId: t.app.clientId,
      description: "Try it",
      sponsor: SPONSOR,
      sources: SOURCES,
      completedAt: null,
    });
    expect(expected.challenge?.expiresAt).toBeInstanceOf(Date);
    expect(pending).toMatchObject({ id: t.pendingId, status: "pending", challenge: null });

    const [newest, scheduledRow] = await listAppRequests(kysely(), t.app.clientId);
    expect(newest).toEqual(pending);
    expect(scheduledRow).toEqual(expected);

    const operatorRow = await readOperatorRequest(kysely(), t.requestId);
    expect(operatorRow).toMatchObject({ ...expected, app: { id: t.app.clientId, environment: "sandbox" } });
    expect(operatorRow?.challenge).toEqual(expected.challenge);

    const challenge = await readAppChallenge(kysely(), t.app.clientId, t.challengeId);
    expect(challenge).toEqual({ ...expected.challenge, request: { payload: expected.payload } });
    expect(await readAppChallenge(kysely(), "app_other", t.challengeId)).toBeUndefined();
  });

  it("stores an absent sponsor and sources as SQL NULL", async () => {
    const t = await scheduled({});
    const nulls = await countRows(
      kysely()
        .selectFrom("productionTestChallenges")
        .where("id", "=", t.challengeId)
        .where("sponsor", "is", null)
        .where("sources", "is", null),
    );
    // IS NULL: SQL NULL only (a JSON null is a value, not NULL)
    expect(nulls).toBe(1);
    const jsonNulls = await countRows(
      kysely()
        .selectFrom("productionTestChallenges")
        .where("id", "=", t.challengeId)
        .where(sql<boolean>`sponsor = 'null'::jsonb or sources = 'null'::jsonb`),
    );
    expect(jsonNulls).toBe(0);
    const row = await readAppChallenge(kysely(), t.app.clientId, t.challengeId);
    expect(row).toMatchObject({ sponsor: null, sources: null });
  });

  it("filters the operators' list by status, app and environment and counts it", async () => {
    const t = await scheduled({});
    const filter = (status: string, clientId: string | null) => ({
      status,
      environment: "sandbox" as const,
      clientId,
    });
    expect(await countOperatorRequests(kysely(), filter("pending", t.app.clientId))).toBe(1);
    expect(await countOperatorRequests(kysely(), filter("scheduled", t.app.clientId))).toBe(1);
    expect(
      await countOperatorRequests(kysely(), {
        ...filter("pending", t.app.clientId),
        environment: "production",
      }),
    ).toBe(0);
    const all = await listOperatorRequests(
      kysely(),
      { ...filter("pending", null), limit: 100, offset: 0 },
      "desc",
    );
    expect(all.map((r) => r.id)).toContain(t.pendingId);
    expect(await countOperatorRequests(kysely(), filter("pending", null))).toBeGreaterThanOrEqual(1);
    const [mine] = await listOperatorRequests(
      kysely(),
      { ...filter("scheduled", t.app.clientId), limit: 5, offset: 0 },
      "asc",
    );
    expect(mine).toMatchObject({
      id: t.requestId,
      app: { id: t.app.clientId, workspaceId: t.ws.workspaceId },
    });
    expect(mine?.challenge?.id).toBe(t.challengeId);
  });

  it("counts participations as numbers and pages them newest first", async () => {
    const t = await scheduled({});
    await participate(t.challengeId, { claim: true });
    await participate(t.challengeId, { successful: false });
    await participate(t.challengeId, { claim: true });
    const groups = await countParticipationGroups(kysely(), t.challengeId);
    expect(groups.sort((a, b) => Number(a.claimed) - Number(b.claimed))).toEqual([
      { providerId: "passport", claimed: false, count: 1 },
      { providerId: "passport", claimed: true, count: 2 },
    ]);
    const expected = await kysely()
      .selectFrom("productionTestParticipations")
      .selectAll()
      .where("challengeId", "=", t.challengeId)
      .where("claimed", "=", true)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute();
    expect(expected).toHaveLength(2);
    expect(expected.every((p) => p.providerId === "passport" && p.successful)).toBe(true);
    expect(
      await pageParticipations(kysely(), t.challengeId, { claimed: true, limit: 10, offset: 0 }),
    ).toEqual({
      total: 2,
      rows: expected,
    });
    const all = await pageParticipations(kysely(), t.challengeId, { limit: 1, offset: 1 });
    expect(all.total).toBe(3);
    expect(all.rows).toHaveLength(1);
  });
});
