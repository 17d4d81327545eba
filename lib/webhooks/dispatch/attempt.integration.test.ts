import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql, type Insertable } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectRoot } from "@/lib/config/paths";
import { kysely } from "@/lib/db/client";
import { countRows, type DB } from "@/lib/db/kysely";
import type { TRow } from "@/lib/db/rows";
import { waitFor } from "@/lib/testing/jobs";
import { bearer, call } from "@/lib/testing/router";
import { startWebhookReceiver, type TWebhookReceiver } from "@/lib/testing/webhook-receiver";
import {
  emitEvents,
  makeVerificationRow,
  makeWebhookApp,
  setUpWebhookDeliveryTests,
} from "@/lib/testing/webhooks";
import { newId } from "@/lib/ids";
import { TEST_EVENT_TYPE } from "./attempt";
import { leaseSeconds, queueDeliveryAttempt } from "./queue";
import { DESTINATION_NOT_ALLOWED, HOST_NOT_ALLOWED } from "./errors";
import { sweepWebhookDeliveries } from "./sweep";
import { verifyWebhook, WebhookVerificationError } from "../receiver";

// the receivers listen on loopback; one test below proves what happens without that
setUpWebhookDeliveryTests();
delete process.env.WEBHOOK_TIMEOUT_MS;

const db = () => kysely();

type TDeliveryWithAttempts = TRow<"webhookDeliveries"> & { attempts: TRow<"webhookDeliveryAttempts">[] };

/** The deliveries with their attempts in order. */
async function withAttempts(rows: TRow<"webhookDeliveries">[]): Promise<TDeliveryWithAttempts[]> {
  const attempts =
    rows.length === 0
      ? []
      : await db()
          .selectFrom("webhookDeliveryAttempts")
          .selectAll()
          .where(
            "deliveryId",
            "in",
            rows.map((r) => r.id),
          )
          .orderBy("attemptNumber")
          .execute();
  return rows.map((r) => ({ ...r, attempts: attempts.filter((a) => a.deliveryId === r.id) }));
}

async function delivery(id: string): Promise<TDeliveryWithAttempts> {
  const row = await db()
    .selectFrom("webhookDeliveries")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const [withRows] = await withAttempts([row]);
  return withRows!;
}

