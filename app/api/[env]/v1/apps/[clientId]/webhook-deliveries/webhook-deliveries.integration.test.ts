import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { newId } from "@/lib/ids";
import { queueDelivery } from "@/lib/webhooks/events";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { waitFor } from "@/lib/testing/jobs";
import { basic, bearer, call } from "@/lib/testing/router";
import {
  startWebhookReceiver,
  type TReceiverReply,
  type TWebhookReceiver,
} from "@/lib/testing/webhook-receiver";
import { makeWebhookApp, setUpWebhookDeliveryTests } from "@/lib/testing/webhooks";
import { sql } from "kysely";

setUpWebhookDeliveryTests();

let receiver: TWebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const db = () => kysely();

/** The stored delivery row (it must exist). */
const deliveryRow = (id: string) =>
  db().selectFrom("webhookDeliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const countDeliveries = (appId: string) =>
  countRows(db().selectFrom("webhookDeliveries").where("appId", "=", appId));

interface SeedAttempt {
  responseStatus: number | null;
  error?: string;
  trigger?: "automatic" | "manual";
}

/** A delivery row in a given state with its attempts (not queued: nothing will send it). */
async function seedDelivery(
  appId: string,
  {
    status = "dead",
    eventType = "verification.completed",
    attempts = [{ responseStatus: 500, error: "receiver answered HTTP 500" }] as SeedAttempt[],
    createdAt = new Date(),
    nextAttemptAt = null as Date | null,
  } = {},
) {
  const eventId = newId("evt");
  const id = newId("dlv");
  const last = attempts.at(-1);
  const succeeded = status === "succeeded";
  await db()
    .insertInto("webhookDeliveries")
    .values({
      id,
      appId,
      eventType,
      url: receiver.url,
      body: JSON.stringify({ event: eventType, eventId, data: { verificationId: "ver_1" } }),
      status,
      attemptCount: attempts.length,
      lastStatus: last?.responseStatus ?? null,
      lastError: last?.error ?? null,
      nextAttemptAt,
      queuedTrigger: null,
      deliveredAt: succeeded ? createdAt : null,
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
  if (attempts.length > 0)
    await db()
      .insertInto("webhookDeliveryAttempts")
      .values(
        attempts.map((a, i) => ({
          id: randomUUID(),
          deliveryId: id,
          attemptNumber: i + 1,
          trigger: a.trigger ?? "automatic",
          startedAt: new Date(createdAt.getTime() + i * 1000),
          durationMs: 12,
          responseStatus: a.responseStatus,
          error: a.error ?? null,
          success: a.responseStatus !== null && a.responseStatus < 300,
        })),
      )
      .execute();
  return { id, eventId };
}

async function setup(options: { url?: string | null; enabled?: boolean; signed?: boolean } = {}) {
  const made = await makeWebhookApp({
    url: options.url === undefined ? receiver.url : "https://placeholder.example.com/hooks",
    enabled: options.enabled ?? true,
    signed: options.signed,
  });
  if (options.url === null) {
    await call("PATCH", `${made.base}/webhook-config`, {
      headers: bearer(made.key),
      body: { url: null, enabled: false },
    });
  }
  const deliveries = `${made.base}/webhook-deliveries`;
  return { ...made, clientId: made.app.clientId, deliveries };
}

async function otherWorkspaceKey() {
  return (await makeWorkspace()).keys.sandbox;
}

/** The trigger of the attempt queued for the delivery (lib/webhooks/dispatch/queue.ts), or null. */
const queuedOf = async (deliveryId: string) => (await deliveryRow(deliveryId)).queuedTrigger;

describe("GET /v1/apps/{client_id}/webhook-deliveries", () => {
  it("lists deliveries newest first with their attempts, paginated", async () => {
    const { clientId, key, deliveries } = await setup();
    const t = Date.now() - 60_000;
    const oldest = await seedDelivery(clientId, {
      status: "succeeded",
      createdAt: new Date(t),
      attempts: [{ responseStatus: 500, error: "receiver answered HTTP 500" }, { responseStatus: 204 }],
    });
    const middle = await seedDelivery(clientId, { createdAt: new Date(t + 1000) });
    const newest = await seedDelivery(clientId, {
      status: "pending",
      createdAt: new Date(t + 2000),
      attempts: [],
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });

    const page = await call("GET", `${deliveries}?limit=2`, { headers: bearer(key) });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0, hasMore: true });
    expect(page.body.data.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([newest.id, middle.id]);
    // a delivery without a stored event (test events) shows the id inside its body
    expect(page.body.data[0]).toMatchObject({
      eventId: newest.eventId,
      status: "pending",
      attemptCount: 0,
      attempts: [],
      deliveredAt: null,
    });
    expect(page.body.data[0].nextAttemptAt).not.toBeNull();
    expect(page.body.data[0]).not.toHaveProperty("body");

    const rest = await call("GET", `${deliveries}?limit=2&offset=2`, { headers: bearer(key) });
    expect(rest.body).toMatchObject({ total: 3, limit: 2, offset: 2, hasMore: false });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.data[0]).toEqual({
      deliveryId: oldest.id,
      eventId: oldest.eventId,
      eventType: "verification.completed",
      url: receiver.url,
      status: "succeeded",
      attemptCount: 2,
      lastStatus: 204,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: new Date(t).toISOString(),
      createdAt: new Date(t).toISOString(),
      updatedAt: expect.any(String),
      attempts: [
        {
          attemptNumber: 1,
          trigger: "automatic",
          startedAt: new Date(t).toISOString(),
          durationMs: 12,
          responseStatus: 500,
          error: "receiver answered HTTP 500",
          success: false,
        },
        {
          attemptNumber: 2,
          trigger: "automatic",
          startedAt: new Date(t + 1000).toISOString(),
          durationMs: 12,
          responseStatus: 204,
          error: null,
          success: true,
        },
      ],
    });

    const dead = await call("GET", `${deliveries}?status=dead`, { headers: bearer(key) });
    expect(dead.body.data.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([middle.id]);
    const byType = await call("GET", `${deliveries}?eventType=verification.created`, {
      headers: bearer(key),
    });
    expect(byType.body).toMatchObject({ data: [], total: 0, hasMore: false });
    const defaults = await call("GET", deliveries, { headers: bearer(key) });
    expect(defaults.body).toMatchObject({ total: 3, limit: 20, offset: 0, hasMore: false });
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["offset=-1", "offset"],
    ["offset=1.5", "offset"],
    ["status=failed", "status"],
  ])("refuses the query %s, naming the field", async (query, field) => {
    const { key, deliveries } = await setup();
    const res = await call("GET", `${deliveries}?${query}`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("requires a workspace key of the owning workspace and environment", async () => {
    const { ws, app, clientId, key, deliveries } = await setup();
    await seedDelivery(clientId);
    expect((await call("GET", deliveries)).body.error.code).toBe("INVALID_API_KEY");
    const wrongScheme = await call("GET", deliveries, { headers: basic(clientId, app.clientSecret) });
    expect(wrongScheme.status).toBe(401);

    const foreign = await call("GET", deliveries, { headers: bearer(await otherWorkspaceKey()) });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("RESOURCE_FORBIDDEN");

    const crossEnv = await call("GET", `/api/production/v1/apps/${clientId}/webhook-deliveries`, {
      headers: bearer(ws.keys.production),
    });
    expect(crossEnv.status).toBe(404);
    expect(crossEnv.body.error.code).toBe("RESOURCE_NOT_FOUND");

    const unknown = await call("GET", `/api/sandbox/v1/apps/app_unknown/webhook-deliveries`, {
      headers: bearer(key),
    });
    expect(unknown.status).toBe(404);
  });
});

describe("GET /v1/apps/{client_id}/webhook-deliveries/{delivery_id}", () => {
  it("returns one delivery with the exact body sent", async () => {
    const { clientId, key, deliveries } = await setup();
    const seeded = await seedDelivery(clientId);
    const res = await call("GET", `${deliveries}/${seeded.id}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    const row = await deliveryRow(seeded.id);
    expect(res.body).toMatchObject({
      deliveryId: seeded.id,
      status: "dead",
      attemptCount: 1,
      lastStatus: 500,
    });
    expect(res.body.body).toBe(row.body);
    expect(res.body.payload).toEqual(JSON.parse(row.body));
    expect(res.body.attempts).toHaveLength(1);
  });

  it("is 404 for an unknown delivery or one of another app, 403/404 across workspaces and environments", async () => {
    const { ws, clientId, key, deliveries } = await setup();
    const seeded = await seedDelivery(clientId);
    const sibling = await makeApp(key);
    const siblingDelivery = await seedDelivery(sibling.clientId);

    const unknown = await call("GET", `${deliveries}/dlv_unknown`, { headers: bearer(key) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const otherApp = await call("GET", `${deliveries}/${siblingDelivery.id}`, { headers: bearer(key) });
    expect(otherApp.status).toBe(404);

    const foreign = await call("GET", `${deliveries}/${seeded.id}`, {
      headers: bearer(await otherWorkspaceKey()),
    });
    expect(foreign.status).toBe(403);
    const crossEnv = await call(
      "GET",
      `/api/production/v1/apps/${clientId}/webhook-deliveries/${seeded.id}`,
      { headers: bearer(ws.keys.production) },
    );
    expect(crossEnv.status).toBe(404);
    expect((await call("GET", `${deliveries}/${seeded.id}`)).status).toBe(401);
  });
});

describe("POST /v1/apps/{client_id}/webhook-deliveries/{delivery_id}/redeliver", () => {
  it("queues a manual attempt of a dead delivery at once; it is sent and logged", async () => {
    const { clientId, key, deliveries } = await setup();
    const seeded = await seedDelivery(clientId);
    const before = receiver.requests.length;
    const res = await call("POST", `${deliveries}/${seeded.id}/redeliver`, { headers: bearer(key) });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ deliveryId: seeded.id, status: "pending", attemptCount: 1 });
    expect(res.body.nextAttemptAt).not.toBeNull();

    const done = await waitFor(async () => {
      const d = await call("GET", `${deliveries}/${seeded.id}`, { headers: bearer(key) });
      return d.body.status === "succeeded" ? d.body : undefined;
    });
    expect(done.attemptCount).toBe(2);
    expect(done.attempts[1]).toMatchObject({ attemptNumber: 2, trigger: "manual", responseStatus: 200 });
    const request = receiver.requests.slice(before).find((r) => r.event?.eventId === seeded.eventId);
    expect(request?.body).toBe(done.body);

    const audit = await db()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", seeded.id)
      .execute();
    expect(audit).toMatchObject([
      {
        action: "webhook_delivery.redelivered",
        targetType: "webhook_delivery",
        data: { appId: clientId, eventType: "verification.completed", previousStatus: "dead" },
      },
    ]);
  });

  it("redelivers a succeeded delivery too, even while the webhook is disabled", async () => {
    const { clientId, key, deliveries } = await setup({ enabled: false });
    const seeded = await seedDelivery(clientId, { status: "succeeded", attempts: [{ responseStatus: 200 }] });
    const res = await call("POST", `${deliveries}/${seeded.id}/redeliver`, { headers: bearer(key) });
    expect(res.status).toBe(202);
    await waitFor(async () => {
      const d = await deliveryRow(seeded.id);
      return d.status === "succeeded" && d.attemptCount === 2;
    });
  });

  it("refuses a pending delivery and writes nothing", async () => {
    const { clientId, key, deliveries } = await setup();
    const seeded = await seedDelivery(clientId, {
      status: "pending",
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    const res = await call("POST", `${deliveries}/${seeded.id}/redeliver`, { headers: bearer(key) });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("WEBHOOK_DELIVERY_PENDING");
    expect(res.body.error.details[0].path).toBe("delivery_id");
    const row = await deliveryRow(seeded.id);
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(await queuedOf(seeded.id)).toBeNull();
    expect(await countRows(db().selectFrom("auditEvents").where("targetId", "=", seeded.id))).toBe(0);
  });

  it("needs a webhook URL (400 naming url) and writes nothing", async () => {
    const { clientId, key, deliveries } = await setup({ url: null });
    const seeded = await seedDelivery(clientId);
    const res = await call("POST", `${deliveries}/${seeded.id}/redeliver`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("url");
    expect((await deliveryRow(seeded.id)).status).toBe("dead");
    expect(await queuedOf(seeded.id)).toBeNull();
  });

  it("takes no body, honours Idempotency-Key and checks ownership", async () => {
    const { ws, clientId, key, deliveries } = await setup();
    const seeded = await seedDelivery(clientId);
    const url = `${deliveries}/${seeded.id}/redeliver`;

    const withBody = await call("POST", url, { headers: bearer(key), body: { now: true } });
    expect(withBody.status).toBe(400);
    expect(withBody.body.error.details[0].path).toBe("(body)");

    expect((await call("POST", url)).status).toBe(401);
    const foreign = await call("POST", url, { headers: bearer(await otherWorkspaceKey()) });
    expect(foreign.status).toBe(403);
    const crossEnv = await call(
      "POST",
      `/api/production/v1/apps/${clientId}/webhook-deliveries/${seeded.id}/redeliver`,
      { headers: bearer(ws.keys.production) },
    );
    expect(crossEnv.status).toBe(404);
    const sibling = await makeApp(key);
    const otherApp = await call(
      "POST",
      `/api/sandbox/v1/apps/${sibling.clientId}/webhook-deliveries/${seeded.id}/redeliver`,
      { headers: bearer(key) },
    );
    expect(otherApp.status).toBe(404);
    // none of the refused requests changed anything
    expect((await deliveryRow(seeded.id)).status).toBe("dead");

    const headers = { ...bearer(key), "idempotency-key": `redeliver-${seeded.id}` };
    const first = await call("POST", url, { headers });
    expect(first.status).toBe(202);
    await waitFor(async () => {
      const d = await deliveryRow(seeded.id);
      return d.status === "succeeded";
    });
    const replay = await call("POST", url, { headers });
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    await new Promise((r) => setTimeout(r, 300));
    expect((await deliveryRow(seeded.id)).attemptCount).toBe(2);
  });
});

describe("POST /v1/apps/{client_id}/webhook-config/test", () => {
  it("sends a signed webhook.test event, whatever the subscriptions, even while disabled", async () => {
    const { clientId, key, base, secret, deliveries } = await setup({ enabled: false, signed: true });
    await call("PATCH", `${base}/webhook-config`, { headers: bearer(key), body: { events: [] } });
    const before = receiver.requests.length;
    const res = await call("POST", `${base}/webhook-config/test`, { headers: bearer(key) });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      eventType: "webhook.test",
      status: "pending",
      attemptCount: 0,
      url: receiver.url,
      payload: {
        event: "webhook.test",
        apiVersion: "v1",
        clientId,
        data: { message: expect.stringContaining("Test event") },
      },
    });
    expect(res.body.eventId).toMatch(/^evt_/);
    expect(res.body.payload.eventId).toBe(res.body.eventId);
    expect(new Date(res.body.payload.timestamp).toISOString()).toBe(res.body.payload.timestamp);

    receiver.setSecret(secret);
    try {
      await waitFor(async () => receiver.requests.length > before);
      const request = receiver.requests.slice(before).find((r) => r.event?.eventId === res.body.eventId)!;
      expect(request.signatureValid).toBe(true);
      expect(request.headers["x-service-event"]).toBe("webhook.test");
      expect(request.body).toBe(res.body.body);
    } finally {
      receiver.setSecret(undefined);
    }
    const listed = await waitFor(async () => {
      const l = await call("GET", deliveries, { headers: bearer(key) });
      return l.body.data[0]?.status === "succeeded" ? l.body : undefined;
    });
    expect(listed.data[0]).toMatchObject({
      deliveryId: res.body.deliveryId,
      attemptCount: 1,
      lastStatus: 200,
    });

    const audit = await db()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", clientId)
      .where("action", "=", "webhook_config.test_sent")
      .executeTakeFirstOrThrow();
    expect(audit.data).toEqual({ deliveryId: res.body.deliveryId, eventId: res.body.eventId });
  });

  it("queues the test event's delivery row itself, without a job", async () => {
    const { clientId } = await setup({});
    // inside a transaction that is rolled back: no worker of this run can take a job away first
    let seen: unknown;
    const rollback = new Error("rollback");
    await db()
      .transaction()
      .execute(async (tx) => {
        const id = await queueDelivery(tx, {
          appId: clientId,
          eventId: null,
          eventType: "webhook.test",
          url: receiver.url,
          body: "{}",
        });
        const delivery = await tx
          .selectFrom("webhookDeliveries")
          .selectAll()
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        // no job of any task names the delivery
        const { rows } = await sql<{ jobs: number }>`
          SELECT count(*)::int AS jobs FROM graphile_worker._private_jobs WHERE payload::text LIKE ${`%${id}%`}`.execute(
          tx,
        );
        seen = { delivery, jobs: rows[0]?.jobs };
        throw rollback;
      })
      .catch((err: unknown) => {
        if (err !== rollback) throw err;
      });
    expect(seen).toMatchObject({
      delivery: { status: "pending", queuedTrigger: "automatic", attemptCount: 0 },
      jobs: 0,
    });
  });

  it("needs a webhook URL: 400 naming url, nothing queued", async () => {
    const { clientId, key, base } = await setup({ url: null });
    const res = await call("POST", `${base}/webhook-config/test`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toEqual([
      {
        path: "url",
        message: "no webhook URL is configured; set one with PATCH /v1/apps/{client_id}/webhook-config",
      },
    ]);
    expect(await countDeliveries(clientId)).toBe(0);
    expect(
      await countRows(
        db()
          .selectFrom("auditEvents")
          .where("targetId", "=", clientId)
          .where("action", "=", "webhook_config.test_sent"),
      ),
    ).toBe(0);
  });

  it("honours Idempotency-Key and checks auth and ownership", async () => {
    const { ws, clientId, key, base } = await setup();
    const url = `${base}/webhook-config/test`;
    const headers = { ...bearer(key), "idempotency-key": `test-${clientId}` };
    const first = await call("POST", url, { headers });
    const replay = await call("POST", url, { headers });
    expect(first.status).toBe(202);
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body.deliveryId).toBe(first.body.deliveryId);
    expect(await countDeliveries(clientId)).toBe(1);

    expect((await call("POST", url)).status).toBe(401);
    const foreign = await call("POST", url, { headers: bearer(await otherWorkspaceKey()) });
    expect(foreign.status).toBe(403);
    const crossEnv = await call("POST", `/api/production/v1/apps/${clientId}/webhook-config/test`, {
      headers: bearer(ws.keys.production),
    });
    expect(crossEnv.status).toBe(404);
    expect(await countDeliveries(clientId)).toBe(1);
  });
});

describe("attempt details in GET /v1/apps/{client_id}/webhook-deliveries/{delivery_id}", () => {
  it("keeps each attempt's request headers and the receiver's answer, its body cut at 4096 bytes", async () => {
    const { key, base, deliveries, secret } = await setup({ signed: true });
    const big = `{"ok":true,"pad":"${"é".repeat(3000)}"}`;
    let seen = 0;
    receiver.respond((request): TReceiverReply | undefined => {
      if (request.headers["x-service-event"] !== "webhook.test") return undefined;
      seen += 1;
      return seen === 1
        ? {
            status: 500,
            headers: { "X-Receiver": "yes", "Set-Cookie": "session=private" },
            body: "not today",
          }
        : { status: 200, headers: { "Content-Type": "application/json" }, body: big };
    });
    try {
      const sent = await call("POST", `${base}/webhook-config/test`, { headers: bearer(key) });
      expect(sent.status).toBe(202);
      expect(sent.body.attempts).toEqual([]);
      const id = sent.body.deliveryId as string;
      const done = await waitFor(async () => {
        const d = await call("GET", `${deliveries}/${id}`, { headers: bearer(key) });
        return d.body.status === "succeeded" ? d.body : undefined;
      });
      expect(done.attempts).toHaveLength(2);
      const [failed, succeeded] = done.attempts;
      const requests = receiver.requests.filter((r) => r.headers["x-service-delivery"] === id);
      expect(requests).toHaveLength(2);

      expect(failed).toMatchObject({
        attemptNumber: 1,
        responseStatus: 500,
        success: false,
        responseBody: "not today",
        responseBodyTruncated: false,
        requestHeaders: {
          "Content-Type": "application/json",
          "User-Agent": "idv-broker-webhooks/1.0",
          "X-Service-Event": "webhook.test",
          "X-Service-Delivery": id,
          "X-Service-Attempt": "1",
          "X-Service-Signature": requests[0]!.signature,
          "Content-Length": String(Buffer.byteLength(done.body)),
        },
      });
      expect(failed.responseHeaders).toMatchObject({ "x-receiver": "yes", "content-type": "text/plain" });
      // the receiver's cookies are not kept
      expect(failed.responseHeaders).not.toHaveProperty("set-cookie");
      expect(JSON.stringify(done)).not.toContain("session=private");
      // the signature is an HMAC of the attempt, never the secret
      expect(JSON.stringify(done)).not.toContain(secret!);

      expect(succeeded).toMatchObject({
        attemptNumber: 2,
        responseStatus: 200,
        success: true,
        responseBodyTruncated: true,
        requestHeaders: { "X-Service-Attempt": "2", "X-Service-Signature": requests[1]!.signature },
        responseHeaders: { "content-type": "application/json" },
      });
      expect(Buffer.byteLength(succeeded.responseBody)).toBeLessThanOrEqual(4096);
      expect(succeeded.responseBody.startsWith('{"ok":true,"pad":"ééé')).toBe(true);
      expect(Buffer.byteLength(succeeded.responseBody)).toBeGreaterThan(4090);

      // the list stays light: attempts without headers and bodies
      const listed = await call("GET", deliveries, { headers: bearer(key) });
      const row = listed.body.data.find((d: { deliveryId: string }) => d.deliveryId === id);
      expect(row.attempts).toHaveLength(2);
      expect(row.attempts[0]).not.toHaveProperty("requestHeaders");
      expect(row.attempts[0]).not.toHaveProperty("responseBody");
    } finally {
      receiver.respond(() => undefined);
    }
  });

  it("sends no signature header before the first rotation, and records a refused connection without a response", async () => {
    const { key, base, deliveries, clientId } = await setup({ signed: false });
    const sent = await call("POST", `${base}/webhook-config/test`, { headers: bearer(key) });
    const unsigned = await waitFor(async () => {
      const d = await call("GET", `${deliveries}/${sent.body.deliveryId}`, { headers: bearer(key) });
      return d.body.status === "succeeded" ? d.body : undefined;
    });
    expect(unsigned.attempts[0].requestHeaders).toMatchObject({ "X-Service-Event": "webhook.test" });
    expect(unsigned.attempts[0].requestHeaders).not.toHaveProperty("X-Service-Signature");
    expect(unsigned.attempts[0].responseBody).toBe("ok");

    // nothing listens on port 1: the attempt has request headers but no response
    await db()
      .updateTable("apps")
      .set({ webhookUrl: "http://127.0.0.1:1/hooks", updatedAt: new Date() })
      .where("id", "=", clientId)
      .returning("id")
      .executeTakeFirstOrThrow();
    const refused = await call("POST", `${base}/webhook-config/test`, { headers: bearer(key) });
    const dead = await waitFor(async () => {
      const d = await call("GET", `${deliveries}/${refused.body.deliveryId}`, { headers: bearer(key) });
      return d.body.status === "dead" ? d.body : undefined;
    });
    expect(dead.attempts[0]).toMatchObject({
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      responseBodyTruncated: false,
      requestHeaders: { "X-Service-Attempt": "1" },
    });
    // what the tenant sees names no address (the server log keeps Node's message)
    expect(dead.attempts[0].error).toBe("connection refused");
    expect(dead.lastError).toBe("connection refused");
  });
});
