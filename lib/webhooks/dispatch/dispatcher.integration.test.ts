import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql, type Updateable } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { projectRoot } from "@/lib/config/paths";
import { kysely } from "@/lib/db/client";
import type { Verification } from "@/lib/db/rows";
import { newId } from "@/lib/ids";
import { waitFor } from "@/lib/testing/jobs";
import { startWebhookReceiver, type TWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { makeVerificationRow, makeWebhookApp, setUpWebhookDeliveryTests } from "@/lib/testing/webhooks";
import type { TEventType } from "../event-types";
import { emitVerificationEvent } from "../events";
import { APPLICATION_NAME, RECOVER_MS, WebhookDispatcher } from "./dispatcher";
import {
  claimDueDeliveries,
  LEASE_MARGIN_SECONDS,
  leaseSeconds,
  queueDeliveryAttempt,
  recordAndClaim,
  recordAttempts,
  type TAttemptRecord,
} from "./queue";
import { inTransaction, type DB } from "@/lib/db/kysely";
import { sessionEvents } from "@/lib/testing/verifications";

// each dispatcher holds at most 4 deliveries, so that both of them take part below
process.env.WEBHOOK_CONCURRENCY = "4";
setUpWebhookDeliveryTests();
afterAll(() => {
  delete process.env.WEBHOOK_CONCURRENCY;
});

const db = () => kysely();
const HOUR = 3_600_000;

let receiver: TWebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
});

/** Emits `types` in one transaction, as a state change does. */
function emitTogether(verification: Verification, types: TEventType[]) {
  return inTransaction(db(), async (tx) => {
    const payloads = [];
    for (const type of types) payloads.push(await emitVerificationEvent(tx, verification, type));
    return payloads;
  });
}

