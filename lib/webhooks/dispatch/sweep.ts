/**
 * The re-queue of stuck deliveries, run by every dispatcher every few seconds (dispatcher.ts
 * RECOVER_MS) and by the `webhook_sweep` task every minute: delivery is at-least-once.
 * Rules:
 * - a worker that dies between sending and recording leaves a pending delivery whose lease
 *   expires; the sweeper puts it back on the queue (dispatch/queue.ts), and also pending
 *   deliveries that are on no queue and nobody holds (next attempt overdue by more than
 *   WEBHOOK_SWEEP_GRACE_SECONDS), so the receiver may see an event twice and dedupes on eventId;
 * - deliveries still queued are left alone, however overdue (waiting for an earlier event of
 *   their session, or for a dispatcher to run);
 * - at most 500 deliveries per run, the most overdue first;
 * - re-queueing a delivery another worker has meanwhile claimed or finished is harmless: the
 *   lease decides who sends it, and a finished one is no longer pending;
 * - the trigger of the lost attempt is inferred: a pending delivery with its automatic attempts
 *   used up, or already delivered, or redelivered before, is a manual redelivery.
 */
import { kysely, type Db } from "../../db/client";
import { logger } from "../../log";
import { queueDeliveryAttempt } from "./queue";
import { config } from "../../config";
import { readStuckDeliveries } from "../store/log";

const SWEEP_BATCH = 500;

/** Re-queues the stuck pending deliveries; returns the ids re-queued. */
export async function sweepWebhookDeliveries(db: Db, now = new Date()): Promise<string[]> {
  const overdue = new Date(now.getTime() - config().webhookSweepGraceSeconds * 1000);
  const stuck = await readStuckDeliveries(db, now, overdue, SWEEP_BATCH);
  if (stuck.length === 0) return [];
  const retries = config().webhookRetrySchedule.length;
  const byTrigger = { automatic: [] as string[], manual: [] as string[] };
  for (const d of stuck) {
    // the trigger of the lost attempt is not stored: a pending delivery with its automatic
    // attempts used up, or already delivered, or redelivered before, is a manual redelivery
    const automatic = d.attempts.filter((a) => a.trigger === "automatic").length;
    const manual =
      d.deliveredAt !== null || d.attempts.some((a) => a.trigger === "manual") || automatic > retries;
    byTrigger[manual ? "manual" : "automatic"].push(d.id);
  }
  // one statement per trigger, each atomic on its own: no transaction needed (nor possible on a Db)
  await queueDeliveryAttempt(db, byTrigger.automatic, "automatic", now);
  await queueDeliveryAttempt(db, byTrigger.manual, "manual", now);
  logger.warn({ deliveryIds: stuck.map((d) => d.id) }, "webhook deliveries re-queued by the sweeper");
  return stuck.map((d) => d.id);
}

/** The `webhook_sweep` job (lib/jobs/definitions.ts). */
export async function sweepWebhookDeliveriesTask(): Promise<void> {
  await sweepWebhookDeliveries(kysely());
}
