/**
 * The order of one session's events at its app: the chain of first automatic attempts.
 * Rules:
 * - the first automatic attempt of an event waits (its job re-queued, no attempt recorded) while
 *   an earlier event of the same verification to the same app has not finished its first
 *   attempt; when that one finishes it wakes the next;
 * - only that chain waits: other sessions and other apps are not held up; retries, manual
 *   redeliveries and test events neither wait nor hold anyone up;
 * - the wake-up is a job without key (a keyed job could replace or detach another's); the
 *   waiting attempt re-checks after ORDER_RECHECK_MS should the wake-up be lost.
 */
import type { Tx } from "../db/client";
import type { WebhookDelivery } from "../db/generated/client";
import { deliverWebhookJob } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";

/** How long a first attempt waiting for an earlier event of its session sleeps between checks. */
export const ORDER_RECHECK_MS = 1000;

/** A delivery's place among the deliveries of its verification's events to its app. */
export interface TChainPosition {
  appId: string;
  verificationId: string;
  /** the event's emission order (verification_events.seq) */
  seq: bigint;
}

/** The delivery's place in its chain; undefined for test events, which stand alone. */
export async function chainPosition(db: Tx, delivery: WebhookDelivery): Promise<TChainPosition | undefined> {
  if (!delivery.eventId) return undefined; // test events stand alone
  const event = await db.verificationEvent.findUnique({
    where: { id: delivery.eventId },
    select: { verificationId: true, seq: true },
  });
  return event ? { appId: delivery.appId, verificationId: event.verificationId, seq: event.seq } : undefined;
}

/** Deliveries of the same chain whose first attempt has not finished, before or after `chain`. */
function unfinishedInChain(chain: TChainPosition, side: "before" | "after") {
  return {
    appId: chain.appId,
    status: "pending",
    attemptCount: 0,
    event: {
      verificationId: chain.verificationId,
      seq: side === "before" ? { lt: chain.seq } : { gt: chain.seq },
    },
  };
}

/** Whether an earlier event of the chain is still on its first attempt. */
export async function waitsForEarlier(db: Tx, chain: TChainPosition): Promise<boolean> {
  return (await db.webhookDelivery.findFirst({ where: unfinishedInChain(chain, "before") })) !== null;
}

/** Queues the next delivery of the chain now, once this one's first attempt has finished. */
export async function wakeNextInChain(db: Tx, chain: TChainPosition | undefined): Promise<void> {
  if (!chain) return;
  const next = await db.webhookDelivery.findFirst({
    where: unfinishedInChain(chain, "after"),
    orderBy: { event: { seq: "asc" } },
    select: { id: true },
  });
  // unkeyed, like the in-order wait: a keyed job could replace or detach another's
  if (next)
    await enqueue(db, deliverWebhookJob, { deliveryId: next.id, trigger: "automatic" }, { keyed: false });
}

/** Puts a waiting first attempt back: its lease released, its job re-queued ORDER_RECHECK_MS later. */
export async function waitInChain(
  db: Tx,
  delivery: Pick<WebhookDelivery, "id" | "leaseUntil">,
): Promise<void> {
  const runAt = new Date(Date.now() + ORDER_RECHECK_MS);
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: delivery.id, leaseUntil: delivery.leaseUntil },
    data: { nextAttemptAt: runAt, leaseUntil: null },
  });
  if (count > 0)
    await enqueue(
      db,
      deliverWebhookJob,
      { deliveryId: delivery.id, trigger: "automatic" },
      // no job key: a keyed job may be replaced or detached by a concurrent wake-up, and an
      // extra job is harmless (it finds the lease taken or the attempt made, and stops)
      { runAt, keyed: false },
    );
}
