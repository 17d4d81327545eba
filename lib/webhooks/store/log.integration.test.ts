import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { newId } from "../../ids";
import { makeApp, makeWorkspace } from "../../testing/factories";
import { countDeliveries, listDeliveryRows, readDeliveryRow } from "./log";

/** A delivery of a new app with two attempts (written out of order), and the rows as written. */
async function deliveryWithAttempts() {
  const ws = await makeWorkspace();
  const app = await makeApp(ws.keys.sandbox);
  const id = newId("dlv");
  const delivery = await kysely()
    .insertInto("webhookDeliveries")
    .values({
      id,
      appId: app.clientId,
      eventId: null,
      eventType: "webhook.test",
      url: "https://receiver.example.test/hook",
      body: JSON.stringify({ eventId: "evt_1" }),
      status: "succeeded",
      attemptCount: 2,
      lastStatus: 200,
      deliveredAt: new Date("2026-01-02T03:04:05.678Z"),
      nextAttemptAt: null,
      queuedTrigger: null,
      updatedAt: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const attempt = (n: number, success: boolean) =>
    kysely()
      .insertInto("webhookDeliveryAttempts")
      .values({
        id: randomUUID(),
        deliveryId: id,
        attemptNumber: n,
        trigger: n === 1 ? "automatic" : "manual",
        startedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, n, 123)),
        durationMs: 40 + n,
        responseStatus: success ? 200 : 503,
        error: success ? null : "HTTP 503",
        success,
        // header names as sent: a JSON document keeps its keys
        requestHeaders: JSON.stringify({
          "content-type": "application/json",
          "x-service-signature": `t=1,v1=${n}`,
        }),
        responseHeaders: success ? JSON.stringify({ server_name: "receiver" }) : null,
        responseBody: success ? "ok" : null,
        responseBodyTruncated: !success,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  const second = await attempt(2, true);
  const first = await attempt(1, false);
  return { appId: app.clientId, id, expected: { ...delivery, attempts: [first, second] } };
}

describe("the delivery log's reads", () => {
  it("read a delivery with its attempts, in order, every column as written", async () => {
    const { appId, id, expected } = await deliveryWithAttempts();
    const row = await readDeliveryRow(kysely(), appId, id);
    expect(row?.attempts.map((a) => a.attemptNumber)).toEqual([1, 2]);
    expect(row?.attempts[1]?.startedAt).toEqual(new Date("2026-01-02T03:04:02.123Z"));
    expect(row?.attempts[1]?.responseHeaders).toEqual({ server_name: "receiver" });
    expect(row?.attempts[0]?.requestHeaders).toEqual({
      "content-type": "application/json",
      "x-service-signature": "t=1,v1=1",
    });
    expect(row).toEqual(expected);

    const filter = { appId, status: "succeeded", eventType: "webhook.test" };
    expect(await listDeliveryRows(kysely(), filter, { limit: 10, offset: 0 })).toEqual([expected]);
    expect(await countDeliveries(kysely(), filter)).toBe(1);
    expect(await countDeliveries(kysely(), { ...filter, status: "dead" })).toBe(0);
  });

  it("find no delivery of another app", async () => {
    const { id } = await deliveryWithAttempts();
    const other = await deliveryWithAttempts();
    expect(await readDeliveryRow(kysely(), other.appId, id)).toBeUndefined();
  });
});