/** The delivery row `id`. */
function readDelivery(id: string) {
  return db().selectFrom("webhookDeliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** The delivery rows `ids`. */
function readDeliveries(ids: string[]) {
  return db().selectFrom("webhookDeliveries").selectAll().where("id", "in", ids).execute();
}

/** Sets `fields` on the deliveries `ids` (and their updatedAt, as every update does). */
async function setDeliveries(ids: string[], fields: Updateable<DB["webhookDeliveries"]>): Promise<void> {
  await db()
    .updateTable("webhookDeliveries")
    .set({ ...fields, updatedAt: new Date() })
    .where("id", "in", ids)
    .execute();
}

/** Delivery rows for `eventIds` (one session's events, in order) that fall due in an hour. */
async function queuedLater(appId: string, url: string, eventIds: (string | null)[]) {
  const ids: string[] = [];
  for (const eventId of eventIds) {
    const id = newId("dlv");
    await db()
      .insertInto("webhookDeliveries")
      .values({
        id,
        appId,
        eventId,
        eventType: "verification.created",
        url,
        body: JSON.stringify({ eventId }),
        nextAttemptAt: new Date(Date.now() + HOUR),
        updatedAt: new Date(),
      })
      .execute();
    ids.push(id);
  }
  return ids;
}

const OPENING: TEventType[] = [
  "verification.created",
  "verification.requested",
  "verification.workflow.started",
];
const CLOSING: TEventType[] = [
  "verification.user.authentication_started",
  "verification.user.authentication_succeeded",
  "verification.completed",
];

describe("the webhook dispatcher", () => {
  it("with two dispatchers on one database, sends every event once, each session's in order and only once the previous one was answered", async () => {
    const second = new WebhookDispatcher({
      connectionString: process.env.DATABASE_URL!,
      concurrency: 4,
      pollIntervalMs: 100,
    });
    second.start();
    try {
      // every session has one request at the receiver at most; answers take a few milliseconds
      const busy = new Set<string>();
      const overlaps: string[] = [];
      receiver.respond((r) => {
        const session = String(r.event?.data.verificationId);
        if (busy.has(session)) overlaps.push(session);
        busy.add(session);
        const until = new Promise((resolve) => setTimeout(resolve, 2 + (r.index % 7)));
        void until.then(() => busy.delete(session));
        return { until };
      });
      const events = [...OPENING, ...CLOSING];
      const apps = [
        await makeWebhookApp({ url: receiver.url, events }),
        await makeWebhookApp({ url: receiver.urlFor("/other"), events }),
      ];
      const sessions = [];
      for (let i = 0; i < 12; i++) sessions.push(await makeVerificationRow(apps[i % 2]!.app.clientId));
      const emitted = new Map<string, string[]>();
      await Promise.all(
        sessions.map(async (session) => {
          const opening = await emitTogether(session, OPENING);
          const closing = await emitTogether(session, CLOSING);
          emitted.set(
            session.id,
            [...opening, ...closing].map((p) => p.eventId),
          );
        }),
      );

      const total = sessions.length * events.length;
      await receiver.waitForRequests(total, 30_000);
      const rows = await waitFor(async () => {
        const all = await db()
          .selectFrom("webhookDeliveries")
          .selectAll()
          .where(
            "appId",
            "in",
            apps.map((a) => a.app.clientId),
          )
          .execute();
        return all.length === total && all.every((d) => d.status === "succeeded") ? all : undefined;
      });
      const attempts = await db()
        .selectFrom("webhookDeliveryAttempts")
        .selectAll()
        .where(
          "deliveryId",
          "in",
          rows.map((r) => r.id),
        )
        .execute();
      await new Promise((r) => setTimeout(r, 300));

      expect(receiver.requests).toHaveLength(total);
      expect(overlaps).toEqual([]);
      for (const session of sessions) {
        const arrived = receiver.requests
          .filter((r) => r.event?.data.verificationId === session.id)
          .map((r) => r.event!.eventId);
        expect(arrived).toEqual(emitted.get(session.id));
      }
      for (const row of rows) {
        expect(attempts.filter((a) => a.deliveryId === row.id)).toMatchObject([
          { attemptNumber: 1, trigger: "automatic", success: true },
        ]);
        expect(row).toMatchObject({ attemptCount: 1, queuedTrigger: null, leaseUntil: null });
      }
    } finally {
      await second.stop(5_000);
    }
  });

  it("sends again, within seconds, a delivery whose sender died holding its lease (no minute's sweep needed)", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url });
    const id = newId("dlv");
    // as a crash leaves it: claimed (not queued), leased until a moment ago, never recorded
    await db()
      .insertInto("webhookDeliveries")
      .values({
        id,
        appId: app.clientId,
        eventType: "verification.created",
        url: receiver.url,
        body: JSON.stringify({ eventId: "evt_crashed" }),
        nextAttemptAt: new Date(Date.now() - 20_000),
        queuedTrigger: null,
        leaseUntil: new Date(Date.now() - 500),
        updatedAt: new Date(),
      })
      .execute();
    const started = Date.now();
    await receiver.waitForRequests(1, 15_000);
    // the dispatchers re-queue expired leases every RECOVER_MS (5 s), then claim at once
    expect(Date.now() - started).toBeLessThan(RECOVER_MS + 3_000);
    await waitFor(async () => ((await readDelivery(id)).status === "succeeded" ? true : undefined));
    const attempts = await db()
      .selectFrom("webhookDeliveryAttempts")
      .selectAll()
      .where("deliveryId", "=", id)
      .execute();
    expect(attempts).toMatchObject([{ attemptNumber: 1, trigger: "automatic", success: true }]);
    // and a claim's lease is the attempt's timeout plus the margin, not a fixed half minute
    expect(leaseSeconds()).toBe(Math.ceil(config().webhookTimeoutMs / 1000) + LEASE_MARGIN_SECONDS);
  });

  it("carries on when its database connections are cut", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url });
    const session = await makeVerificationRow(app.clientId);
    await emitTogether(session, ["verification.created"]);
    await receiver.waitForRequests(1);
    // as when PostgreSQL restarts: every connection of the dispatchers ends
    const { rows: cut } = await sql<{ ended: boolean }>`
      SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
       WHERE application_name = ${APPLICATION_NAME} AND datname = current_database()`.execute(db());
    expect(cut.length).toBeGreaterThanOrEqual(2);
    await emitTogether(session, ["verification.completed"]);
    const [, second] = await receiver.waitForRequests(2);
    expect(second!.event!.event).toBe("verification.completed");
    const rows = await waitFor(async () => {
      const all = await db()
        .selectFrom("webhookDeliveries")
        .selectAll()
        .where("appId", "=", app.clientId)
        .execute();
      return all.every((d) => d.status === "succeeded") ? all : undefined;
    });
    expect(rows).toHaveLength(2);
  });

  it("reuses its connections to a receiver", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url });
    const session = await makeVerificationRow(app.clientId);
    for (let i = 0; i < 10; i++) await emitTogether(session, ["verification.created"]);
    await receiver.waitForRequests(10);
    const ports = new Set(receiver.requests.map((r) => r.remotePort));
    // at most one connection per delivery in flight (WEBHOOK_CONCURRENCY=4 per dispatcher)
    expect(ports.size).toBeLessThanOrEqual(4);
  });
});

