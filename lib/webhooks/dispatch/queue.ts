/**
 * The queue of webhook attempts is the `webhook_deliveries` table itself: a delivery is queued
 * when `queued_trigger` holds the trigger of its next attempt, due at `next_attempt_at`.
 * Rules:
 * - a new delivery is queued for its first automatic attempt by the column's default, in the
 *   statement (and transaction) that inserts it: no job of its own;
 * - queueing a delivery (insert, or `queueDeliveryAttempt`) wakes the dispatchers of every
 *   instance when its transaction commits: a database trigger sends NOTIFY idv_webhook_queue;
 * - `claimDueDeliveries` takes a batch in one statement: due, queued, pending, no live lease,
 *   not waiting for an earlier event of its session (dispatch/order.ts), oldest first, rows
 *   another claim holds skipped (FOR UPDATE SKIP LOCKED); it sets the lease and takes the
 *   delivery off the queue, so of two concurrent claims — two instances — only one gets a row;
 * - `recordAttempts` writes a batch of outcomes in one statement: the attempt rows (kept even
 *   when the lease was lost, as before), and each delivery's new state only while its lease is
 *   still the one its claim set; `recordAndClaim` does both in one statement (the dispatcher);
 * - a delivery whose sender died keeps its lease until it expires, then the sweeper re-queues it
 *   (dispatch/sweep.ts): delivery is at-least-once;
 * - a connection of the dispatcher's pool that fails while a statement holds it (the server
 *   restarted) fails that statement and is discarded, never a crash (the data layer's rule).
 */
import { config } from "../../config";
import type { Db } from "../../db/kysely";
import { memberParser } from "../../state-machine";
import type { TAttemptResult } from "./request";
import { queuePendingAttempts, recordAndClaimRows, type TDispatchRow } from "../store/queue";

/** The channel the database trigger notifies when a delivery is queued (migration 20261127010000). */
export const QUEUE_CHANNEL = "idv_webhook_queue";

/** A lease's time beyond the attempt's timeout: reading the answer, recording the outcome. */
export const LEASE_MARGIN_SECONDS = 5;

/**
 * How long a claimed delivery is leased: the attempt's timeout (WEBHOOK_TIMEOUT_MS) plus the
 * margin — no longer, so that a delivery cut off by a crash is claimed again soon after (the
 * dispatchers re-queue expired leases every few seconds: dispatcher.ts).
 */
export function leaseSeconds(): number {
  return Math.ceil(config().webhookTimeoutMs / 1000) + LEASE_MARGIN_SECONDS;
}

export type TDeliveryTrigger = "automatic" | "manual";
const parseTrigger = memberParser<TDeliveryTrigger>(
  ["automatic", "manual"],
  "webhook_deliveries.queued_trigger",
);

/** A delivery as claimed for one attempt, with what the attempt needs of its app. */
export interface TClaimedDelivery {
  id: string;
  appId: string;
  eventType: string;
  /** the exact bytes to send */
  body: string;
  /** attempts made so far */
  attemptCount: number;
  /** an earlier attempt succeeded */
  delivered: boolean;
  trigger: TDeliveryTrigger;
  /** automatic attempts made so far (the retry schedule counts these) */
  automaticAttempts: number;
  /** the lease this claim holds: the outcome is recorded only while it still stands */
  leaseUntil: Date;
  app: {
    /** the app exists and is not deleted */
    live: boolean;
    webhookEnabled: boolean;
    webhookUrl: string | null;
    webhookSecretEncrypted: string | null;
  };
}

/** The outcome of one claimed delivery, as recorded. */
export interface TAttemptRecord {
  deliveryId: string;
  leaseUntil: Date;
  /**
   * the attempt made (its row id chosen once, so that recording the batch again after a lost
   * reply writes it once); absent when the delivery was abandoned without a request
   */
  attempt?: { id: string; number: number; trigger: TDeliveryTrigger; result: TAttemptResult };
  status: "pending" | "succeeded" | "dead";
  lastError: string | null;
  /** where the attempt went; null leaves the delivery's URL as it was */
  url: string | null;
  nextAttemptAt: Date | null;
  /** the trigger of the attempt queued for nextAttemptAt (a retry), or null */
  queuedTrigger: TDeliveryTrigger | null;
}

