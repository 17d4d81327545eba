/**
 * Verification events (spec, Events): each state change writes its event in the same
 * transaction, as the exact webhook body, and — when the app's webhook is enabled, has a URL and
 * subscribes to the type — a delivery row, which is its own queue entry (dispatch/queue.ts). Nothing
 * is sent from inside the transaction; a crash either loses the whole change or keeps the event and
 * its delivery.
 * A batch of events (a session's creation events, an outcome's pair) with its deliveries is one
 * statement (store/outbox.ts `withOutbox`), which a state change may embed in its own
 * (lib/verifications/store).
 */
import type { Verification } from "../db/rows";
import type { Db } from "../db/kysely";
import { newId } from "../ids";
import type { TEventType } from "./event-types";
import { insertDelivery, insertEvents, type TOutboxParams } from "./store/outbox";
import { outboxWake, wakeAfterCommit } from "./dispatch/wake";

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

/**
 * The values of the outbox's parameters for `events` of `verification`, to run on `db`, and
 * their payloads; `ran()` once the statement has run (it wakes this process's dispatcher when the
 * change is committed, lib/webhooks/dispatch/wake.ts).
 */
export function outboxValues(
  verification: TEventSource,
  events: readonly TEventSpec[],
  at: Date,
  db: Db,
): { params: TOutboxParams; payloads: TEventPayload[]; ran: () => void } {
  const wake = outboxWake(db);
  const payloads = events.map((e) =>
    buildEventPayload(e.verification ?? verification, e.type, {
      at,
      ...(e.metadata ? { metadata: e.metadata } : {}),
      ...(e.result ? { result: e.result } : {}),
    }),
  );
  const params: TOutboxParams = {
    verificationId: verification.id,
    appId: verification.appId,
    at,
    eventIds: payloads.map((p) => p.eventId),
    eventTypes: payloads.map((p) => p.event),
    bodies: payloads.map((p) => JSON.stringify(p)),
    deliveryIds: payloads.map(() => newId("dlv")),
    wake,
  };
  return { params, payloads, ran: () => wakeAfterCommit(db, wake) };
}

/**
 * Records `events` for `verification` (its row as it is after the state change; an event may
 * carry the row as it saw it), in this order, and queues their deliveries to the app's webhook
 * where subscribed: one statement. Call inside the state change's transaction.
 */
export async function emitVerificationEvents(
  db: Db,
  verification: TEventSource,
  events: readonly TEventSpec[],
): Promise<TEventPayload[]> {
  if (events.length === 0) return [];
  const { params, payloads, ran } = outboxValues(verification, events, new Date(), db);
  await insertEvents(db, params);
  ran();
  return payloads;
}

/**
 * Records `type` for `verification` (its row as it is after the state change) and queues its
 * delivery to the app's webhook when subscribed. Call inside the state change's transaction.
 */
export async function emitVerificationEvent(
  db: Db,
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
 * (dispatch/queue.ts): no job.
 */
export async function queueDelivery(
  db: Db,
  input: { appId: string; eventId: string | null; eventType: string; url: string; body: string },
): Promise<string> {
  const id = newId("dlv");
  const now = new Date();
  await insertDelivery(db, {
    id,
    appId: input.appId,
    eventId: input.eventId,
    eventType: input.eventType,
    url: input.url,
    body: input.body,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}
