/**
 * Webhook delivery: the `webhook_deliver` task, which claims a delivery, sends one attempt and
 * records it (DESIGN.md §5; spec, Events). The HTTP request is delivery-request.ts, the order of
 * a session's events delivery-order.ts, the sweeper delivery-sweep.ts, the settings
 * (WEBHOOK_RETRY_SCHEDULE, WEBHOOK_TIMEOUT_MS, WEBHOOK_SWEEP_GRACE_SECONDS) lib/config.
 * Rules:
 * - one worker at a time sends a delivery: it first claims a lease (a conditional UPDATE on
 *   status pending and no live lease), so two workers — or a sweeper re-queue racing the
 *   original job — never send the same attempt;
 * - one job sends ONE attempt: the stored body bytes to the app's current URL, signed with the
 *   app's current secret (X-Service-Signature; none before the first rotation, and never unsigned
 *   once signed: a secret that cannot be decrypted fails the attempt without a request);
 * - the attempt row, the delivery's new state and the job of the next attempt are written in one
 *   transaction, only while the lease is still ours;
 * - automatic attempts: one at once, then one retry after each value of WEBHOOK_RETRY_SCHEDULE
 *   (default 1,5,30 seconds), then the delivery is dead;
 * - a manual redelivery is a single attempt, recorded like any other, never retried; when it
 *   fails, the delivery goes back to what it was — succeeded if an earlier attempt succeeded
 *   (a failed redelivery does not undo a delivery), dead otherwise;
 * - automatic attempts stop without a request (dead, with the reason) once the app is deleted,
 *   its webhook disabled or its URL cleared; test events and manual redeliveries were asked for
 *   explicitly and go out while the webhook is disabled, but never for a deleted app or without
 *   a URL.
 */
import { decryptSecret } from "../crypto/encryption";
import { getDb, Prisma, type Db, type Tx } from "../db/client";
import type { WebhookDelivery } from "../db/generated/client";
import { deliverWebhookJob, type TDeliverWebhookPayload } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";
import { logger } from "../log";
import { chainPosition, waitInChain, waitsForEarlier, wakeNextInChain } from "./delivery-order";
import { sendWebhookRequest, type TAttemptResult } from "./delivery-request";
import { config } from "../config";
import { SIGNATURE_HEADER, signPayload } from "./signature";

/** Event type of the deliveries made by POST …/webhook-config/test. */
export const TEST_EVENT_TYPE = "webhook.test";

/** Longer than the longest attempt (timeout ≤ 20 s) plus the bookkeeping around it. */
export const LEASE_SECONDS = 30;
const USER_AGENT = "idv-broker-webhooks/1.0";

export type TDeliveryTrigger = "automatic" | "manual";

/**
 * Takes the lease of a pending delivery; undefined when it is not pending or another worker
 * holds a live lease. PostgreSQL re-checks the WHERE clause on the row it locks, so of two
 * concurrent claims exactly one wins.
 */
export async function claimDelivery(
  db: Tx,
  deliveryId: string,
  now = new Date(),
): Promise<WebhookDelivery | undefined> {
  const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000);
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, status: "pending", OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil },
  });
  if (count === 0) return undefined;
  return (await db.webhookDelivery.findUnique({ where: { id: deliveryId } })) ?? undefined;
}

export interface TDeliverOutcome {
  /**
   * skipped: not claimed (not pending, or another worker is on it); waiting: an earlier event of
   * the session has not finished its first attempt, the job comes back later; failed: a manual
   * attempt failed and the delivery stays succeeded from an earlier attempt
   */
  outcome: "skipped" | "waiting" | "succeeded" | "failed" | "retrying" | "dead";
  attempt?: TAttemptResult;
  nextAttemptAt?: Date;
}

/** Why an attempt must not be made, or undefined when it may. */
function refusalReason(
  app: { deletedAt: Date | null; webhookEnabled: boolean; webhookUrl: string | null } | null,
  explicit: boolean,
): string | undefined {
  if (!app || app.deletedAt) return "the app was deleted; delivery abandoned";
  if (!app.webhookUrl) return "the app has no webhook URL; delivery abandoned";
  if (!app.webhookEnabled && !explicit) return "the app's webhook is disabled; delivery abandoned";
  return undefined;
}

/** The attempt of a signed webhook whose secret cannot be decrypted: failed, nothing sent. */
function undecryptableSecret(): TAttemptResult {
  return {
    startedAt: new Date(),
    durationMs: 0,
    responseStatus: null,
    error: "the signing secret could not be decrypted (IDV_MASTER_KEY changed?); not sent",
    success: false,
    requestHeaders: null,
    responseHeaders: null,
    responseBody: null,
    responseBodyTruncated: false,
  };
}

