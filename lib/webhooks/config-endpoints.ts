/** Endpoint definitions of the webhook configuration resource (see lib/http/endpoint.ts). */
import { z } from "zod";
import { ZWebhookConfigJson } from "../apps/endpoints";
import { ZWebhookConfigPatch } from "../apps/schema";
import { endpoint } from "../http/endpoint";

/** The webhook-config resource: the app's configuration plus whether deliveries are signed. */
export const ZWebhookConfigResourceJson = ZWebhookConfigJson.extend({
  secret: z
    .string()
    .optional()
    .describe(
      "The whsec_… signing secret, once the secret was rotated; only when `secretReadable` (a credential: owners, admins and API keys; developers in the sandbox only)",
    ),
  signed: z
    .boolean()
    .describe("true once a signing secret exists: every delivery carries X-Service-Signature"),
  secretReadable: z
    .boolean()
    .describe(
      "Whether this caller may read and rotate the signing secret (permission `credentials` in this environment). When false, `secret` is left out even if `signed` is true.",
    ),
});

const CONFIG_FIELDS =
  '`url` (https in production, http or https in sandbox; absolute, no credentials, no fragment; `null` or `""` clears it), `enabled` (needs a url), `retryAttempts` (0–10) and `timeoutSeconds` (1–30) — stored, but delivery follows the deployment-wide schedule —, `events` (known event types; duplicates collapsed).';

export const getWebhookConfig = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/webhook-config",
  operationId: "getWebhookConfig",
  summary: "Get the webhook configuration",
  description:
    "The app's webhook configuration, for every role. `signed` says whether deliveries are signed: false until the secret has been rotated once. The signing secret is a credential: `secret` (the stored `whsec_…` secret) appears once it exists, and `secretReadable` is true, only for callers with permission `credentials` in this environment (owner, admin, workspace API keys; developer in the sandbox only). A viewer's session, or a developer's in production, reads the configuration without it.",
  tag: "Webhooks",
  auth: "workspace",
  responses: { 200: { description: "The webhook configuration", schema: ZWebhookConfigResourceJson } },
});

export const updateWebhookConfig = endpoint({
  method: "PATCH",
  path: "/v1/apps/{client_id}/webhook-config",
  operationId: "updateWebhookConfig",
  summary: "Update the webhook configuration",
  description: `All fields optional; omitted fields keep their value. ${CONFIG_FIELDS} \`secret\` cannot be set (400 VALIDATION_INVALID_PARAMETER): rotate it instead. Unknown fields are refused.`,
  tag: "Webhooks",
  auth: "workspace",
  body: ZWebhookConfigPatch,
  responses: {
    200: {
      description: "The updated configuration, in the same shape as GET",
      schema: ZWebhookConfigResourceJson,
    },
  },
});

export const rotateWebhookSecret = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/webhook-config/rotate-secret",
  operationId: "rotateWebhookSecret",
  summary: "Rotate the webhook signing secret",
  description:
    'Generates a new `whsec_…` signing secret, stores it encrypted and returns it. The first rotation turns signing on: from then on every delivery carries `X-Service-Signature: t=<unix-seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. Signatures made with the previous secret stop verifying at once. Empty body. Honours `Idempotency-Key`: a replay returns the same secret with `Idempotency-Replayed: true`. Permission `credentials` (owner, admin, API keys; developer in the sandbox only): 403 RESOURCE_FORBIDDEN otherwise.',
  tag: "Webhooks",
  auth: "workspace",
  permission: "credentials",
  idempotent: true,
  responses: {
    200: {
      description: "The new secret",
      schema: z.object({ secret: z.string().regex(/^whsec_[A-Za-z0-9]+$/) }),
    },
  },
  errors: [409],
});
