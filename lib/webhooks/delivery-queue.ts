/**
 * The queue of webhook attempts is the `webhook_deliveries` table itself: a delivery is queued
 * when `queued_trigger` holds the trigger of its next attempt, due at `next_attempt_at`.
 * Rules:
 * - a new delivery is queued for its first automatic attempt by the column's default, in the
 *   statement (and transaction) that inserts it: no job of its own;
 * - queueing a delivery (insert, or `queueDeliveryAttempt`) wakes the dispatchers of every
 *   instance when its transaction commits: a database trigger sends NOTIFY idv_webhook_queue;
 * - `claimDueDeliveries` takes a batch in one statement: due, queued, pending, no live lease,
 *   not waiting for an earlier event of its session (delivery-order.ts), oldest first, rows
 *   another claim holds skipped (FOR UPDATE SKIP LOCKED); it sets the lease and takes the
 *   delivery off the queue, so of two concurrent claims — two instances — only one gets a row;
 * - `recordAttempts` writes a batch of outcomes in one statement: the attempt rows (kept even
 *   when the lease was lost, as before), and each delivery's new state only while its lease is
 *   still the one its claim set; `recordAndClaim` does both in one statement (the dispatcher);
 * - a delivery whose sender died keeps its lease until it expires, then the sweeper re-queues it
 *   (delivery-sweep.ts): delivery is at-least-once.
 */
import type { Tx } from "../db/client";
import { column, defineStatement, queryAll, type TRow } from "../db/sql";
import { memberParser } from "../state-machine";
import type { TAttemptResult } from "./delivery-request";
import { waitsForEarlierSql } from "./delivery-order";

/** The channel the database trigger notifies when a delivery is queued (migration 20261127010000). */
export const QUEUE_CHANNEL = "idv_webhook_queue";

/** Longer than the longest attempt (timeout ≤ 20 s) plus the bookkeeping around it. */
export const LEASE_SECONDS = 30;

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

type TDispatchRow =
  | { kind: "recorded"; id: string }
  | { kind: "claimed"; delivery: Omit<TClaimedDelivery, "leaseUntil"> }
  | { kind: "next"; nextDueAt: Date | null };

/**
 * One statement records a batch of outcomes and claims the next batch ($4 rows; 0 claims none,
 * an empty $1 records none). The claim sees the table as it was before the statement, so the
 * deliveries this statement records count as finished for the order of their sessions (the
 * `recorded` ids): the next event of a session goes in the same round trip.
 */