describe("claimDueDeliveries", () => {
  it("finds each delivery's place in its session's chain on the row itself, whoever inserted it", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url, events: OPENING });
    const session = await makeVerificationRow(app.clientId);
    // the outbox writes the chain columns itself
    const payloads = await emitTogether(session, ["verification.created", "verification.requested"]);
    const events = await sessionEvents(session.id);
    expect(events.map((e) => e.id)).toEqual(payloads.map((p) => p.eventId));
    const outboxed = await db()
      .selectFrom("webhookDeliveries")
      .selectAll()
      .where(
        "eventId",
        "in",
        events.map((e) => e.id),
      )
      .execute();
    expect(outboxed.map((d) => [d.eventId, d.verificationId, d.eventSeq]).sort()).toEqual(
      events.map((e) => [e.id, session.id, e.seq]).sort(),
    );
    await receiver.waitForRequests(2);
    // a delivery inserted without them (another writer) gets them from its event (trigger)
    const [byHand] = await queuedLater(app.clientId, receiver.url, [events[1]!.id]);
    const test = await queuedLater(app.clientId, receiver.url, [null]);
    const rows = await readDeliveries([byHand!, ...test]);
    expect(rows.find((r) => r.id === byHand)).toMatchObject({
      verificationId: session.id,
      eventSeq: events[1]!.seq,
    });
    expect(rows.find((r) => r.id === test[0])).toMatchObject({ verificationId: null, eventSeq: null });
    await setDeliveries([byHand!, ...test], { status: "dead" });
  });

  it("never hands a delivery to two claims running at once", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url, enabled: false });
    const ids = await queuedLater(
      app.clientId,
      receiver.url,
      Array.from({ length: 240 }, () => null),
    );
    const later = new Date(Date.now() + 2 * HOUR);
    try {
      const batches = await Promise.all(Array.from({ length: 6 }, () => claimDueDeliveries(db(), 60, later)));
      const claimed = batches.flatMap((b) => b.deliveries.map((d) => d.id)).filter((id) => ids.includes(id));
      expect(claimed).toHaveLength(ids.length);
      expect(new Set(claimed).size).toBe(ids.length);
      const rows = await readDeliveries(ids);
      for (const row of rows) expect(row).toMatchObject({ queuedTrigger: null, status: "pending" });
      // nothing is left to claim
      const again = await claimDueDeliveries(db(), 60, later);
      expect(again.deliveries.filter((d) => ids.includes(d.id))).toEqual([]);
    } finally {
      await setDeliveries(ids, { status: "dead" });
    }
  });

  it("passes over an event whose session has an earlier one on its first attempt, takes it in the statement that records that one, and says when the next one falls due", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url, enabled: false });
    const session = await makeVerificationRow(app.clientId);
    const events = await emitTogether(session, OPENING);
    const chain = await queuedLater(
      app.clientId,
      receiver.url,
      events.map((e) => e.eventId),
    );
    const later = new Date(Date.now() + 2 * HOUR);
    try {
      const soon = await claimDueDeliveries(db(), 10, new Date(Date.now() + HOUR - 60_000));
      expect(soon.deliveries.filter((d) => chain.includes(d.id))).toEqual([]);
      expect(soon.nextDueAt).not.toBeNull();

      const claimedIds = async () =>
        (await claimDueDeliveries(db(), 10, later)).deliveries
          .map((d) => d.id)
          .filter((id) => chain.includes(id));
      const first = await claimDueDeliveries(db(), 10, later);
      const head = first.deliveries.find((d) => chain.includes(d.id));
      expect(first.deliveries.map((d) => d.id).filter((id) => chain.includes(id))).toEqual([chain[0]]);
      // still on its first attempt: the next one waits, also for another claim
      expect(await claimedIds()).toEqual([]);

      // the first attempt failed and waits for its retry: that does not hold the next event
      const { written, claimed } = await recordAndClaim(
        db(),
        [
          {
            deliveryId: head!.id,
            leaseUntil: head!.leaseUntil,
            attempt: {
              id: randomUUID(),
              number: 1,
              trigger: "automatic",
              result: {
                startedAt: new Date(),
                durationMs: 3,
                responseStatus: 503,
                error: "receiver answered HTTP 503",
                success: false,
                requestHeaders: { "Content-Type": "application/json" },
                responseHeaders: {},
                responseBody: "",
                responseBodyTruncated: false,
              },
            },
            status: "pending",
            lastError: "receiver answered HTTP 503",
            url: receiver.url,
            nextAttemptAt: new Date(Date.now() + 3 * HOUR),
            queuedTrigger: "automatic",
          },
        ],
        10,
        later,
      );
      expect([...written]).toEqual([chain[0]]);
      // the same statement takes the next event of the session: its first attempt may go now
      expect(claimed.deliveries.map((d) => d.id).filter((id) => chain.includes(id))).toEqual([chain[1]]);
      expect(await readDelivery(chain[0]!)).toMatchObject({
        status: "pending",
        attemptCount: 1,
        lastStatus: 503,
        queuedTrigger: "automatic",
        leaseUntil: null,
      });
      expect(await claimedIds()).toEqual([]);
    } finally {
      await setDeliveries(chain, { status: "dead" });
    }
  });
});

