/**
 * The `webhook_sweep` task (every minute): delivery is at-least-once.
 * Rules:
 * - a worker that dies between sending and recording leaves a pending delivery whose lease
 *   expires; the sweeper re-queues it, and re-queues pending deliveries whose job was lost (next
 *   attempt overdue by more than WEBHOOK_SWEEP_GRACE_SECONDS and nobody holds it), so the
 *   receiver may see an event twice and dedupes on eventId;
 * - at most 500 deliveries per run, the most overdue first;
 * - the job key replaces a still-queued job instead of adding a second one, and the lease makes a
 *   duplicate job harmless;
 * - the trigger the lost job carried is inferred: a pending delivery with its automatic attempts
 *   used up, or already delivered, or redelivered before, is a manual redelivery.
 */
import { getDb, type Tx } from "../db/client";
import { logger } from "../log";
import { queueDeliveryAttempt } from "./delivery";
import { config } from "../config";

const SWEEP_BATCH = 500;

/** Re-queues the stuck pending deliveries; returns the ids re-queued. */
export async function sweepWebhookDeliveries(db: Tx, now = new Date()): Promise<string[]> {
  const overdue = new Date(now.getTime() - config().webhookSweepGraceSeconds * 1000);
  const stuck = await db.webhookDelivery.findMany({
    where: {
      status: "pending",
      OR: [
        { leaseUntil: { lt: now } },
        { leaseUntil: null, nextAttemptAt: { lt: overdue } },
        { leaseUntil: null, nextAttemptAt: null, updatedAt: { lt: overdue } },
      ],
    },
    select: { id: true, deliveredAt: true, attempts: { select: { trigger: true } } },
    orderBy: { nextAttemptAt: "asc" },
    take: SWEEP_BATCH,
  });
  if (stuck.length === 0) return [];
  const retries = config().webhookRetrySchedule.length;
  // one add_job per delivery, each atomic on its own: no transaction needed (nor possible on a Tx)
  for (const d of stuck) {
    // the job payload that carried the trigger is gone: a pending delivery with its automatic
    // attempts used up, or already delivered, or redelivered before, is a manual redelivery
    const automatic = d.attempts.filter((a) => a.trigger === "automatic").length;
    const manual =
      d.deliveredAt !== null || d.attempts.some((a) => a.trigger === "manual") || automatic > retries;
    await queueDeliveryAttempt(db, d.id, manual ? "manual" : "automatic");
  }
  logger.warn({ deliveryIds: stuck.map((d) => d.id) }, "webhook deliveries re-queued by the sweeper");
  return stuck.map((d) => d.id);
}

/** The `webhook_sweep` job (lib/jobs/definitions.ts). */
export async function sweepWebhookDeliveriesTask(): Promise<void> {
  await sweepWebhookDeliveries(getDb());
}
