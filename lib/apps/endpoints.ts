/** Endpoint definitions of the workspace and apps resources (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { pageOf } from "../http/pagination";
import { OIDC_PROFILES, TOKEN_ENDPOINT_AUTH_METHODS } from "../oidc/profile";
import { ZWorkflowJson } from "../workflows/json";
import { EVENT_TYPES } from "../webhooks/event-types";
import { ZAppName, ZBatchCreateApps, ZCreateApp, ZListAppsQuery, ZUpdateApp } from "./schema";

const iso = z.string().describe("ISO 8601 date-time");

/** A public JWK as an app's JWK Set holds it (the members a key type needs; others kept as sent). */
const ZPublicJwkJson = z
  .looseObject({
    kty: z.enum(["EC", "RSA", "OKP"]),
    kid: z.string().optional(),
    use: z.literal("sig").optional(),
    alg: z.string().optional(),
    crv: z.string().optional().describe("EC: P-256, P-384 or P-521; OKP: Ed25519"),
    x: z.string().optional(),
    y: z.string().optional(),
    n: z.string().optional().describe("RSA modulus, at least 2048 bits"),
    e: z.string().optional(),
  })
  .describe("A public key: no private members (d, p, q, dp, dq, qi, oth, k), no symmetric (oct) keys");

const JWKS_DESCRIPTION =
  'OpenID Provider: the client\'s public signing keys as a JWK Set (RFC 7517), for private_key_jwt client assertions and signed request objects; or null. 1–10 keys of kty EC (P-256, P-384, P-521), RSA (≥ 2048 bits) or OKP (Ed25519); `use`, if present, "sig"; `kid` values unique; at most 16 KB as JSON. Stored as sent. An app has `jwks` or `jwksUri`, never both';
const JWKS_URI_DESCRIPTION =
  "OpenID Provider: an https URL where the client publishes its JWK Set (http only in the sandbox), fetched when a client JWT is checked, cached 5 minutes and fetched again for an unknown `kid`; or null. Never together with `jwks`";

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
      "OpenID Provider: /auth refuses authorization requests without a PKCE code_challenge (S256) with invalid_request. On for apps created since it exists; older apps keep it off until changed. Always true while `oidcProfile` is fapi2",
    ),
  tokenEndpointAuthMethod: z
    .enum(TOKEN_ENDPOINT_AUTH_METHODS)
    .describe(
      "OpenID Provider: how the client authenticates at /token and the pushed authorization request endpoint. client_secret_basic (default) and client_secret_post: the client secret, in either form; private_key_jwt: a client assertion JWT (RFC 7523) signed with a key of `jwks` or `jwksUri`, the secret refused. Always private_key_jwt while `oidcProfile` is fapi2",
    ),
  jwks: z
    .looseObject({ keys: z.array(ZPublicJwkJson) })
    .nullable()
    .describe(JWKS_DESCRIPTION),
  jwksUri: z.string().nullable().describe(JWKS_URI_DESCRIPTION),
  requirePushedAuthorizationRequests: z
    .boolean()
    .describe(
      "OpenID Provider: authorization requests only through pushed authorization requests (RFC 9126): /auth refuses a request without the request_uri the PAR endpoint returned. Default false; always true while `oidcProfile` is fapi2",
    ),
  requireDpop: z
    .boolean()
    .describe(
      "OpenID Provider: /token issues DPoP-bound access tokens only (RFC 9449) and refuses a request without a DPoP proof; /userinfo then needs the proof too. Default false; always true while `oidcProfile` is fapi2",
    ),
  oidcProfile: z
    .enum(OIDC_PROFILES)
    .describe(
      "OpenID Provider: `default`, or `fapi2`, the FAPI 2.0 Security Profile: pushed authorization requests only, PKCE S256, private_key_jwt, DPoP-bound tokens, authorization codes valid at most 60 s, client JWTs signed with ES256, PS256 or EdDSA (RS256 refused)",
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
    "All fields optional. `logo`: data:image/(png|jpeg|gif|webp);base64 URL, empty string removes. `redirectUris` replaces the list. `webhookConfig` is merged; its secret is read-only. `pkceRequired` (boolean): whether the OpenID Provider's /auth requires PKCE (S256) from this client. OpenID client settings: `tokenEndpointAuthMethod` (client_secret_basic, client_secret_post or private_key_jwt; private_key_jwt needs `jwks` or `jwksUri` once the request is applied, and the keys of such an app cannot be removed); `jwks` (a JWK Set of public keys) or `jwksUri` (https), null removes, never both: setting one while the other is set is refused unless the same request sets the other to null; `requirePushedAuthorizationRequests` and `requireDpop` (booleans); `oidcProfile` (default or fapi2): switching to fapi2 needs private_key_jwt (already or in the same request) and turns on requirePushedAuthorizationRequests, requireDpop and pkceRequired in the same write; while the profile is fapi2, setting any of those to false or a client secret method is refused. Each refusal is a 400 VALIDATION_ERROR naming the field (a JWK Set's problem names the key, e.g. `jwks.keys[1].d`). `clientId`/`clientSecret` are refused with VALIDATION_INVALID_PARAMETER.",
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
