/**
 * Verification events (spec, Events): each state change writes its event in the same
 * transaction, as the exact webhook body, and — when the app's webhook is enabled, has a URL and
 * subscribes to the type — a delivery row, which is its own queue entry (delivery-queue.ts). Nothing
 * is sent from inside the transaction; a crash either loses the whole change or keeps the event and
 * its delivery.
 * A batch of events (a session's creation events, an outcome's pair) with its deliveries is one
 * statement (`outboxCtes`), which a state change may embed in its own.
 */
import type { Tx } from "../db/client";
import type { Verification } from "../db/generated/client";
import { newId } from "../ids";
import { column, defineStatement, utcParam, type TSqlValue } from "../db/sql";
import { runStatement, type TSqlDb } from "../db/statement";
import type { TEventType } from "./event-types";
import { outboxWake, wakeAfterCommit } from "./wake";

export interface TEventPayload {
  event: TEventType;
  eventId: string;
  timestamp: string;
  apiVersion: "v1";
  clientId: string;
  data: {
    verificationId: string;
    status: string;
    providerId: string;
    workflowId: string;
    sessionExpiresAt: string;
    event: { type: TEventType; timestamp: string; metadata?: Record<string, unknown> };
    result?: { loa: string; amr: string[]; channel: { type: string; transport: string } };
    deviceType?: string;
    countryCode?: string;
    countryName?: string;
    createdAt: string;
    updatedAt: string;
  };
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

function countryName(code: string | null): string | undefined {
  if (!code) return undefined;
  try {
    return regionNames.of(code.toUpperCase());
  } catch {
    return undefined;
  }
}

/** What an event's payload tells of its session. */
export type TEventSource = Pick<
  Verification,
  | "id"
  | "appId"
  | "status"
  | "providerId"
  | "workflowId"
  | "expiresAt"
  | "deviceType"
  | "countryCode"
  | "createdAt"
  | "updatedAt"
>;

export function buildEventPayload(
  verification: TEventSource,
  type: TEventType,
  options: { metadata?: Record<string, unknown>; result?: TEventPayload["data"]["result"]; at?: Date } = {},
): TEventPayload {
  const at = (options.at ?? new Date()).toISOString();
  return {
    event: type,
    eventId: newId("evt"),
    timestamp: at,
    apiVersion: "v1",
    clientId: verification.appId,
    data: {
      verificationId: verification.id,
      status: verification.status,
      providerId: verification.providerId,
      workflowId: verification.workflowId,
      sessionExpiresAt: verification.expiresAt.toISOString(),
      event: { type, timestamp: at, ...(options.metadata ? { metadata: options.metadata } : {}) },
      ...(options.result ? { result: options.result } : {}),
      ...(verification.deviceType ? { deviceType: verification.deviceType } : {}),
      ...(verification.countryCode
        ? { countryCode: verification.countryCode, countryName: countryName(verification.countryCode) }
        : {}),
      createdAt: verification.createdAt.toISOString(),
      updatedAt: verification.updatedAt.toISOString(),
    },
  };
}

/** One event of a batch: its type and what its payload adds. */
export interface TEventSpec {
  type: TEventType;
  metadata?: Record<string, unknown>;
  result?: TEventPayload["data"]["result"];
  /** the session as this event saw it, when that was before the batch's last change */
  verification?: TEventSource;
}

/** How many parameters `outboxCtes` takes. */
export const OUTBOX_PARAMS = 8;

/**
 * The outbox of a batch of events as common table expressions of one statement, with its
 * parameters at $first … $first + OUTBOX_PARAMS - 1 (values from `outboxValues`): the events in
 * order (their `seq` follows the list) and a delivery for each one the app's webhook is enabled
 * and subscribed for, the app's settings read in the same statement. A new delivery row is
 * queued for its first attempt by its own column default, and its insert wakes the dispatchers
 * at commit (lib/webhooks/delivery-queue.ts; the dispatcher of this process directly where it
 * can, lib/webhooks/wake.ts): no job. An empty batch writes nothing.
 */
export function outboxCtes(first: number): string {
  const $ = (i: number) => `$${first + i}`;
  const stamp = utcParam(first + 2);
  return `outbox_events AS (
    SELECT e.id, e.type, e.body, e.delivery_id, e.ord
    FROM unnest(${$(3)}::text[], ${$(4)}::text[], ${$(5)}::text[], ${$(6)}::text[])
      WITH ORDINALITY AS e(id, type, body, delivery_id, ord)
  ),
  outbox_inserted_events AS (
    INSERT INTO verification_events (id, verification_id, app_id, type, payload, created_at)
    SELECT e.id, ${$(0)}::text, ${$(1)}::text, e.type, e.body::jsonb, ${stamp}
    FROM outbox_events e ORDER BY e.ord
    RETURNING id, seq
  ),
  outbox_webhook AS (
    SELECT a.webhook_url, a.webhook_events FROM apps a
    WHERE a.id = ${$(1)}::text AND a.deleted_at IS NULL AND a.webhook_enabled AND a.webhook_url IS NOT NULL
  ),
  outbox_wake AS (
    SELECT set_config('idv.webhook_wake', ${$(7)}::text, true) AS mode
  ),
  outbox_deliveries AS (
    INSERT INTO webhook_deliveries (id, app_id, event_id, verification_id, event_seq, event_type, url, body,
      next_attempt_at, created_at, updated_at)
    SELECT e.delivery_id, ${$(1)}::text, e.id, ${$(0)}::text, ie.seq, e.type, w.webhook_url, e.body,
      ${stamp}, ${stamp}, ${stamp}
    FROM outbox_events e JOIN outbox_inserted_events ie ON ie.id = e.id
      CROSS JOIN outbox_webhook w CROSS JOIN outbox_wake
    WHERE e.type = ANY (w.webhook_events) ORDER BY e.ord
    RETURNING id
  )`;
}

/**
 * The values of `outboxCtes`' parameters for `events` of `verification`, to run on `db`, and their
 * payloads; `ran()` once the statement has run (it wakes this process's dispatcher when the change
 * is committed, lib/webhooks/wake.ts).
 */
export function outboxValues(
  verification: TEventSource,
  events: readonly TEventSpec[],
  at: Date,
  db: TSqlDb,
): { values: TSqlValue[]; payloads: TEventPayload[]; ran: () => void } {
  const wake = outboxWake(db);
  const payloads = events.map((e) =>
    buildEventPayload(e.verification ?? verification, e.type, {
      at,
      ...(e.metadata ? { metadata: e.metadata } : {}),
      ...(e.result ? { result: e.result } : {}),
    }),
  );
  const values: TSqlValue[] = [
    verification.id,
    verification.appId,
    at,
    payloads.map((p) => p.eventId),
    payloads.map((p) => p.event),
    payloads.map((p) => JSON.stringify(p)),
    payloads.map(() => newId("dlv")),
    wake,
  ];
  return { values, payloads, ran: () => wakeAfterCommit(db, wake) };
}

const EMIT_EVENTS = defineStatement<TSqlValue[], number>({
  name: "webhooks_emit_events",
  text: `WITH ${outboxCtes(1)}
  SELECT count(*)::int AS deliveries FROM outbox_deliveries`,
  parse: (row) => column.int(row, "deliveries"),
});

/**
 * Records `events` for `verification` (its row as it is after the state change; an event may
 * carry the row as it saw it), in this order, and queues their deliveries to the app's webhook
 * where subscribed: one statement. Call inside the state change's transaction.
 */
export async function emitVerificationEvents(
  db: TSqlDb,
  verification: TEventSource,
  events: readonly TEventSpec[],
): Promise<TEventPayload[]> {
  if (events.length === 0) return [];
  const { values, payloads, ran } = outboxValues(verification, events, new Date(), db);
  await runStatement(db, EMIT_EVENTS, values);
  ran();
  return payloads;
}

/**
 * Records `type` for `verification` (its row as it is after the state change) and queues its
 * delivery to the app's webhook when subscribed. Call inside the state change's transaction.
 */
export async function emitVerificationEvent(
  db: Tx,
  verification: TEventSource,
  type: TEventType,
  options: { metadata?: Record<string, unknown>; result?: TEventPayload["data"]["result"] } = {},
): Promise<TEventPayload> {
  const [payload] = await emitVerificationEvents(db, verification, [{ type, ...options }]);
  return payload!;
}

/**
 * Creates a delivery outside a verification's events (test events). The row queues itself for its
 * first automatic attempt (column default) and its insert wakes the dispatchers at commit
 * (delivery-queue.ts): no job.
 */
export async function queueDelivery(
  db: Tx,
  input: { appId: string; eventId: string | null; eventType: string; url: string; body: string },
): Promise<string> {
  const id = newId("dlv");
  await db.webhookDelivery.create({
    data: {
      id,
      appId: input.appId,
      eventId: input.eventId,
      eventType: input.eventType,
      url: input.url,
      body: input.body,
      nextAttemptAt: new Date(),
    },
  });
  return id;
}
