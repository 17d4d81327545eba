/**
 * The webhook delivery log of an app, manual redelivery and test events (Workspace API).
 * Rules:
 * - callers load the app with getOwnedApp first (403 another workspace's app, 404 unknown,
 *   deleted or other-environment app); a delivery id of another app is 404;
 * - the log is newest first and shows every attempt; the detail adds the exact body sent and,
 *   per attempt, the request headers and the receiver's answer (headers, start of the body);
 * - redelivery is for finished deliveries only (dead or succeeded): it queues one manual attempt
 *   at once, never retried; if it fails the delivery returns to its previous status (dispatch/attempt.ts);
 *   a pending delivery already has its next attempt queued and is refused;
 * - redelivery and test events need a webhook URL, but not an enabled webhook or a
 *   subscription: the integrator asked for them explicitly;
 * - both are audited in the same transaction as the queued job.
 */
import type { WorkspaceActor } from "../../auth/actor";
import { recordAudit, workspaceAudit } from "../../audit";
import type { Db } from "../../db/client";
import type { App } from "../../db/rows";
import { invalidField, notFound } from "../../errors";
import { page, type TPage } from "../../http/pagination";
import { newId } from "../../ids";
import { memberParser } from "../../state-machine";
import {
  DELIVERY_STATUSES,
  DELIVERY_TRIGGERS,
  type TDeliveryAttemptDetailJson,
  type TDeliveryDetailJson,
  type TDeliveryJson,
  type TListDeliveriesQuery,
} from "./endpoints";
import { queueDeliveryAttempt, TEST_EVENT_TYPE } from "../dispatch/attempt";
import { queueDelivery } from "../events";
import {
  countDeliveries,
  listDeliveryRows,
  readDeliveryRow,
  reopenFinishedDelivery,
  type TAttemptSummaryRow,
  type TDeliveryRow,
} from "../store/log";

/** `webhook_deliveries.status` as read from its row. */
export const parseDeliveryStatus = memberParser(DELIVERY_STATUSES, "webhook_deliveries.status");
export const parseDeliveryTrigger = memberParser(DELIVERY_TRIGGERS, "webhook_delivery_attempts.trigger");

function parseBody(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // bodies are always written by JSON.stringify; an unreadable one shows as empty
  }
  return {};
}

export function toDeliveryJson(d: TDeliveryRow<TAttemptSummaryRow>): TDeliveryJson {
  // test deliveries have no stored event; their id is the one inside the body
  const bodyEventId = d.eventId === null ? parseBody(d.body).eventId : undefined;
  return {
    deliveryId: d.id,
    eventId: d.eventId ?? (typeof bodyEventId === "string" ? bodyEventId : null),
    eventType: d.eventType,
    url: d.url,
    status: parseDeliveryStatus(d.status),
    attemptCount: d.attemptCount,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    nextAttemptAt: d.status === "pending" && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    attempts: d.attempts.map((a) => ({
      attemptNumber: a.attemptNumber,
      trigger: parseDeliveryTrigger(a.trigger),
      startedAt: a.startedAt.toISOString(),
      durationMs: a.durationMs,
      responseStatus: a.responseStatus,
      error: a.error,
      success: a.success,
    })),
  };
}

/** A stored header map (JSON written by dispatch/attempt.ts), or null. */
function headerMap(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

export function toDeliveryDetailJson(d: TDeliveryRow): TDeliveryDetailJson {
  const summary = toDeliveryJson(d);
  const attempts: TDeliveryAttemptDetailJson[] = summary.attempts.map((a, i) => {
    const row = d.attempts[i]!;
    return {
      ...a,
      requestHeaders: headerMap(row.requestHeaders),
      responseHeaders: headerMap(row.responseHeaders),
      responseBody: row.responseBody,
      responseBodyTruncated: row.responseBodyTruncated,
    };
  });
  return { ...summary, attempts, body: d.body, payload: parseBody(d.body) };
}

export async function listDeliveries(
  db: Db,
  app: Pick<App, "id">,
  query: TListDeliveriesQuery,
): Promise<TPage<TDeliveryJson>> {
  const filter = {
    appId: app.id,
    ...(query.status ? { status: query.status } : {}),
    ...(query.eventType ? { eventType: query.eventType } : {}),
  };
  const [rows, total] = await Promise.all([
    listDeliveryRows(db, filter, { limit: query.limit, offset: query.offset }),
    countDeliveries(db, filter),
  ]);
  return page(rows.map(toDeliveryJson), total, query.limit, query.offset);
}

async function findDelivery(db: Db, app: Pick<App, "id">, deliveryId: string): Promise<TDeliveryRow> {
  const delivery = await readDeliveryRow(db, app.id, deliveryId);
  if (!delivery) throw notFound(`Webhook delivery "${deliveryId}"`);
  return delivery;
}

export async function getDelivery(
  db: Db,
  app: Pick<App, "id">,
  deliveryId: string,
): Promise<TDeliveryDetailJson> {
  return toDeliveryDetailJson(await findDelivery(db, app, deliveryId));
}

function requireUrl(app: Pick<App, "webhookUrl">): string {
  if (!app.webhookUrl)
    throw invalidField(
      "url",
      "no webhook URL is configured; set one with PATCH /v1/apps/{client_id}/webhook-config",
    );
  return app.webhookUrl;
}

export async function redeliverDelivery(
  db: Db,
  actor: WorkspaceActor,
  app: Pick<App, "id" | "webhookUrl">,
  deliveryId: string,
): Promise<TDeliveryDetailJson> {
  const delivery = await findDelivery(db, app, deliveryId);
  requireUrl(app);
  const now = new Date();
  // conditional: of two concurrent redeliveries only one finds the delivery finished
  if (!(await reopenFinishedDelivery(db, delivery.id, now)))
    throw invalidField(
      "delivery_id",
      "is still pending: its next attempt is already queued; redeliver once it has succeeded or is dead",
      "WEBHOOK_DELIVERY_PENDING",
    );
  await queueDeliveryAttempt(db, delivery.id, "manual");
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "webhook_delivery.redelivered",
    targetType: "webhook_delivery",
    targetId: delivery.id,
    data: { appId: app.id, eventType: delivery.eventType, previousStatus: delivery.status },
  });
  return getDelivery(db, app, delivery.id);
}

/** The body of a test event: the usual envelope, with a message as its data. */
export function buildTestEventPayload(clientId: string, at = new Date()) {
  return {
    event: TEST_EVENT_TYPE,
    eventId: newId("evt"),
    timestamp: at.toISOString(),
    apiVersion: "v1" as const,
    clientId,
    data: {
      message:
        "Test event sent with POST /v1/apps/{client_id}/webhook-config/test. Verify its signature and answer with a 2xx status.",
    },
  };
}

export async function sendTestEvent(
  db: Db,
  actor: WorkspaceActor,
  app: Pick<App, "id" | "webhookUrl">,
): Promise<TDeliveryDetailJson> {
  const url = requireUrl(app);
  const payload = buildTestEventPayload(app.id);
  const deliveryId = await queueDelivery(db, {
    appId: app.id,
    eventId: null,
    eventType: TEST_EVENT_TYPE,
    url,
    body: JSON.stringify(payload),
  });
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "webhook_config.test_sent",
    targetType: "app",
    targetId: app.id,
    data: { deliveryId, eventId: payload.eventId },
  });
  return getDelivery(db, app, deliveryId);
}
