/**
 * Verification events (spec, Events): each state change writes its event in the same
 * transaction, as the exact webhook body, and — when the app's webhook is enabled, has a URL and
 * subscribes to the type — a delivery row plus its queue job. Nothing is sent from inside the
 * transaction; a crash either loses the whole change or keeps the event and its delivery.
 */
import type { Tx } from "../db/client";
import type { App, Verification } from "../db/generated/client";
import { newId } from "../ids";
import { deliverWebhookJob } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";
import type { TEventType } from "./event-types";

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

export function buildEventPayload(
  verification: Verification,
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

/**
 * Records `type` for `verification` (its row as it is after the state change) and queues its
 * delivery to the app's webhook when subscribed. Call inside the state change's transaction.
 */
/** The app's webhook settings, when the caller already has them (saves a query per event). */
export type TWebhookTarget = Pick<App, "webhookEnabled" | "webhookUrl" | "webhookEvents" | "deletedAt">;

export async function emitVerificationEvent(
  db: Tx,
  verification: Verification,
  type: TEventType,
  options: {
    metadata?: Record<string, unknown>;
    result?: TEventPayload["data"]["result"];
    app?: TWebhookTarget;
  } = {},
): Promise<TEventPayload> {
  const payload = buildEventPayload(verification, type, options);
  await db.verificationEvent.create({
    data: {
      id: payload.eventId,
      verificationId: verification.id,
      appId: verification.appId,
      type,
      payload: payload as object,
    },
  });
  const app =
    options.app ??
    (await db.app.findUnique({
      where: { id: verification.appId },
      select: { webhookEnabled: true, webhookUrl: true, webhookEvents: true, deletedAt: true },
    }));
  if (app && !app.deletedAt && app.webhookEnabled && app.webhookUrl && app.webhookEvents.includes(type)) {
    await queueDelivery(db, {
      appId: verification.appId,
      eventId: payload.eventId,
      eventType: type,
      url: app.webhookUrl,
      body: JSON.stringify(payload),
    });
  }
  return payload;
}

/** Creates a delivery and its job (also used for test events). */
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
  await enqueue(db, deliverWebhookJob, { deliveryId: id });
  return id;
}