/** The outcome a dispatcher records for the claim that set `leaseUntil`: one successful attempt. */
function succeeded(deliveryId: string, leaseUntil: Date, url: string): TAttemptRecord {
  const startedAt = new Date();
  return {
    deliveryId,
    leaseUntil,
    attempt: {
      id: randomUUID(),
      number: 1,
      trigger: "automatic",
      result: {
        startedAt,
        durationMs: 3,
        responseStatus: 200,
        error: null,
        success: true,
        requestHeaders: { "Content-Type": "application/json" },
        responseHeaders: {},
        responseBody: "",
        responseBodyTruncated: false,
      },
    },
    status: "succeeded",
    lastError: null,
    url,
    nextAttemptAt: null,
    queuedTrigger: null,
  };
}

describe("leases", () => {
  it("a claim passes over a delivery queued again while another dispatcher holds its lease, and leaves the lease alone", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url, enabled: false });
    const [id] = await queuedLater(app.clientId, receiver.url, [null]);
    const later = new Date(Date.now() + 2 * HOUR);
    const held = new Date(later.getTime() + 20_000);
    // a dispatcher holds it (lease until `held`) and the sweeper has queued it again meanwhile
    await setDeliveries([id!], { leaseUntil: held, queuedTrigger: "automatic", nextAttemptAt: later });
    try {
      const batch = await claimDueDeliveries(db(), 10, later);
      expect(batch.deliveries.map((d) => d.id)).not.toContain(id);
      expect(await readDelivery(id!)).toMatchObject({
        leaseUntil: held,
        queuedTrigger: "automatic",
        status: "pending",
      });
      // once that lease has run out, the queued attempt is claimed
      const after = await claimDueDeliveries(db(), 10, new Date(held.getTime() + 1000));
      expect(after.deliveries.map((d) => d.id)).toContain(id);
    } finally {
      await setDeliveries([id!], { status: "dead" });
    }
  });

  it("an outcome recorded after the lease was lost to another claim changes nothing", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url, enabled: false });
    const [id] = await queuedLater(app.clientId, receiver.url, [null]);
    const later = new Date(Date.now() + 2 * HOUR);
    try {
      const first = (await claimDueDeliveries(db(), 10, later)).deliveries.find((d) => d.id === id)!;
      expect(first).toBeDefined();
      // its dispatcher stalls past the lease; the sweeper queues it again and another claims it
      const expired = new Date(first.leaseUntil.getTime() + 1000);
      expect(await queueDeliveryAttempt(db(), id!, "automatic", expired)).toBe(1);
      const second = (await claimDueDeliveries(db(), 10, expired)).deliveries.find((d) => d.id === id)!;
      expect(second.leaseUntil.getTime()).toBeGreaterThan(first.leaseUntil.getTime());
      const held = await readDelivery(id!);

      // the first dispatcher comes back and records its outcome under the lease it lost
      const late = await recordAttempts(db(), [succeeded(id!, first.leaseUntil, receiver.url)], expired);
      expect([...late]).toEqual([]);
      const after = await readDelivery(id!);
      expect(after).toEqual(held);
      expect(after).toMatchObject({
        status: "pending",
        attemptCount: 0,
        deliveredAt: null,
        leaseUntil: second.leaseUntil,
      });

      // the holder of the live lease records its own
      const current = await recordAttempts(db(), [succeeded(id!, second.leaseUntil, receiver.url)], expired);
      expect([...current]).toEqual([id]);
      expect(await readDelivery(id!)).toMatchObject({
        status: "succeeded",
        attemptCount: 1,
        leaseUntil: null,
      });
    } finally {
      await setDeliveries([id!], { status: "dead" });
    }
  });
});

