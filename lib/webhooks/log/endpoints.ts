/**
 * Endpoint definitions of the webhook delivery log, manual redelivery and test events (see
 * lib/http/endpoint.ts).
 */
import { z } from "zod";
import { endpoint } from "../../http/endpoint";
import { pageOf, paginationFields } from "../../http/pagination";

const iso = z.string().describe("ISO 8601 date-time");

/** A delivery's states (service.ts reads `webhook_deliveries.status` with them). */
export const DELIVERY_STATUSES = ["pending", "succeeded", "dead"] as const;

/** What made an attempt: the retry schedule, or POST …/redeliver. */
export const DELIVERY_TRIGGERS = ["automatic", "manual"] as const;

export const ZListDeliveriesQuery = z.object({
  ...paginationFields(20),
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of: ${DELIVERY_STATUSES.join(", ")}` }).optional(),
  eventType: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
});
export type TListDeliveriesQuery = z.infer<typeof ZListDeliveriesQuery>;

export const ZDeliveryAttemptJson = z.object({
  attemptNumber: z.number().int().min(1).describe("1 for the first attempt, counting manual ones"),
  trigger: z.enum(DELIVERY_TRIGGERS).describe("manual: made by POST …/redeliver"),
  startedAt: iso,
  durationMs: z.number().int().min(0),
  responseStatus: z
    .number()
    .int()
    .nullable()
    .describe("The receiver's HTTP status; null when no response came (refused, unreachable, timeout)"),
  error: z
    .string()
    .nullable()
    .describe(
      "Why the attempt failed, e.g. `receiver answered HTTP 503`, `connection refused`, `host not found or not allowed: …`; null on success. It never names the address a host name resolved to",
    ),
  success: z.boolean().describe("true for a 2xx response"),
});

export const ZDeliveryJson = z.object({
  deliveryId: z.string().describe("dlv_…"),
  eventId: z.string().nullable().describe("The event's evt_… id (also inside the body)"),
  eventType: z.string().describe("An event type of the spec, or webhook.test"),
  url: z.string().describe("Where the last attempt went (the app's URL at that time)"),
  status: z
    .enum(DELIVERY_STATUSES)
    .describe("pending: an attempt is queued or running; dead: no further attempt will be made"),
  attemptCount: z.number().int().min(0),
  lastStatus: z.number().int().nullable().describe("HTTP status of the last attempt"),
  lastError: z
    .string()
    .nullable()
    .describe(
      "Why the last attempt failed (or why the delivery was abandoned); null after a success. It never names the address a host name resolved to",
    ),
  nextAttemptAt: iso.nullable().describe("When the next attempt is due; null unless pending"),
  deliveredAt: iso.nullable().describe("Time of the last successful attempt"),
  createdAt: iso,
  updatedAt: iso,
  attempts: z.array(ZDeliveryAttemptJson).describe("Oldest first"),
});

const ZHeaders = z.record(z.string(), z.string());

export const ZDeliveryAttemptDetailJson = ZDeliveryAttemptJson.extend({
  requestHeaders: ZHeaders.nullable().describe(
    "The headers sent, X-Service-Signature included (an HMAC of this attempt's timestamp and the body, not the secret); null when no request was prepared (the secret could not be decrypted) or for attempts recorded before headers were kept",
  ),
  responseHeaders: ZHeaders.nullable().describe(
    "The receiver's response headers, names in lowercase, Set-Cookie left out; null when no response came",
  ),
  responseBody: z
    .string()
    .nullable()
    .describe(
      "The start of the receiver's response body as UTF-8 text (at most 4096 bytes); null when no response came",
    ),
  responseBodyTruncated: z.boolean().describe("true when the receiver sent more than `responseBody` holds"),
});

export const ZDeliveryDetailJson = ZDeliveryJson.extend({
  body: z.string().describe("The exact request body sent (the signed bytes)"),
  payload: z.record(z.string(), z.unknown()).describe("The body, parsed"),
  attempts: z
    .array(ZDeliveryAttemptDetailJson)
    .describe("Oldest first, each with the request headers sent and the receiver's answer"),
});

export type TDeliveryAttemptJson = z.infer<typeof ZDeliveryAttemptJson>;
export type TDeliveryAttemptDetailJson = z.infer<typeof ZDeliveryAttemptDetailJson>;
export type TDeliveryJson = z.infer<typeof ZDeliveryJson>;
export type TDeliveryDetailJson = z.infer<typeof ZDeliveryDetailJson>;

const DELIVERY_RULES =
  "Each event is attempted at once, then retried after each value of the deployment's retry schedule (default 1 s, 5 s, 30 s); an attempt succeeds on a 2xx response within 10 s, redirects are not followed, and after the last retry the delivery is `dead`. The events of one verification are sent in order: an event's first attempt waits until the previous event's first attempt has finished.";

export const listWebhookDeliveries = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/webhook-deliveries",
  operationId: "listWebhookDeliveries",
  summary: "List webhook deliveries",
  description: `The app's webhook deliveries, newest first, each with its event type and every attempt (status code, duration, error). ${DELIVERY_RULES} \`limit\` 1–100 (default 20), \`offset\` ≥ 0 (default 0); \`status\` (pending, succeeded, dead) and \`eventType\` filter the list.`,
  tag: "Webhooks",
  auth: "workspace",
  query: ZListDeliveriesQuery,
  responses: {
    200: {
      description: "A page of deliveries",
      schema: pageOf(ZDeliveryJson),
    },
  },
});