/** Sends one attempt of a delivery and records it (the body of the `webhook_deliver` task). */
export async function deliverWebhook(
  db: Db,
  deliveryId: string,
  { trigger = "automatic" }: { trigger?: TDeliveryTrigger } = {},
): Promise<TDeliverOutcome> {
  const delivery = await claimDelivery(db, deliveryId);
  if (!delivery) return { outcome: "skipped" };
  const app = await db.app.findUnique({
    where: { id: delivery.appId },
    select: { deletedAt: true, webhookEnabled: true, webhookUrl: true, webhookSecretEncrypted: true },
  });

  // only a first automatic attempt takes part in the session's order
  const chain =
    trigger === "automatic" && delivery.attemptCount === 0 ? await chainPosition(db, delivery) : undefined;

  const refusal = refusalReason(app, trigger === "manual" || delivery.eventType === TEST_EVENT_TYPE);
  if (refusal || !app?.webhookUrl) {
    await db.$transaction(async (tx) => {
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id: delivery.id, leaseUntil: delivery.leaseUntil },
        data: { status: "dead", lastError: refusal, nextAttemptAt: null, leaseUntil: null },
      });
      if (count > 0) await wakeNextInChain(tx, chain);
    });
    return { outcome: "dead" };
  }
  const url = app.webhookUrl;

  if (chain && (await waitsForEarlier(db, chain))) {
    // an earlier event of the session is still on its first attempt: it wakes this one when it
    // finishes; the re-check is the fallback should that wake-up be lost
    await db.$transaction((tx) => waitInChain(tx, delivery));
    return { outcome: "waiting" };
  }

  const attemptNumber = delivery.attemptCount + 1;
  let attempt: TAttemptResult;
  let secret: string | undefined;
  try {
    secret = app.webhookSecretEncrypted ? decryptSecret(app.webhookSecretEncrypted) : undefined;
  } catch {
    secret = undefined;
  }
  if (app.webhookSecretEncrypted && secret === undefined) {
    // never downgrade a signed webhook to an unsigned one
    attempt = undecryptableSecret();
  } else {
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "X-Service-Event": delivery.eventType,
      "X-Service-Delivery": delivery.id,
      "X-Service-Attempt": String(attemptNumber),
    };
    if (secret) headers[SIGNATURE_HEADER] = signPayload(secret, delivery.body);
    attempt = await sendWebhookRequest(url, delivery.body, headers);
  }

  return db.$transaction(async (tx) => {
    await tx.webhookDeliveryAttempt.create({
      data: {
        deliveryId: delivery.id,
        attemptNumber,
        trigger,
        startedAt: attempt.startedAt,
        durationMs: attempt.durationMs,
        responseStatus: attempt.responseStatus,
        error: attempt.error,
        success: attempt.success,
        requestHeaders: attempt.requestHeaders ?? Prisma.DbNull,
        responseHeaders: attempt.responseHeaders ?? Prisma.DbNull,
        responseBody: attempt.responseBody,
        responseBodyTruncated: attempt.responseBodyTruncated,
      },
    });
    let outcome: TDeliverOutcome["outcome"] = attempt.success ? "succeeded" : "dead";
    // a failed redelivery does not undo an earlier success
    if (!attempt.success && trigger === "manual" && delivery.deliveredAt) outcome = "failed";
    let nextAttemptAt: Date | undefined;
    if (!attempt.success && trigger === "automatic") {
      const schedule = config().webhookRetrySchedule;
      const automatic = await tx.webhookDeliveryAttempt.count({
        where: { deliveryId: delivery.id, trigger: "automatic" },
      });
      const delay = schedule[automatic - 1];
      if (delay !== undefined) {
        outcome = "retrying";
        nextAttemptAt = new Date(Date.now() + Math.round(delay * 1000));
      }
    }
    const { count } = await tx.webhookDelivery.updateMany({
      // only while our lease stands: after a lost lease another worker owns the delivery
      where: { id: delivery.id, leaseUntil: delivery.leaseUntil },
      data: {
        status: outcome === "retrying" ? "pending" : outcome === "failed" ? "succeeded" : outcome,
        attemptCount: attemptNumber,
        lastStatus: attempt.responseStatus,
        lastError: attempt.error,
        url,
        nextAttemptAt: nextAttemptAt ?? null,
        leaseUntil: null,
        ...(attempt.success ? { deliveredAt: attempt.startedAt } : {}),
      },
    });
    if (count === 0) {
      logger.warn({ deliveryId: delivery.id }, "webhook delivery lease lost; attempt logged only");
      return { outcome: "skipped", attempt };
    }
    await wakeNextInChain(tx, chain);
    if (nextAttemptAt) {
      await enqueue(
        tx,
        deliverWebhookJob,
        { deliveryId: delivery.id, trigger: "automatic" },
        { runAt: nextAttemptAt },
      );
    }
    return { outcome, attempt, nextAttemptAt };
  });
}

/** Queues the next attempt of a delivery now (manual redelivery, sweeper). Call in a transaction. */
export async function queueDeliveryAttempt(
  db: Tx,
  deliveryId: string,
  trigger: TDeliveryTrigger,
): Promise<void> {
  await enqueue(db, deliverWebhookJob, { deliveryId, trigger });
}

/** The `webhook_deliver` job (lib/jobs/definitions.ts). */
export async function deliverWebhookTask({ deliveryId, trigger }: TDeliverWebhookPayload): Promise<void> {
  await deliverWebhook(getDb(), deliveryId, { trigger });
}