const DISPATCH = defineStatement<[string, Date, Date, number], TDispatchRow>({
  name: "webhooks_record_and_claim",
  text: `WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(
      delivery_id text, lease_until text, attempt_id text, attempt_number int, trigger text,
      started_at text, duration_ms int, response_status int, error text, success boolean,
      request_headers jsonb, response_headers jsonb, response_body text, response_body_truncated boolean,
      status text, last_error text, url text, next_attempt_at text, queued_trigger text)
  ),
  attempts AS (
    INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt_number, trigger, started_at,
      duration_ms, response_status, error, success, request_headers, response_headers, response_body,
      response_body_truncated)
    SELECT i.attempt_id, i.delivery_id, i.attempt_number, i.trigger, i.started_at::timestamp,
           i.duration_ms, i.response_status, i.error, i.success, i.request_headers, i.response_headers,
           i.response_body, i.response_body_truncated
      FROM input i
     WHERE i.attempt_id IS NOT NULL
       AND EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.id = i.delivery_id)
    ON CONFLICT (id) DO NOTHING
  ),
  recorded AS (
    UPDATE webhook_deliveries d
       SET status = i.status,
           attempt_count = COALESCE(i.attempt_number, d.attempt_count),
           last_status = CASE WHEN i.attempt_id IS NULL THEN d.last_status ELSE i.response_status END,
           last_error = i.last_error,
           url = COALESCE(i.url, d.url),
           next_attempt_at = i.next_attempt_at::timestamp,
           lease_until = NULL,
           queued_trigger = i.queued_trigger,
           delivered_at = CASE WHEN i.success THEN i.started_at::timestamp ELSE d.delivered_at END,
           updated_at = $2::timestamp
      FROM input i
     WHERE d.id = i.delivery_id AND d.lease_until = i.lease_until::timestamp
    RETURNING d.id
  ),
  due AS (
    SELECT d.id, d.queued_trigger
      FROM webhook_deliveries d
     WHERE d.queued_trigger IS NOT NULL
       AND d.next_attempt_at <= $2::timestamp
       AND d.status = 'pending'
       AND (d.lease_until IS NULL OR d.lease_until < $2::timestamp)
       AND NOT ${waitsForEarlierSql("d", "recorded")}
     ORDER BY d.next_attempt_at
     LIMIT $4
     FOR UPDATE OF d SKIP LOCKED
  ),
  claimed AS (
    UPDATE webhook_deliveries d
       SET lease_until = $3::timestamp, queued_trigger = NULL, updated_at = $2::timestamp
      FROM due
     WHERE d.id = due.id
    RETURNING d.id, d.app_id, d.event_type, d.body, d.attempt_count, d.delivered_at IS NOT NULL AS delivered,
              due.queued_trigger AS trigger
  )
  SELECT 'recorded' AS kind, r.id, NULL::text AS app_id, NULL::text AS event_type, NULL::text AS body,
         NULL::int AS attempt_count, NULL::boolean AS delivered, NULL::text AS trigger,
         NULL::int AS automatic_attempts, NULL::boolean AS app_live, NULL::boolean AS webhook_enabled,
         NULL::text AS webhook_url, NULL::text AS webhook_secret_encrypted, NULL::text AS next_due_at
    FROM recorded r
  UNION ALL
  SELECT 'claimed', c.id, c.app_id, c.event_type, c.body, c.attempt_count, c.delivered, c.trigger,
         CASE WHEN c.attempt_count = 0 THEN 0 ELSE (
           SELECT count(*)::int FROM webhook_delivery_attempts t
            WHERE t.delivery_id = c.id AND t.trigger = 'automatic') END,
         (a.id IS NOT NULL AND a.deleted_at IS NULL), COALESCE(a.webhook_enabled, false),
         a.webhook_url, a.webhook_secret_encrypted, NULL
    FROM claimed c LEFT JOIN apps a ON a.id = c.app_id
  UNION ALL
  SELECT 'next', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
         (SELECT min(q.next_attempt_at)::text FROM webhook_deliveries q
           WHERE q.queued_trigger IS NOT NULL AND q.next_attempt_at > $2::timestamp)`,
  parse: (row: TRow): TDispatchRow => {
    const kind = column.text(row, "kind");
    if (kind === "recorded") return { kind, id: column.text(row, "id") };
    if (kind === "next") return { kind, nextDueAt: column.timestampOrNull(row, "next_due_at") };
    return {
      kind: "claimed",
      delivery: {
        id: column.text(row, "id"),
        appId: column.text(row, "app_id"),
        eventType: column.text(row, "event_type"),
        body: column.text(row, "body"),
        attemptCount: column.int(row, "attempt_count"),
        delivered: column.boolean(row, "delivered"),
        trigger: parseTrigger(column.text(row, "trigger")),
        automaticAttempts: column.int(row, "automatic_attempts"),
        app: {
          live: column.boolean(row, "app_live"),
          webhookEnabled: column.boolean(row, "webhook_enabled"),
          webhookUrl: column.textOrNull(row, "webhook_url"),
          webhookSecretEncrypted: column.textOrNull(row, "webhook_secret_encrypted"),
        },
      },
    };
  },
});

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
 * (getDb(), or the dispatcher's own; not a transaction). `written`: the deliveries whose state
 * was written (the others had lost their lease: attempt logged only).
 */
export async function recordAndClaim(
  db: Tx,
  records: readonly TAttemptRecord[],
  limit: number,
  now = new Date(),
): Promise<{ written: Set<string>; claimed: TClaimedBatch }> {
  const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000);
  const input = JSON.stringify(records.map(recordRow));
  const rows = await queryAll(db, DISPATCH, [input, now, leaseUntil, limit]);
  const written = new Set<string>();
  const claimed: TClaimedBatch = { deliveries: [], nextDueAt: null };
  for (const row of rows) {
    if (row.kind === "recorded") written.add(row.id);
    else if (row.kind === "claimed") claimed.deliveries.push({ ...row.delivery, leaseUntil });
    else claimed.nextDueAt = row.nextDueAt;
  }
  return { written, claimed };
}

/** Claims up to `limit` due deliveries for one attempt each (see the rules). */
export async function claimDueDeliveries(db: Tx, limit: number, now = new Date()): Promise<TClaimedBatch> {
  return (await recordAndClaim(db, [], limit, now)).claimed;
}

/** Records a batch of outcomes (see the rules); the deliveries whose state was written. */
export async function recordAttempts(
  db: Tx,
  records: readonly TAttemptRecord[],
  now = new Date(),
): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  return (await recordAndClaim(db, records, 0, now)).written;
}

/**
 * Queues the next attempt of a delivery now (manual redelivery, sweeper, the webhook_deliver job).
 * Call in the transaction of the change it follows from: the dispatchers wake at its commit.
 */
export async function queueDeliveryAttempt(
  db: Tx,
  deliveryId: string | readonly string[],
  trigger: TDeliveryTrigger,
  now = new Date(),
): Promise<number> {
  const ids = typeof deliveryId === "string" ? [deliveryId] : [...deliveryId];
  if (ids.length === 0) return 0;
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: { in: ids }, status: "pending" },
    data: { queuedTrigger: trigger, nextAttemptAt: now },
  });
  return count;
}
