/**
 * A dispatcher that stops with an attempt still running past its deadline (issue 27, item 4)
 * leaves no lease behind: the lease ends at once, and another instance's dispatcher sends the
 * delivery again within its recovery interval, not after the lease would have run out.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { startWebhookReceiver, type TWebhookReceiver } from "../../testing/webhook-receiver";
import { emitEvents, isolateTestDatabase, makeVerificationRow, makeWebhookApp } from "../../testing/webhooks";
import { waitFor } from "../../testing/jobs";
import { RECOVER_MS, WebhookDispatcher } from "./dispatcher";
import { leaseSeconds } from "./queue";

process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
// no job worker here: the dispatchers of this test are the only ones
isolateTestDatabase();

let receiver: TWebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const dispatcher = () =>
  new WebhookDispatcher({ connectionString: process.env.DATABASE_URL!, concurrency: 4, pollIntervalMs: 100 });

it("releases, at stop()'s deadline, the lease of an attempt still in flight; another dispatcher sends it at once", async () => {
  const { app } = await makeWebhookApp({ url: receiver.url, events: ["verification.created"] });
  // the first request hangs far past the stop's deadline; later ones are answered
  let release!: () => void;
  const hanging = new Promise<void>((resolve) => (release = resolve));
  receiver.respond((r) => (r.index === 0 ? { until: hanging } : undefined));

  const first = dispatcher();
  first.start();
  const verification = await makeVerificationRow(app.clientId);
  await emitEvents(verification, ["verification.created"]);
  await receiver.waitForRequests(1);
  const [claimed] = await kysely()
    .selectFrom("webhookDeliveries")
    .select(["id", "leaseUntil"])
    .where("appId", "=", app.clientId)
    .execute();
  // leased for the attempt's timeout and the margin
  expect(claimed!.leaseUntil!.getTime()).toBeGreaterThan(Date.now() + (leaseSeconds() - 2) * 1000);

  const stopping = Date.now();
  await first.stop(200);
  expect(Date.now() - stopping).toBeLessThan(2_000);
  const released = await kysely()
    .selectFrom("webhookDeliveries")
    .select(["leaseUntil", "status", "attemptCount"])
    .where("id", "=", claimed!.id)
    .executeTakeFirstOrThrow();
  // the lease ended when the dispatcher stopped; nothing was recorded for the unfinished attempt
  expect(released.leaseUntil!.getTime()).toBeLessThanOrEqual(Date.now());
  expect(released).toMatchObject({ status: "pending", attemptCount: 0 });

  const second = dispatcher();
  second.start();
  try {
    const resent = Date.now();
    await receiver.waitForRequests(2, RECOVER_MS + 5_000);
    expect(Date.now() - resent).toBeLessThan(RECOVER_MS + 3_000);
    await waitFor(async () => {
      const row = await kysely()
        .selectFrom("webhookDeliveries")
        .select("status")
        .where("id", "=", claimed!.id)
        .executeTakeFirstOrThrow();
      return row.status === "succeeded" ? true : undefined;
    });
  } finally {
    release();
    await second.stop(5_000);
  }
});