/** A claimed batch, and when the next queued delivery not yet due falls due (if any). */
export interface TClaimedBatch {
  deliveries: TClaimedDelivery[];
  nextDueAt: Date | null;
}

/** A column a `claimed` row always has. */
function present<T>(value: T | null, name: string): T {
  if (value === null) throw new Error(`webhooks_record_and_claim: a claimed row without ${name}`);
  return value;
}

function claimedOf(row: TDispatchRow): Omit<TClaimedDelivery, "leaseUntil"> {
  return {
    id: present(row.id, "id"),
    appId: present(row.appId, "app_id"),
    eventType: present(row.eventType, "event_type"),
    body: present(row.body, "body"),
    attemptCount: present(row.attemptCount, "attempt_count"),
    delivered: present(row.delivered, "delivered"),
    trigger: parseTrigger(present(row.trigger, "trigger")),
    automaticAttempts: present(row.automaticAttempts, "automatic_attempts"),
    app: {
      live: present(row.appLive, "app_live"),
      webhookEnabled: present(row.webhookEnabled, "webhook_enabled"),
      webhookUrl: row.webhookUrl,
      webhookSecretEncrypted: row.webhookSecretEncrypted,
    },
  };
}

function recordRow(r: TAttemptRecord) {
  const a = r.attempt;
  return {
    delivery_id: r.deliveryId,
    lease_until: r.leaseUntil.toISOString(),
    attempt_id: a?.id ?? null,
    attempt_number: a?.number ?? null,
    trigger: a?.trigger ?? null,
    started_at: a?.result.startedAt.toISOString() ?? null,
    duration_ms: a?.result.durationMs ?? null,
    response_status: a?.result.responseStatus ?? null,
    error: a?.result.error ?? null,
    success: a?.result.success ?? false,
    request_headers: a?.result.requestHeaders ?? null,
    response_headers: a?.result.responseHeaders ?? null,
    response_body: a?.result.responseBody ?? null,
    response_body_truncated: a?.result.responseBodyTruncated ?? false,
    status: r.status,
    last_error: r.lastError,
    url: r.url,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    queued_trigger: r.queuedTrigger,
  };
}

/**
 * Records `records` and claims up to `limit` due deliveries, in one statement on the client `db`
 * (kysely(), or the dispatcher's own; not a transaction). `written`: the deliveries whose state
 * was written (the others had lost their lease: attempt logged only).
 */
export async function recordAndClaim(
  db: Db,
  records: readonly TAttemptRecord[],
  limit: number,
  now = new Date(),
): Promise<{ written: Set<string>; claimed: TClaimedBatch }> {
  const leaseUntil = new Date(now.getTime() + leaseSeconds() * 1000);
  const input = JSON.stringify(records.map(recordRow));
  const rows = await recordAndClaimRows(db, { input, now, leaseUntil, limit });
  const written = new Set<string>();
  const claimed: TClaimedBatch = { deliveries: [], nextDueAt: null };
  for (const row of rows) {
    if (row.kind === "recorded") written.add(present(row.id, "id"));
    else if (row.kind === "claimed") claimed.deliveries.push({ ...claimedOf(row), leaseUntil });
    else claimed.nextDueAt = row.nextDueAt;
  }
  return { written, claimed };
}

/** Claims up to `limit` due deliveries for one attempt each (see the rules). */
export async function claimDueDeliveries(db: Db, limit: number, now = new Date()): Promise<TClaimedBatch> {
  return (await recordAndClaim(db, [], limit, now)).claimed;
}

/** Records a batch of outcomes (see the rules); the deliveries whose state was written. */
export async function recordAttempts(
  db: Db,
  records: readonly TAttemptRecord[],
  now = new Date(),
): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  return (await recordAndClaim(db, records, 0, now)).written;
}

/**
 * Queues the next attempt of a delivery now (manual redelivery, sweeper).
 * Call in the transaction of the change it follows from: the dispatchers wake at its commit.
 */
export async function queueDeliveryAttempt(
  db: Db,
  deliveryId: string | readonly string[],
  trigger: TDeliveryTrigger,
  now = new Date(),
): Promise<number> {
  const ids = typeof deliveryId === "string" ? [deliveryId] : [...deliveryId];
  if (ids.length === 0) return 0;
  return queuePendingAttempts(db, ids, trigger, now);
}