async function deliveriesOf(appId: string): Promise<TDeliveryWithAttempts[]> {
  const rows = await db()
    .selectFrom("webhookDeliveries")
    .selectAll()
    .where("appId", "=", appId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return withAttempts(rows);
}

/** A logged attempt of `deliveryId`, as the dispatcher records one. */
async function insertAttempt(
  deliveryId: string,
  fields: Omit<Insertable<DB["webhookDeliveryAttempts"]>, "id" | "deliveryId">,
): Promise<void> {
  await db()
    .insertInto("webhookDeliveryAttempts")
    .values({ id: randomUUID(), deliveryId, ...fields })
    .execute();
}

async function updateDelivery(
  id: string,
  fields: Partial<Insertable<DB["webhookDeliveries"]>>,
): Promise<void> {
  await db()
    .updateTable("webhookDeliveries")
    .set({ ...fields, updatedAt: new Date() })
    .where("id", "=", id)
    .execute();
}

async function settled(id: string, status: "succeeded" | "dead", timeoutMs = 10_000) {
  return waitFor(async () => {
    const d = await delivery(id);
    return d.status === status ? d : undefined;
  }, timeoutMs);
}

/** A delivery row that is not on the queue, as if its queued attempt had been lost. */
async function insertDelivery(
  appId: string,
  url: string,
  fields: Partial<Insertable<DB["webhookDeliveries"]>> = {},
) {
  const eventId = newId("evt");
  return db()
    .insertInto("webhookDeliveries")
    .values({
      id: newId("dlv"),
      appId,
      eventId: null,
      eventType: TEST_EVENT_TYPE,
      url,
      body: JSON.stringify({ event: TEST_EVENT_TYPE, eventId, data: { message: "hi" } }),
      nextAttemptAt: new Date(),
      queuedTrigger: null,
      updatedAt: new Date(),
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

let receiver: TWebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
  process.env.WEBHOOK_RETRY_SCHEDULE = "0.2,0.4,0.6";
  delete process.env.WEBHOOK_TIMEOUT_MS;
});

describe("webhook delivery by the job worker", () => {
  it("delivers exactly the subscribed events, byte for byte, unsigned before the first rotation", async () => {
    const { app } = await makeWebhookApp({
      url: receiver.url,
      events: ["verification.created", "verification.requested", "verification.completed"],
    });
    const verification = await makeVerificationRow(app.clientId);
    const emitted = await emitEvents(verification, [
      "verification.created",
      "verification.requested",
      "verification.failed", // not subscribed
      "verification.completed",
    ]);
    const received = await receiver.waitForRequests(3);
    const rows = await waitFor(async () => {
      const all = await deliveriesOf(app.clientId);
      return all.length === 3 && all.every((d) => d.status === "succeeded") ? all : undefined;
    });
    // nothing more arrives: the unsubscribed event has no delivery
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests).toHaveLength(3);

    const subscribed = emitted.filter((p) => p.event !== "verification.failed");
    expect(received.map((r) => r.event!.eventId).sort()).toEqual(subscribed.map((p) => p.eventId).sort());
    for (const request of received) {
      const row = rows.find((d) => d.eventId === request.event!.eventId)!;
      expect(request.method).toBe("POST");
      expect(request.path).toBe("/hooks");
      expect(request.body).toBe(row.body);
      expect(request.event).toEqual(subscribed.find((p) => p.eventId === row.eventId));
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["user-agent"]).toMatch(/^idv-broker-webhooks\//);
      expect(request.headers["x-service-event"]).toBe(row.eventType);
      expect(request.headers["x-service-delivery"]).toBe(row.id);
      expect(request.signature).toBeUndefined();
      expect(row.attemptCount).toBe(1);
      expect(row.lastStatus).toBe(200);
      expect(row.leaseUntil).toBeNull();
      expect(row.nextAttemptAt).toBeNull();
      expect(row.deliveredAt).not.toBeNull();
      expect(row.attempts).toMatchObject([
        { attemptNumber: 1, trigger: "automatic", responseStatus: 200, error: null, success: true },
      ]);
    }
  });

  it("signs with the current secret once rotated; the previous secret stops verifying", async () => {
    const { app, key, base, secret } = await makeWebhookApp({ url: receiver.url, signed: true });
    const verification = await makeVerificationRow(app.clientId);
    const first = secret!;
    receiver.setSecret(first);
    await emitEvents(verification, ["verification.created"]);
    const [signed] = await receiver.waitForRequests(1);
    expect(signed!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signed!.signatureValid).toBe(true);
    const t = Number(/^t=(\d+)/.exec(signed!.signature!)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);

    const again = await call("POST", `${base}/webhook-config/rotate-secret`, { headers: bearer(key) });
    const second = again.body.secret as string;
    receiver.setSecret(second);
    await emitEvents(verification, ["verification.completed"]);
    const [, latest] = await receiver.waitForRequests(2);
    expect(latest!.signatureValid).toBe(true);
    expect(() => verifyWebhook(latest!.body, latest!.signature!, first)).toThrow(WebhookVerificationError);
    expect(verifyWebhook(latest!.body, latest!.signature!, second).eventId).toBe(latest!.event!.eventId);
  });

  it("retries a failing receiver on the schedule and logs every attempt", async () => {
    receiver.failFirst(2, 500);
    const { app } = await makeWebhookApp({ url: receiver.url });
    const verification = await makeVerificationRow(app.clientId);
    await emitEvents(verification, ["verification.created"]);
    const received = await receiver.waitForRequests(3);
    const [row] = await deliveriesOf(app.clientId);
    const done = await settled(row!.id, "succeeded");

    expect(done.attemptCount).toBe(3);
    expect(done.attempts).toMatchObject([
      { attemptNumber: 1, trigger: "automatic", responseStatus: 500, success: false },
      { attemptNumber: 2, trigger: "automatic", responseStatus: 500, success: false },
      { attemptNumber: 3, trigger: "automatic", responseStatus: 200, success: true, error: null },
    ]);
    expect(done.attempts[0]!.error).toBe("receiver answered HTTP 500");
    expect(done.lastError).toBeNull();
    // the same bytes every time, with the attempt number in a header
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(received.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2", "3"]);
    // waits of 0.2 s then 0.4 s between attempts
    const gap1 = received[1]!.receivedAt.getTime() - received[0]!.receivedAt.getTime();
    const gap2 = received[2]!.receivedAt.getTime() - received[1]!.receivedAt.getTime();
    expect(gap1).toBeGreaterThanOrEqual(180);
    expect(gap2).toBeGreaterThanOrEqual(380);
  });

  it("gives up after the last retry, and a manual redelivery then succeeds", async () => {
    receiver.respond(() => ({ status: 503 }));
    const { app, key, base } = await makeWebhookApp({ url: receiver.url });
    const verification = await makeVerificationRow(app.clientId);
    await emitEvents(verification, ["verification.completed"]);
    await receiver.waitForRequests(4);
    const [row] = await deliveriesOf(app.clientId);
    const dead = await settled(row!.id, "dead");
    expect(dead).toMatchObject({ attemptCount: 4, lastStatus: 503, nextAttemptAt: null, deliveredAt: null });
    expect(dead.lastError).toBe("receiver answered HTTP 503");
    expect(dead.attempts.map((a) => a.trigger)).toEqual(["automatic", "automatic", "automatic", "automatic"]);
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.requests).toHaveLength(4);

    receiver.respond(() => undefined);
    const res = await call("POST", `${base}/webhook-deliveries/${row!.id}/redeliver`, {
      headers: bearer(key),
    });
    expect(res.status).toBe(202);
    const requests = await receiver.waitForRequests(5);
    expect(requests[4]!.body).toBe(dead.body);
    const done = await settled(row!.id, "succeeded");
    expect(done.attemptCount).toBe(5);
    expect(done.attempts[4]).toMatchObject({ attemptNumber: 5, trigger: "manual", success: true });
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const elsewhere = await startWebhookReceiver();
    try {
      receiver.respond(() => ({ status: 302, headers: { Location: elsewhere.url } }));
      process.env.WEBHOOK_RETRY_SCHEDULE = "0.05";
      const { app } = await makeWebhookApp({ url: receiver.url });
      await emitEvents(await makeVerificationRow(app.clientId), ["verification.created"]);
      const [row] = await waitFor(async () => {
        const all = await deliveriesOf(app.clientId);
        return all[0]?.status === "dead" ? all : undefined;
      });
      expect(row!.attempts).toHaveLength(2);
      expect(row!.attempts[0]).toMatchObject({ responseStatus: 302, success: false });
      expect(row!.attempts[0]!.error).toBe(`redirect (HTTP 302 to ${elsewhere.url}) not followed`);
      expect(receiver.requests).toHaveLength(2);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it("times out an attempt that takes too long and retries it", async () => {
    process.env.WEBHOOK_TIMEOUT_MS = "300";
    receiver.respond((r) => (r.index === 0 ? { delayMs: 3_000 } : undefined));
    const { app } = await makeWebhookApp({ url: receiver.url });
    await emitEvents(await makeVerificationRow(app.clientId), ["verification.created"]);
    const [row] = await waitFor(async () => {
      const all = await deliveriesOf(app.clientId);
      return all[0]?.status === "succeeded" ? all : undefined;
    });
    const [timedOut, ok] = row!.attempts;
    expect(timedOut).toMatchObject({ responseStatus: null, success: false, error: "timed out after 300 ms" });
    expect(timedOut!.durationMs).toBeGreaterThanOrEqual(290);
    expect(timedOut!.durationMs).toBeLessThan(2_000);
    expect(ok).toMatchObject({ attemptNumber: 2, responseStatus: 200, success: true });
  });

  it("refuses loopback addresses, by IP and by name, unless private networks are allowed", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    process.env.WEBHOOK_RETRY_SCHEDULE = "0.05";
    const byIp = await makeWebhookApp({ url: receiver.url });
    const byName = await makeWebhookApp({ url: receiver.url.replace("127.0.0.1", "localhost") });
    for (const { app } of [byIp, byName])
      await emitEvents(await makeVerificationRow(app.clientId), ["verification.created"]);
    for (const { app } of [byIp, byName]) {
      const [row] = await waitFor(async () => {
        const all = await deliveriesOf(app.clientId);
        return all[0]?.status === "dead" ? all : undefined;
      });
      expect(row!.attempts).toHaveLength(2);
      // the tenant is not told what the name resolved to
      const error = app === byIp.app ? DESTINATION_NOT_ALLOWED : HOST_NOT_ALLOWED;
      for (const attempt of row!.attempts)
        expect(attempt).toMatchObject({ responseStatus: null, success: false, error });
      expect(row!.lastError).toBe(error);
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it("queues nothing for a disabled webhook or an unsubscribed event", async () => {
    const disabled = await makeWebhookApp({ url: receiver.url, enabled: false });
    const unsubscribed = await makeWebhookApp({ url: receiver.url, events: ["verification.failed"] });
    await emitEvents(await makeVerificationRow(disabled.app.clientId), ["verification.created"]);
    await emitEvents(await makeVerificationRow(unsubscribed.app.clientId), ["verification.created"]);
    const count = (table: "verificationEvents" | "webhookDeliveries", appId: string) =>
      countRows(db().selectFrom(table).where("appId", "=", appId));
    expect(await count("verificationEvents", disabled.app.clientId)).toBe(1);
    expect(await count("webhookDeliveries", disabled.app.clientId)).toBe(0);
    expect(await count("webhookDeliveries", unsubscribed.app.clientId)).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("event order", () => {
  const sessionEvents = [
    "verification.created",
    "verification.requested",
    "verification.user.authentication_succeeded",
    "verification.completed",
  ] as const;
  const eventsOf = (r: TWebhookReceiver, verificationId: string) =>
    r.requests.filter((q) => q.event?.data.verificationId === verificationId);

  it("sends one session's events in emission order, each once the previous first attempt has finished, without holding up other sessions or apps", async () => {
    const other = await startWebhookReceiver();
    try {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const events = [...sessionEvents];
      const slowApp = await makeWebhookApp({ url: receiver.url, events });
      const otherApp = await makeWebhookApp({ url: other.url, events });
      const session = await makeVerificationRow(slowApp.app.clientId);
      const sameAppSession = await makeVerificationRow(slowApp.app.clientId);
      const otherAppSession = await makeVerificationRow(otherApp.app.clientId);
      // the receiver sits on the first event of `session` until the test opens the gate
      receiver.respond((r) => (r.event?.data.verificationId === session.id ? { until: gate } : undefined));

      const emitted = await emitEvents(session, events);
      const sameAppEmitted = await emitEvents(sameAppSession, [
        "verification.created",
        "verification.completed",
      ]);
      await emitEvents(otherAppSession, events);

      // everything else arrives while the first event of `session` is still unanswered
      await other.waitForRequests(4);
      await waitFor(async () => eventsOf(receiver, sameAppSession.id).length === 2);
      const held = eventsOf(receiver, session.id);
      expect(held.map((r) => r.event!.eventId)).toEqual([emitted[0]!.eventId]);
      expect(
        eventsOf(receiver, sameAppSession.id).map((r) => [r.event!.eventId, r.unansweredBefore]),
      ).toEqual(sameAppEmitted.map((p) => [p.eventId, 1]));

      open();
      await waitFor(async () => eventsOf(receiver, session.id).length === 4);
      const arrived = eventsOf(receiver, session.id);
      expect(arrived.map((r) => r.event!.event)).toEqual(events);
      expect(arrived.map((r) => r.event!.eventId)).toEqual(emitted.map((p) => p.eventId));
      // each one only after the previous one was answered
      expect(arrived.map((r) => r.unansweredBefore)).toEqual([0, 0, 0, 0]);
      const rows = await waitFor(async () => {
        const all = await deliveriesOf(slowApp.app.clientId);
        return all.length === 6 && all.every((d) => d.status === "succeeded") ? all : undefined;
      });
      // waiting for the previous event is not an attempt
      for (const row of rows) expect(row.attempts).toMatchObject([{ attemptNumber: 1, success: true }]);
      expect(receiver.requests).toHaveLength(6);
    } finally {
      await other.close();
    }
  });

  it("does not hold the next event while the previous one waits for a retry", async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = "60";
    const { app } = await makeWebhookApp({ url: receiver.url, events: [...sessionEvents] });
    const session = await makeVerificationRow(app.clientId);
    receiver.failFirst(1, 503);
    const emitted = await emitEvents(session, ["verification.created", "verification.completed"]);
    const [first, second] = await receiver.waitForRequests(2);
    expect([first, second].map((r) => [r!.event!.eventId, r!.headers["x-service-attempt"]])).toEqual([
      [emitted[0]!.eventId, "1"],
      [emitted[1]!.eventId, "1"],
    ]);
    const [failed] = await deliveriesOf(app.clientId);
    expect(failed).toMatchObject({ eventId: emitted[0]!.eventId, status: "pending", attemptCount: 1 });
    // a retry a minute away must not reach the sweeper tests below
    await updateDelivery(failed!.id, { status: "dead", nextAttemptAt: null });
  });
});

describe("manual redelivery", () => {
  it("is one attempt: a failed redelivery of a delivered event gets no retries and does not downgrade it", async () => {
    const { app, key, base } = await makeWebhookApp({ url: receiver.url });
    await emitEvents(await makeVerificationRow(app.clientId), ["verification.completed"]);
    await receiver.waitForRequests(1);
    const [row] = await deliveriesOf(app.clientId);
    const delivered = await settled(row!.id, "succeeded");

    receiver.respond(() => ({ status: 500, body: "down for maintenance" }));
    const res = await call("POST", `${base}/webhook-deliveries/${row!.id}/redeliver`, {
      headers: bearer(key),
    });
    expect(res.status).toBe(202);
    await receiver.waitForRequests(2);
    const after = await waitFor(async () => {
      const d = await delivery(row!.id);
      return d.attempts.length >= 2 && d.status !== "pending" ? d : undefined;
    });
    expect(after).toMatchObject({
      status: "succeeded",
      attemptCount: 2,
      deliveredAt: delivered.deliveredAt,
      nextAttemptAt: null,
      leaseUntil: null,
      lastStatus: 500,
      lastError: "receiver answered HTTP 500",
    });
    expect(after.attempts).toMatchObject([
      { attemptNumber: 1, trigger: "automatic", success: true, responseStatus: 200 },
      { attemptNumber: 2, trigger: "manual", success: false, responseStatus: 500 },
    ]);
    // the retry schedule (0.2, 0.4, 0.6 s) passes without another request
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.requests).toHaveLength(2);
    const shown = await call("GET", `${base}/webhook-deliveries/${row!.id}`, { headers: bearer(key) });
    expect(shown.body).toMatchObject({ status: "succeeded", attemptCount: 2, nextAttemptAt: null });
    expect(shown.body.attempts).toHaveLength(2);
  });

  it("is one attempt for a dead delivery too, which stays dead when it fails", async () => {
    receiver.respond(() => ({ status: 503 }));
    const { app, key, base } = await makeWebhookApp({ url: receiver.url });
    await emitEvents(await makeVerificationRow(app.clientId), ["verification.completed"]);
    await receiver.waitForRequests(4);
    const [row] = await deliveriesOf(app.clientId);
    await settled(row!.id, "dead");
    const res = await call("POST", `${base}/webhook-deliveries/${row!.id}/redeliver`, {
      headers: bearer(key),
    });
    expect(res.status).toBe(202);
    const after = await waitFor(async () => {
      const d = await delivery(row!.id);
      return d.attempts.length >= 5 && d.status !== "pending" ? d : undefined;
    });
    expect(after).toMatchObject({ status: "dead", attemptCount: 5, deliveredAt: null, nextAttemptAt: null });
    expect(after.attempts[4]).toMatchObject({ attemptNumber: 5, trigger: "manual", success: false });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.requests).toHaveLength(5);
  });
});

describe("attempt errors stored before issue 12 (migration 20261126010000)", () => {
  it("are rewritten so that none names a resolved address; current texts are left alone", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url });
    const cases: Array<[stored: string, shown: string]> = [
      ["connect ECONNREFUSED 10.0.0.5:443", "connection refused"],
      [
        "connection to 127.0.0.1 refused: private, loopback, link-local and reserved addresses are not allowed",
        HOST_NOT_ALLOWED,
      ],
      ["getaddrinfo ENOTFOUND hooks.internal", HOST_NOT_ALLOWED],
      ["connect ETIMEDOUT 10.1.2.3:443", "connection timed out"],
      ["connect EHOSTUNREACH fd00::5:443", "host unreachable"],
      ["read ECONNRESET", "connection failed"],
      [
        "Hostname/IP does not match certificate's altnames: IP: 10.0.0.5 is not in the cert's list",
        "connection failed",
      ],
    ];
    for (const kept of [
      "receiver answered HTTP 503",
      "timed out after 300 ms",
      "redirect (HTTP 302 to https://example.com/) not followed",
      "connection refused",
      "connection closed by the receiver before it answered",
      "connection failed (EPROTO)",
      "TLS certificate has expired",
      HOST_NOT_ALLOWED,
      DESTINATION_NOT_ALLOWED,
      "the signing secret could not be decrypted (IDV_MASTER_KEY changed?); not sent",
      "the app's webhook is disabled; delivery abandoned",
    ])
      cases.push([kept, kept]);
    const rows = [];
    for (const [stored] of cases) {
      const row = await insertDelivery(app.clientId, receiver.url, {
        status: "dead",
        attemptCount: 1,
        lastError: stored,
      });
      await insertAttempt(row.id, {
        attemptNumber: 1,
        startedAt: new Date(),
        durationMs: 1,
        success: false,
        error: stored,
      });
      rows.push(row);
    }

    const migration = readFileSync(
      path.join(projectRoot, "prisma/migrations/20261126010000_webhook_deliveries_event_index/migration.sql"),
      "utf8",
    );
    const updates = migration
      .split(";")
      .map((chunk) => chunk.replace(/^--.*$/gm, "").trim())
      .filter((statement) => statement.startsWith("UPDATE"));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await sql.raw(statement).execute(db());

    for (const [i, [, shown]] of cases.entries()) {
      const after = await delivery(rows[i]!.id);
      expect([after.lastError, after.attempts[0]!.error]).toEqual([shown, shown]);
    }
  });
});

describe("attempts the dispatcher abandons", () => {
  it("abandons automatic attempts for a disabled webhook or a deleted app, without a request", async () => {
    const { app, key, base } = await makeWebhookApp({ url: receiver.url });
    await call("PATCH", `${base}/webhook-config`, { headers: bearer(key), body: { enabled: false } });
    const event = await insertDelivery(app.clientId, receiver.url, {
      eventType: "verification.created",
      queuedTrigger: "automatic",
    });
    expect(await settled(event.id, "dead")).toMatchObject({
      attemptCount: 0,
      lastError: "the app's webhook is disabled; delivery abandoned",
      leaseUntil: null,
      attempts: [],
    });

    // explicit requests still go out while disabled: test events and manual redeliveries
    const test = await insertDelivery(app.clientId, receiver.url, { queuedTrigger: "automatic" });
    await settled(test.id, "succeeded");
    await updateDelivery(event.id, { status: "pending" });
    expect(await queueDeliveryAttempt(db(), event.id, "manual")).toBe(1);
    await settled(event.id, "succeeded");
    expect(receiver.requests).toHaveLength(2);

    const later = await insertDelivery(app.clientId, receiver.url);
    await call("DELETE", base, { headers: bearer(key) });
    expect(await queueDeliveryAttempt(db(), later.id, "manual")).toBe(1);
    expect((await settled(later.id, "dead")).lastError).toBe("the app was deleted; delivery abandoned");
    expect(receiver.requests).toHaveLength(2);
  });

  it("sends to the app's current URL, not the one the delivery was queued with", async () => {
    const moved = await startWebhookReceiver();
    try {
      const { app, key, base } = await makeWebhookApp({ url: receiver.url });
      await call("PATCH", `${base}/webhook-config`, { headers: bearer(key), body: { url: moved.url } });
      const row = await insertDelivery(app.clientId, receiver.url, { queuedTrigger: "automatic" });
      expect((await settled(row.id, "succeeded")).url).toBe(moved.url);
      expect(moved.requests).toHaveLength(1);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await moved.close();
    }
  });
});

describe("sweepWebhookDeliveries", () => {
  it("re-queues the delivery of a worker that died mid-attempt, and the event arrives", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url });
    const row = await insertDelivery(app.clientId, receiver.url, { eventType: "verification.created" });
    // a dispatcher claimed it (its lease, off the queue) and died before recording anything
    await updateDelivery(row.id, {
      leaseUntil: new Date(Date.now() + leaseSeconds() * 1000),
      queuedTrigger: null,
    });
    expect(await sweepWebhookDeliveries(db())).not.toContain(row.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests).toHaveLength(0);

    // 30 s later the lease has run out
    await updateDelivery(row.id, { leaseUntil: new Date(Date.now() - 1) });
    expect(await sweepWebhookDeliveries(db())).toEqual([row.id]);
    const [request] = await receiver.waitForRequests(1);
    expect(request!.body).toBe(row.body);
    const done = await settled(row.id, "succeeded");
    expect(done.attempts).toMatchObject([{ attemptNumber: 1, trigger: "automatic", success: true }]);
  });

  it("re-queues a pending delivery whose job was lost, once it is overdue by the grace period", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url });
    const recent = await insertDelivery(app.clientId, receiver.url, {
      nextAttemptAt: new Date(Date.now() - 10_000),
    });
    const lost = await insertDelivery(app.clientId, receiver.url, {
      nextAttemptAt: new Date(Date.now() - 61_000),
    });
    const swept = await sweepWebhookDeliveries(db());
    expect(swept).toContain(lost.id);
    expect(swept).not.toContain(recent.id);
    await receiver.waitForRequests(1);
    await settled(lost.id, "succeeded");
    expect((await delivery(recent.id)).status).toBe("pending");

    process.env.WEBHOOK_SWEEP_GRACE_SECONDS = "5";
    try {
      expect(await sweepWebhookDeliveries(db())).toEqual([recent.id]);
    } finally {
      delete process.env.WEBHOOK_SWEEP_GRACE_SECONDS;
    }
    await settled(recent.id, "succeeded");
    expect(receiver.requests).toHaveLength(2);
  });

  it("keeps the manual trigger of a lost redelivery", async () => {
    const { app } = await makeWebhookApp({ url: receiver.url });
    const row = await insertDelivery(app.clientId, receiver.url, {
      status: "pending",
      attemptCount: 1,
      deliveredAt: new Date(),
      nextAttemptAt: new Date(Date.now() - 120_000),
    });
    await insertAttempt(row.id, {
      attemptNumber: 1,
      startedAt: new Date(),
      durationMs: 5,
      responseStatus: 200,
      success: true,
    });
    expect(await sweepWebhookDeliveries(db())).toEqual([row.id]);
    const done = await waitFor(async () => {
      const d = await delivery(row.id);
      return d.attempts.length === 2 ? d : undefined;
    });
    expect(done.attempts[1]).toMatchObject({ attemptNumber: 2, trigger: "manual", success: true });
  });
});
