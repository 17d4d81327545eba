/**
 * Webhook delivery: one attempt of a claimed delivery, sent, and what to record of it
 * (docs/design.md §5; spec, Events); the dispatcher records it. Every attempt goes through the queue: there is no
 * path that claims and sends a single delivery on its own (docs/decisions.md, issue 23 item 15). The queue is dispatch/queue.ts, the dispatcher that claims and sends batches
 * dispatch/dispatcher.ts, the HTTP request dispatch/request.ts, the order of a session's events
 * dispatch/order.ts, the sweeper dispatch/sweep.ts, the settings (WEBHOOK_RETRY_SCHEDULE,
 * WEBHOOK_TIMEOUT_MS, WEBHOOK_CONCURRENCY, WEBHOOK_SWEEP_GRACE_SECONDS) lib/config.
 * Rules:
 * - one worker at a time sends a delivery: it first claims a lease (status pending and no live
 *   lease, re-checked on the row it locks), so two workers — or a sweeper re-queue racing the
 *   original claim — never send the same attempt;
 * - one claim sends ONE attempt: the stored body bytes to the app's current URL, signed with the
 *   app's current secret (X-Service-Signature; none before the first rotation, and never unsigned
 *   once signed: a secret that cannot be decrypted fails the attempt without a request);
 * - the attempt row and the delivery's new state, with its next attempt queued, are written in
 *   one statement, the state only while the lease is still ours;
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
import { countWebhookAttempt } from "../../metrics/count";
import { randomUUID } from "node:crypto";
import { decryptSecret } from "../../crypto/encryption";
import { config } from "../../config";
import type { TAttemptRecord, TClaimedDelivery } from "./queue";
import { sendWebhookRequest, type TAttemptResult } from "./request";
import { SIGNATURE_HEADER, signPayload } from "../signature";
import { SpanStatusCode } from "@opentelemetry/api";
import { inSpan, SpanKind } from "../../tracing/spans";

export { leaseSeconds, queueDeliveryAttempt, type TDeliveryTrigger } from "./queue";

/** Event type of the deliveries made by POST …/webhook-config/test. */
export const TEST_EVENT_TYPE = "webhook.test";

const USER_AGENT = "idv-broker-webhooks/1.0";

/**
 * What became of one attempt; failed: a manual attempt failed and the delivery stays succeeded
 * from an earlier attempt.
 */
export type TDeliverOutcomeName = "succeeded" | "failed" | "retrying" | "dead";

/** Why an attempt must not be made, or undefined when it may. */
function refusalReason(app: TClaimedDelivery["app"], explicit: boolean): string | undefined {
  if (!app.live) return "the app was deleted; delivery abandoned";
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

/** Sends the request of one attempt (or fails it when the secret cannot be decrypted). */
async function send(delivery: TClaimedDelivery, url: string, attemptNumber: number): Promise<TAttemptResult> {
  const sealed = delivery.app.webhookSecretEncrypted;
  let secret: string | undefined;
  try {
    secret = sealed ? decryptSecret(sealed) : undefined;
  } catch {
    secret = undefined;
  }
  // never downgrade a signed webhook to an unsigned one
  if (sealed && secret === undefined) return undecryptableSecret();
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    "X-Service-Event": delivery.eventType,
    "X-Service-Delivery": delivery.id,
    "X-Service-Attempt": String(attemptNumber),
  };
  if (secret) headers[SIGNATURE_HEADER] = signPayload(secret, delivery.body);
  return sendWebhookRequest(url, delivery.body, headers);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/**
 * Makes the one attempt of a claimed delivery — or abandons it without a request — and says what
 * to record (the caller records it with `recordAttempts`). Never throws.
 */
export async function attemptClaimed(
  delivery: TClaimedDelivery,
): Promise<{ record: TAttemptRecord; outcome: TDeliverOutcomeName; attempt?: TAttemptResult }> {
  const explicit = delivery.trigger === "manual" || delivery.eventType === TEST_EVENT_TYPE;
  const refusal = refusalReason(delivery.app, explicit);
  const url = delivery.app.webhookUrl;
  const base = { deliveryId: delivery.id, leaseUntil: delivery.leaseUntil };
  if (refusal || !url) {
    const record: TAttemptRecord = {
      ...base,
      status: "dead",
      lastError: refusal ?? null,
      url: null,
      nextAttemptAt: null,
      queuedTrigger: null,
    };
    countWebhookAttempt("dead", delivery.trigger);
    return { record, outcome: "dead" };
  }

  const attemptNumber = delivery.attemptCount + 1;
  // a trace of its own (it runs after the request that queued it): ids of our records, the host
  const attempt = await inSpan(
    "webhook attempt",
    {
      kind: SpanKind.CLIENT,
      root: true,
      attributes: {
        "idv.webhook.delivery_id": delivery.id,
        "idv.webhook.event_type": delivery.eventType,
        "idv.webhook.attempt": attemptNumber,
        "idv.webhook.trigger": delivery.trigger,
        "server.address": hostOf(url),
      },
    },
    async (span) => {
      const result = await send(delivery, url, attemptNumber);
      if (result.responseStatus !== null)
        span?.setAttribute("http.response.status_code", result.responseStatus);
      if (!result.success)
        span?.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? undefined });
      return result;
    },
  );
  let outcome: TDeliverOutcomeName = attempt.success ? "succeeded" : "dead";
  // a failed redelivery does not undo an earlier success
  if (!attempt.success && delivery.trigger === "manual" && delivery.delivered) outcome = "failed";
  let nextAttemptAt: Date | null = null;
  if (!attempt.success && delivery.trigger === "automatic") {
    const delay = config().webhookRetrySchedule[delivery.automaticAttempts];
    if (delay !== undefined) {
      outcome = "retrying";
      nextAttemptAt = new Date(Date.now() + Math.round(delay * 1000));
    }
  }
  const record: TAttemptRecord = {
    ...base,
    attempt: { id: randomUUID(), number: attemptNumber, trigger: delivery.trigger, result: attempt },
    status: outcome === "retrying" ? "pending" : outcome === "failed" ? "succeeded" : outcome,
    lastError: attempt.error,
    url,
    nextAttemptAt,
    queuedTrigger: nextAttemptAt ? "automatic" : null,
  };
  countWebhookAttempt(outcome, delivery.trigger);
  return { record, outcome, attempt };
}