export const getWebhookDelivery = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/webhook-deliveries/{delivery_id}",
  operationId: "getWebhookDelivery",
  summary: "Get a webhook delivery",
  description:
    "One delivery with the exact body sent (`body`, the bytes the signature covers) and parsed (`payload`), and its attempts, each with the request headers sent (signature included) and the receiver's answer: status, headers and the first 4096 bytes of its body. A delivery of another app is 404.",
  tag: "Webhooks",
  auth: "workspace",
  responses: { 200: { description: "The delivery", schema: ZDeliveryDetailJson } },
});

export const redeliverWebhookDelivery = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/webhook-deliveries/{delivery_id}/redeliver",
  operationId: "redeliverWebhookDelivery",
  summary: "Redeliver a webhook",
  description:
    'Queues one manual attempt of a `dead` or `succeeded` delivery at once: the same body (same `eventId`, so receivers can dedupe), sent to the app\'s current URL and signed with its current secret. It is sent even while the webhook is disabled. It is exactly one attempt, logged with `trigger: "manual"`, never retried automatically; if it fails, the delivery returns to its previous status (a `succeeded` delivery stays `succeeded`, a `dead` one stays `dead`). A `pending` delivery is refused (409 WEBHOOK_DELIVERY_PENDING, `delivery_id`): its next attempt is already queued. Needs a configured URL (400, `url`). Empty body. Honours `Idempotency-Key`.',
  tag: "Webhooks",
  auth: "workspace",
  idempotent: true,
  responses: {
    202: { description: "The delivery, now pending, with its attempt queued", schema: ZDeliveryDetailJson },
  },
  errors: [409],
});

export const sendTestWebhook = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/webhook-config/test",
  operationId: "sendTestWebhook",
  summary: "Send a test event",
  description:
    'Queues a signed `webhook.test` event to the configured URL, whatever the subscribed events and even while the webhook is disabled, so a receiver can be checked before enabling it. Payload: the usual envelope — `{"event":"webhook.test","eventId":"evt_…","timestamp":"…","apiVersion":"v1","clientId":"…","data":{"message":"…"}}`. It is delivered (and retried) like any event and appears in the delivery log. Needs a URL (400 naming `url`). Empty body. Honours `Idempotency-Key`.',
  tag: "Webhooks",
  auth: "workspace",
  idempotent: true,
  responses: {
    202: { description: "The queued test delivery", schema: ZDeliveryDetailJson },
  },
  errors: [409],
});