describe("migration 20261127010000_webhook_delivery_queue", () => {
  it("queues the pending deliveries nobody holds, with the trigger the sweeper would infer", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url, enabled: false });
    const later = new Date(Date.now() + HOUR);
    const [automatic, manual, held, dead] = await queuedLater(app.clientId, receiver.url, [
      null,
      null,
      null,
      null,
    ]);
    const all = [automatic!, manual!, held!, dead!];
    await setDeliveries(all, { queuedTrigger: null, nextAttemptAt: later });
    await setDeliveries([manual!], { deliveredAt: new Date() });
    await setDeliveries([held!], { leaseUntil: later });
    await setDeliveries([dead!], { status: "dead" });

    const migration = readFileSync(
      path.join(projectRoot, "prisma/migrations/20261127010000_webhook_delivery_queue/migration.sql"),
      "utf8",
    );
    const updates = migration
      .split(";")
      .map((chunk) => chunk.replace(/^--.*$/gm, "").trim())
      .filter((statement) => statement.startsWith("UPDATE"));
    expect(updates).toHaveLength(1);
    try {
      await sql.raw(updates[0]!).execute(db());
      const rows = await readDeliveries(all);
      const queued = Object.fromEntries(rows.map((r) => [r.id, r.queuedTrigger]));
      expect(queued).toEqual({
        [automatic!]: "automatic",
        [manual!]: "manual",
        [held!]: null,
        [dead!]: null,
      });
    } finally {
      await setDeliveries(all, { status: "dead", queuedTrigger: null });
    }
  });
});
