/** Endpoint definitions of the workspace and apps resources (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { pageOf } from "../http/pagination";
import { ZWorkflowJson } from "../workflows/json";
import { EVENT_TYPES } from "../webhooks/event-types";
import { ZAppName, ZBatchCreateApps, ZCreateApp, ZListAppsQuery, ZUpdateApp } from "./schema";

const iso = z.string().describe("ISO 8601 date-time");

export const ZWebhookConfigJson = z.object({
  url: z.string().nullable(),
  enabled: z.boolean(),
  retryAttempts: z.number().int(),
  timeoutSeconds: z.number().int(),
  events: z.array(z.enum(EVENT_TYPES)),
  secret: z.string().optional().describe("whsec_…; only in GET /webhook-config, once the secret was rotated"),
});

export const ZAppJson = z.object({
  clientId: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
  redirectUris: z.array(z.string()),
  providers: z.record(z.string(), z.object({ enabled: z.boolean() })),
  defaultWorkflowId: z.string().nullable(),
  workflows: z.array(ZWorkflowJson),
  organizationId: z.string(),
  environment: z.enum(["sandbox", "production"]),
  webhookConfig: ZWebhookConfigJson,
  defaultSuccessRedirectUri: z.string().nullable(),
  defaultFailureRedirectUri: z.string().nullable(),
  pkceRequired: z
    .boolean()
    .describe(
      "OpenID Provider: /auth refuses authorization requests without a PKCE code_challenge (S256) with invalid_request. On for apps created since it exists; older apps keep it off until changed",
    ),
  createdAt: iso,
  updatedAt: iso,
});

export const ZAppWithSecretJson = ZAppJson.extend({
  clientSecret: z.string().describe("Shown only in this response"),
});

export const ZWorkspaceJson = z.object({
  workspaceId: z.string(),
  organizationId: z.string(),
  name: z.string(),
  environment: z.enum(["sandbox", "production"]),
  appCount: z.number().int(),
  createdAt: iso,
});

export const getWorkspace = endpoint({
  method: "GET",
  path: "/v1/workspace",
  operationId: "getWorkspace",
  summary: "Get the workspace",
  description: "The workspace of the API key, with the number of apps in the key's environment.",
  tag: "Workspace",
  auth: "workspace",
  responses: { 200: { description: "The workspace", schema: ZWorkspaceJson } },
});

export const ZUpdateWorkspace = z.strictObject({ name: ZAppName });

export const updateWorkspace = endpoint({
  method: "PATCH",
  path: "/v1/workspace",
  operationId: "updateWorkspace",
  summary: "Rename the workspace",
  description: "Permission `team` (owner, admin, API keys). The name is shown in the console.",
  tag: "Workspace",
  auth: "workspace",
  permission: "team",
  body: ZUpdateWorkspace,
  responses: { 200: { description: "The workspace", schema: ZWorkspaceJson } },
});

export const listApps = endpoint({
  method: "GET",
  path: "/v1/apps",
  operationId: "listApps",
  summary: "List apps",
  description: "Newest first. `limit` 1–100 (default 20), `offset` ≥ 0 (default 0).",
  tag: "Apps",
  auth: "workspace",
  query: ZListAppsQuery,
  responses: {
    200: {
      description: "A page of apps",
      schema: pageOf(ZAppJson),
    },
  },
});

export const createApp = endpoint({
  method: "POST",
  path: "/v1/apps",
  operationId: "createApp",
  summary: "Create an app",
  description:
    "Creates an app with a starter workflow (provider `passport` enabled). The client secret is returned only here. Honours `Idempotency-Key`.",
  tag: "Apps",
  auth: "workspace",
  body: ZCreateApp,
  idempotent: true,
  responses: {
    201: {
      description: "The new app, with its client secret",
      schema: ZAppWithSecretJson,
      headers: { Location: "URI of the new app" },
    },
  },
  errors: [409],
});

export const batchCreateApps = endpoint({
  method: "POST",
  path: "/v1/apps/batch",
  operationId: "batchCreateApps",
  summary: "Create several apps",
  description: "1–50 apps, all or nothing. Honours `Idempotency-Key`.",
  tag: "Apps",
  auth: "workspace",
  body: ZBatchCreateApps,
  idempotent: true,
  responses: {
    201: {
      description: "The new apps, with their client secrets",
      schema: z.object({ data: z.array(ZAppWithSecretJson) }),
    },
  },
  errors: [409],
});

export const getApp = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}",
  operationId: "getApp",
  summary: "Get an app",
  tag: "Apps",
  auth: "workspace",
  responses: { 200: { description: "The app", schema: ZAppJson } },
});

export const updateApp = endpoint({
  method: "PATCH",
  path: "/v1/apps/{client_id}",
  operationId: "updateApp",
  summary: "Update an app",
  description:
    "All fields optional. `logo`: data:image/(png|jpeg|gif|webp);base64 URL, empty string removes. `redirectUris` replaces the list. `webhookConfig` is merged; its secret is read-only. `pkceRequired` (boolean): whether the OpenID Provider's /auth requires PKCE (S256) from this client. `clientId`/`clientSecret` are refused with VALIDATION_INVALID_PARAMETER.",
  tag: "Apps",
  auth: "workspace",
  body: ZUpdateApp,
  responses: { 200: { description: "The updated app", schema: ZAppJson } },
});

export const deleteApp = endpoint({
  method: "DELETE",
  path: "/v1/apps/{client_id}",
  operationId: "deleteApp",
  summary: "Delete an app",
  description: "The app and its credentials stop working at once.",
  tag: "Apps",
  auth: "workspace",
  permission: "credentials",
  responses: { 200: { description: "Deleted", schema: z.object({ deleted: z.boolean() }) } },
});

export const rotateClientSecret = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/rotate-client-secret",
  operationId: "rotateClientSecret",
  summary: "Rotate the client secret",
  description: "Returns a new client secret once; the old one stops working. Honours `Idempotency-Key`.",
  tag: "Apps",
  auth: "workspace",
  permission: "credentials",
  idempotent: true,
  responses: {
    200: {
      description: "The new secret",
      schema: z.object({ clientId: z.string(), clientSecret: z.string(), rotatedAt: iso }),
    },
  },
  errors: [409],
});
