/**
 * Endpoint definitions of the Operator API's connections (issue 24, see lib/http/endpoint.ts):
 * list, read, put, delete and check. `auth: "operator"` (operator key or an operator's console
 * session); every call acts on the URL's environment.
 */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { ZConnectionCheckJson, ZConnectionJson, ZPutConnection } from "./schema";
import { ZConnectionSchemasJson } from "./settings-schema";
import { ZTestSignInStartJson } from "./test-sign-in";

export const listConnections = endpoint({
  method: "GET",
  path: "/v1/operator/connections",
  operationId: "listConnections",
  summary: "List provider connections (Operator API)",
  description:
    "Every catalog provider, in catalog order, with its connection in the URL's environment: `state` not_connected, connected, failing (the last check failed, or 3 sign-ins in a row failed for an upstream fault, after the last success: `lastError`, `lastErrorAt`; a check every 5 minutes brings it back once the upstream answers) or disabled; the adapter and its settings, never a secret (`clientSecretSet` says whether one is stored); `health`, the sign-ins of the last hour and day (`signIns`, `failures` — upstream faults only, not a person cancelling or failing authentication —, `errorRate`, `medianLatencyMs`, `maxLatencyMs`; no personal data).",
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
    "The provider's connection in the URL's environment (state not_connected when there is none), with its `health` over the last hour and day as in the list. A provider id outside the catalog is 404.",
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
    "Creates (201) or replaces (200) the provider's connection in the URL's environment: `{adapter, enabled, settings}`. oidc settings: `issuer` (https; http only with `allowInsecureRequests: true`, for local testing), `clientId`, `clientAuthMethod` (`client_secret_basic` | `client_secret_post` | `private_key_jwt`; unset: private_key_jwt when only a private key is set, else client_secret_basic), `clientSecret`, `privateKeyJwk` (a private JWK, RSA or EC P-256, signing with RS256/PS256/ES256: private_key_jwt and request objects) and `idTokenDecryptionKey` (a private JWK decrypting encrypted ID tokens: RSA-OAEP(-256) or ECDH-ES) — these three are write-only: sealed with the master key, never returned; omit one to keep the stored one, send it to rotate; a public JWK is refused —, `requestObject` (`{signingAlg?}`: send signed request objects), `pushedAuthorizationRequests` (push authorization requests first; unset: when the upstream's metadata requires it), `scopes`, `claimMapping` (the upstream's claim name or a JSON pointer → OIDC claim name, e.g. `{\"prenom\": \"given_name\"}`), `acrToLoa` (upstream acr → LoA 0–3). The public halves of the two keys are served at `{PUBLIC_URL}/connections/{connectionId}/jwks.json` (register it with the upstream). saml settings (any provider but wallet providers): `metadataXml` (the IdP's SAML 2.0 metadata) or `metadataUrl` (without metadataXml: fetched at the PUT through the SSRF guard, redirects not followed, and stored with the URL; a failure is 400 naming `settings.metadataUrl`), `spEntityId`, `spSigningCertificate` and `spSigningPrivateKey` (PEM, RSA), optional `spEncryptionCertificate` and `spEncryptionPrivateKey` (encrypted assertions) — the private keys are write-only like the secrets above —, `attributeMapping` (SAML attribute Name → OIDC claim name, `sub` for the subject; default the eIDAS natural-person profile), `loaMapping` (AuthnContextClassRef → LoA 1–3; default the eIDAS LoA URIs), `requestedLoa`, `wantAssertionsSigned` (default true), `eidas` (`{spType: public|private, requestedAttributes: {Name: isRequired}}`: the eIDAS AuthnRequest extensions). Our SP metadata is served at `{PUBLIC_URL}/verify/saml/{env}/{providerId}/metadata` and the assertion consumer service is `…/acs` (the answer's `serviceProvider`). wallet settings (wallet providers only): `issuers` (iss → JWKS), `vct`, `loa`. A refused setting is 400 naming it (`settings.issuer`) and nothing is stored. A PUT that disables the connection (`enabled: false`) or changes its adapter ends the provider's open sessions in this environment failed with reason `provider_unavailable` (their events and webhooks as for any failure). Every change is audited (`connection.created` / `connection.updated`, the fields that changed, never a secret; `failedSessions`: how many open sessions it failed).",
  tag: "Operator",
  auth: "operator",
  body: ZPutConnection,
  // a saml metadataUrl is fetched before the write, outside any transaction (service.ts)
  transaction: false,
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
    "Deletes the provider's connection in the URL's environment (audited `connection.deleted`, with `failedSessions`): its open sessions in this environment end failed with reason `provider_unavailable` in the same transaction, with their events and webhooks as for any failure, and none can start any more. 204 also when it was not connected; a provider id outside the catalog is 404.",
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
    "oidc connections: fetches the issuer's discovery document and JWKS (through the SSRF guard of webhook deliveries) and answers what it found: whether the discovered issuer matches, the endpoints, the ID token signing algorithms, the token endpoint's client authentication methods, the number of signing keys, warnings (among them each certificate the JWKS carries in `x5c` that is expired, not yet valid or expiring within 30 days). saml connections: re-fetches `metadataUrl` (when set; a document that differs from the stored one is a warning) and answers the IdP's entityID, SSO URL, and the subject and validity of its signing certificates and ours (`saml`), with a warning for each certificate expired or expiring within 30 days. A failure is an answer (`ok: false`, `error`) and is recorded in the connection's state (`failing`); a success clears it. Nothing personal is fetched or stored. 404 when the provider has no connection; 400 for a connection of another adapter.",
  tag: "Operator",
  auth: "operator",
  transaction: false,
  responses: { 200: { description: "What the check found", schema: ZConnectionCheckJson } },
});

export const getConnectionSettingsSchemas = endpoint({
  method: "GET",
  path: "/v1/operator/connections/schema",
  operationId: "getConnectionSettingsSchemas",
  summary: "The settings schema of each connection adapter (Operator API)",
  description:
    "Per production adapter (oidc, wallet, …) the JSON Schema (draft 2020-12) of the `settings` a PUT sends, generated from the schema the API checks them with; secrets carry `writeOnly: true` and are listed in `secrets` (omitted on a PUT: the stored one is kept). The back-office builds its connection form from it.",
  tag: "Operator",
  auth: "operator",
  responses: {
    200: { description: "Every adapter's settings schema", schema: ZConnectionSchemasJson },
  },
});

export const startTestSignIn = endpoint({
  method: "POST",
  path: "/v1/operator/connections/{provider_id}/test-sign-in",
  operationId: "startConnectionTestSignIn",
  summary: "Start a test sign-in through a connection (Operator API, operator session only)",
  description:
    "Starts a real sign-in through the provider's connection (oidc or saml; also when it is disabled or failing) and answers the upstream's authorization URL, to be opened in a new tab of the same browser. The sign-in returns to the registered callback ({PUBLIC_URL}/verify/callback; saml: the IdP posts to the connection's ACS) and ends on a back-office page showing the mapped claims and the upstream's raw claims; nothing but a saml sign-in's hand-off is stored server-side: the hand-off (state, nonce, PKCE verifier) is sealed in an HttpOnly cookie bound to the operator's console session (saml: kept sealed server-side under a short random RelayState, single use, 10 minutes; the result is shown to that session only). An operator key is refused (403): the sign-in needs the browser of a signed-in operator. 404 when the provider has no connection; 400 for an adapter without test sign-in.",
  tag: "Operator",
  auth: "operator",
  transaction: false,
  responses: {
    200: { description: "Where to send the browser", schema: ZTestSignInStartJson },
  },
});
