/** Request bodies of the Apps API. Unknown fields are rejected everywhere. */
import { z } from "zod";
import { paginationFields } from "../http/pagination";
import { OIDC_PROFILES, TOKEN_ENDPOINT_AUTH_METHODS } from "../oidc/profile";
import { EVENT_TYPES } from "../webhooks/event-types";

export const ZAppName = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters");

export const ZCreateApp = z.strictObject({ name: ZAppName.optional() }).optional();
export type TCreateApp = z.infer<typeof ZCreateApp>;

export const ZBatchCreateApps = z.strictObject({
  apps: z
    .array(z.strictObject({ name: ZAppName.optional() }), { error: "must be an array of apps" })
    .min(1, "must contain at least 1 app")
    .max(50, "must contain at most 50 apps"),
});
export type TBatchCreateApps = z.infer<typeof ZBatchCreateApps>;

export const ZWebhookConfigPatch = z.strictObject({
  url: z
    .string({ error: "must be a string" })
    .max(2048, "must be at most 2048 characters")
    .nullable()
    .optional(),
  enabled: z.boolean({ error: "must be a boolean" }).optional(),
  retryAttempts: z.number({ error: "must be a number" }).int("must be an integer").min(0).max(10).optional(),
  timeoutSeconds: z.number({ error: "must be a number" }).int("must be an integer").min(1).max(30).optional(),
  events: z
    .array(z.enum(EVENT_TYPES, { error: `must be one of: ${EVENT_TYPES.join(", ")}` }), {
      error: "must be an array",
    })
    .max(EVENT_TYPES.length)
    .optional(),
  // read-only: present here only so that the error names the field and the reason
  secret: z.unknown().optional(),
});
export type TWebhookConfigPatch = z.infer<typeof ZWebhookConfigPatch>;

const ZOptionalUri = z.string({ error: "must be a string" }).nullable().optional();

/**
 * A client's JWK Set as the body carries it: its shape only; every key is checked by
 * lib/apps/client-keys-check.ts (kty, curve, size, no private members, importable).
 */
export const ZJwkSetInput = z.looseObject(
  {
    keys: z.array(z.record(z.string(), z.unknown(), { error: "must be a JWK object" }), {
      error: "must be an array of JWKs",
    }),
  },
  { error: 'must be a JWK Set: an object { "keys": [ … ] }' },
);

export const ZUpdateApp = z.strictObject({
  name: ZAppName.optional(),
  logo: z.string({ error: "must be a string" }).nullable().optional(),
  redirectUris: z
    .array(z.string({ error: "must be a string" }), { error: "must be an array of strings" })
    .optional(),
  webhookConfig: ZWebhookConfigPatch.optional(),
  defaultSuccessRedirectUri: ZOptionalUri,
  defaultFailureRedirectUri: ZOptionalUri,
  pkceRequired: z.boolean({ error: "must be a boolean" }).optional(),
  tokenEndpointAuthMethod: z
    .enum(TOKEN_ENDPOINT_AUTH_METHODS, { error: `must be one of: ${TOKEN_ENDPOINT_AUTH_METHODS.join(", ")}` })
    .optional(),
  jwks: ZJwkSetInput.nullable().optional(),
  jwksUri: z.string({ error: "must be a string" }).nullable().optional(),
  requirePushedAuthorizationRequests: z.boolean({ error: "must be a boolean" }).optional(),
  requireDpop: z.boolean({ error: "must be a boolean" }).optional(),
  oidcProfile: z.enum(OIDC_PROFILES, { error: `must be one of: ${OIDC_PROFILES.join(", ")}` }).optional(),
  // immutable: accepted by the parser only to be refused with VALIDATION_INVALID_PARAMETER
  clientId: z.unknown().optional(),
  clientSecret: z.unknown().optional(),
});
export type TUpdateApp = z.infer<typeof ZUpdateApp>;

export const ZListAppsQuery = z.object({
  ...paginationFields(20),
  search: z
    .string({ error: "must be a string" })
    .trim()
    .max(100, "must be at most 100 characters")
    .optional()
    .describe("Case-insensitive part of the app name, or an exact clientId"),
});
