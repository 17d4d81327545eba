/** Endpoint definitions of the workspace API keys resource (see lib/http/endpoint.ts). */
import { z } from "zod";
import { ENVIRONMENTS } from "../environments";
import { endpoint } from "../http/endpoint";
import { pageOf, paginationFields } from "../http/pagination";

const iso = z.string().describe("ISO 8601 date-time");

export const ZApiKeyName = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters");

export const ZCreateApiKey = z.strictObject({ name: ZApiKeyName });
export const ZListApiKeysQuery = z.object({ ...paginationFields(100) });

export const ZApiKeyJson = z.object({
  keyId: z.string(),
  name: z.string(),
  environment: z.enum(ENVIRONMENTS),
  prefix: z.string().describe("The key's first characters (sk_workspace_test_AbCd), to recognise it"),
  createdAt: iso,
  lastUsedAt: iso.nullable().describe("Updated at most once a minute"),
  revokedAt: iso.nullable(),
  createdBy: z
    .object({ userId: z.string(), email: z.string() })
    .nullable()
    .describe("The console user who created it; null for keys made by the CLI or another API key"),
});
export type TApiKeyJson = z.infer<typeof ZApiKeyJson>;

export const ZCreatedApiKeyJson = ZApiKeyJson.extend({
  key: z.string().describe("The secret key. Shown only in this response: store it now"),
});
export type TCreatedApiKeyJson = z.infer<typeof ZCreatedApiKeyJson>;

export const listApiKeys = endpoint({
  method: "GET",
  path: "/v1/api-keys",
  operationId: "listApiKeys",
  summary: "List API keys",
  description:
    "The workspace's keys of this environment, revoked ones included, newest first. The secret itself is never shown again. `limit` 1–100 (default 100), `offset` ≥ 0.",
  tag: "API keys",
  auth: "workspace",
  query: ZListApiKeysQuery,
  responses: {
    200: {
      description: "A page of API keys",
      schema: pageOf(ZApiKeyJson),
    },
  },
});

export const createApiKey = endpoint({
  method: "POST",
  path: "/v1/api-keys",
  operationId: "createApiKey",
  summary: "Create an API key",
  description:
    "A key of this environment (sk_workspace_test_… in sandbox, sk_workspace_prod_… in production), acting as `admin` in it. The key is returned only in this response.",
  tag: "API keys",
  auth: "workspace",
  permission: "credentials",
  body: ZCreateApiKey,
  responses: { 201: { description: "The new key, with its secret", schema: ZCreatedApiKeyJson } },
  errors: [403],
});

export const revokeApiKey = endpoint({
  method: "DELETE",
  path: "/v1/api-keys/{key_id}",
  operationId: "revokeApiKey",
  summary: "Revoke an API key",
  description:
    "The key stops working at once (401 INVALID_API_KEY). Revoking twice is fine. Keys of another workspace or environment are 404.",
  tag: "API keys",
  auth: "workspace",
  permission: "credentials",
  responses: { 200: { description: "Revoked", schema: z.object({ revoked: z.literal(true) }) } },
  errors: [403],
});
