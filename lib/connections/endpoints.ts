/**
 * Endpoint definitions of the Operator API's connections (issue 24, see lib/http/endpoint.ts):
 * list, read, put, delete and check. `auth: "operator"` (operator key or an operator's console
 * session); every call acts on the URL's environment.
 */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { ZConnectionCheckJson, ZConnectionJson, ZPutConnection } from "./schema";

export const listConnections = endpoint({
  method: "GET",
  path: "/v1/operator/connections",
  operationId: "listConnections",
  summary: "List provider connections (Operator API)",
  description:
    "Every catalog provider, in catalog order, with its connection in the URL's environment: `state` not_connected, connected, failing (the last check or sign-in failed: `lastError`, `lastErrorAt`) or disabled; the adapter and its settings, never a secret (`clientSecretSet` says whether one is stored).",
  tag: "Operator",
  auth: "operator",
  responses: {
    200: { description: "Every catalog provider's connection", schema: z.array(ZConnectionJson) },
  },
});

export const getConnection = endpoint({
  method: "GET",
  path: "/v1/operator/connections/{provider_id}",
  operationId: "getConnection",
  summary: "Get a provider's connection (Operator API)",
  description:
    "The provider's connection in the URL's environment (state not_connected when there is none). A provider id outside the catalog is 404.",
  tag: "Operator",
  auth: "operator",
  responses: { 200: { description: "The connection", schema: ZConnectionJson } },
});

export const putConnection = endpoint({
  method: "PUT",
  path: "/v1/operator/connections/{provider_id}",
  operationId: "putConnection",
  summary: "Connect a provider, or change its connection (Operator API)",
  description:
    "Creates (201) or replaces (200) the provider's connection in the URL's environment: `{adapter, enabled, settings}`. oidc settings: `issuer` (https; http only with `allowInsecureRequests: true`, for local testing), `clientId`, `clientSecret` (write-only: sealed with the master key, never returned; omit it to keep the stored one, send it to rotate), `scopes`, `claimMapping` (OIDC claim name → the upstream's claim name or a JSON pointer), `acrToLoa` (upstream acr → LoA 0–3). wallet settings (wallet providers only): `issuers` (iss → JWKS), `vct`, `loa`. A refused setting is 400 naming it (`settings.issuer`) and nothing is stored. Every change is audited (`connection.created` / `connection.updated`, the fields that changed, never a secret).",
  tag: "Operator",
  auth: "operator",
  body: ZPutConnection,
  responses: {
    200: { description: "The changed connection", schema: ZConnectionJson },
    201: { description: "The new connection", schema: ZConnectionJson },
  },
});

export const deleteConnection = endpoint({
  method: "DELETE",
  path: "/v1/operator/connections/{provider_id}",
  operationId: "deleteConnection",
  summary: "Disconnect a provider (Operator API)",
  description:
    "Deletes the provider's connection in the URL's environment (audited `connection.deleted`): its production sessions can no longer start a sign-in. 204 also when it was not connected; a provider id outside the catalog is 404.",
  tag: "Operator",
  auth: "operator",
  responses: { 204: { description: "Disconnected" } },
});

export const checkConnection = endpoint({
  method: "POST",
  path: "/v1/operator/connections/{provider_id}/check",
  operationId: "checkConnection",
  summary: "Check a provider's connection (Operator API)",
  description:
    "oidc connections: fetches the issuer's discovery document and JWKS (through the SSRF guard of webhook deliveries) and answers what it found: whether the discovered issuer matches, the endpoints, the ID token signing algorithms, the token endpoint's client authentication methods, the number of signing keys, warnings. A failure is an answer (`ok: false`, `error`) and is recorded in the connection's state (`failing`); a success clears it. Nothing personal is fetched or stored. 404 when the provider has no connection; 400 for a connection of another adapter.",
  tag: "Operator",
  auth: "operator",
  transaction: false,
  responses: { 200: { description: "What the check found", schema: ZConnectionCheckJson } },
});
