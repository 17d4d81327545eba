/** The App resource as the API returns it. The client secret never appears here. */
import type { z } from "zod";
import type { App, AppProvider, Workflow } from "../db/rows";
import { decryptSecret } from "../crypto/encryption";
import { OIDC_PROFILES, TOKEN_ENDPOINT_AUTH_METHODS } from "../oidc/profile";
import { memberParser } from "../state-machine";
import { parseEventType } from "../webhooks/event-types";
import type { ZWorkflowJson } from "../workflows/json";
import { storedNodes, storedPositions } from "../workflows/row";
import type { ZAppJson, ZWebhookConfigJson } from "./endpoints";

/** The app's OpenID client settings as stored (CHECK constraints of the apps table keep them in the lists). */
const parseTokenEndpointAuthMethod = memberParser(
  TOKEN_ENDPOINT_AUTH_METHODS,
  "apps.token_endpoint_auth_method",
);
const parseOidcProfile = memberParser(OIDC_PROFILES, "apps.oidc_profile");

export type AppRow = App & { providers: AppProvider[]; workflows: Workflow[] };

/** What toWorkflowJson reads of a workflow row (nodes and positions are parsed there). */
export type TWorkflowSource = Pick<
  Workflow,
  "id" | "name" | "entryNodeId" | "version" | "createdAt" | "updatedAt"
> & {
  nodes: unknown;
  positions: unknown;
};

/** What toWebhookConfigJson reads of an app (the secret only `withSecret`). */
export type TWebhookSource = Pick<
  App,
  "webhookUrl" | "webhookEnabled" | "webhookRetryAttempts" | "webhookTimeoutSeconds" | "webhookEvents"
> & { webhookSecretEncrypted?: string | null };

/** What toAppJson reads of an app with its providers and workflows (getOwnedApp reads more: lib/apps/store/read.ts). */
export type TAppSource = TWebhookSource &
  Pick<
    App,
    | "id"
    | "name"
    | "logo"
    | "redirectUris"
    | "defaultWorkflowId"
    | "workspaceId"
    | "environment"
    | "defaultSuccessRedirectUri"
    | "defaultFailureRedirectUri"
    | "pkceRequired"
    | "tokenEndpointAuthMethod"
    | "jwks"
    | "jwksUri"
    | "requirePushedAuthorizationRequests"
    | "requireDpop"
    | "oidcProfile"
    | "createdAt"
    | "updatedAt"
  > & { providers: Pick<AppProvider, "providerId" | "enabled">[]; workflows: TWorkflowSource[] };

export type TWorkflowJson = z.infer<typeof ZWorkflowJson>;
export type TWebhookConfigJson = z.infer<typeof ZWebhookConfigJson>;
export type TAppJson = z.infer<typeof ZAppJson>;

export function toWorkflowJson(w: TWorkflowSource): TWorkflowJson {
  return {
    workflowId: w.id,
    name: w.name,
    entryNodeId: w.entryNodeId,
    nodes: storedNodes(w.nodes),
    positions: storedPositions(w.positions),
    version: w.version,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

/** Webhook configuration; the signing secret only where `withSecret` (GET webhook-config). */
export function toWebhookConfigJson(app: TWebhookSource, withSecret = false): TWebhookConfigJson {
  return {
    url: app.webhookUrl,
    enabled: app.webhookEnabled,
    retryAttempts: app.webhookRetryAttempts,
    timeoutSeconds: app.webhookTimeoutSeconds,
    events: app.webhookEvents.map(parseEventType),
    ...(withSecret && app.webhookSecretEncrypted
      ? { secret: decryptSecret(app.webhookSecretEncrypted) }
      : {}),
  };
}

export function toAppJson(app: TAppSource): TAppJson {
  const providers: Record<string, { enabled: boolean }> = {};
  for (const p of [...app.providers].sort((a, b) => a.providerId.localeCompare(b.providerId))) {
    providers[p.providerId] = { enabled: p.enabled };
  }
  return {
    clientId: app.id,
    name: app.name,
    logo: app.logo,
    redirectUris: app.redirectUris,
    providers,
    defaultWorkflowId: app.defaultWorkflowId,
    workflows: [...app.workflows]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map(toWorkflowJson),
    organizationId: app.workspaceId,
    environment: app.environment,
    webhookConfig: toWebhookConfigJson(app),
    defaultSuccessRedirectUri: app.defaultSuccessRedirectUri,
    defaultFailureRedirectUri: app.defaultFailureRedirectUri,
    pkceRequired: app.pkceRequired,
    tokenEndpointAuthMethod: parseTokenEndpointAuthMethod(app.tokenEndpointAuthMethod),
    jwks: (app.jwks ?? null) as TAppJson["jwks"],
    jwksUri: app.jwksUri,
    requirePushedAuthorizationRequests: app.requirePushedAuthorizationRequests,
    requireDpop: app.requireDpop,
    oidcProfile: parseOidcProfile(app.oidcProfile),
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}
