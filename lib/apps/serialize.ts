/** The App resource as the API returns it. The client secret never appears here. */
import type { App, AppProvider, Workflow } from "../db/generated/client";
import { decryptSecret } from "../crypto/encryption";
import type { TNodePositions } from "../workflows/json";
import type { TWorkflowNode } from "../workflows/starter";

export type AppRow = App & { providers: AppProvider[]; workflows: Workflow[] };

export interface TWorkflowJson {
  workflowId: string;
  name: string;
  entryNodeId: string;
  nodes: TWorkflowNode[];
  positions: TNodePositions;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface TWebhookConfigJson {
  url: string | null;
  enabled: boolean;
  retryAttempts: number;
  timeoutSeconds: number;
  events: string[];
  secret?: string;
}

export interface TAppJson {
  clientId: string;
  name: string;
  logo: string | null;
  redirectUris: string[];
  providers: Record<string, { enabled: boolean }>;
  defaultWorkflowId: string | null;
  workflows: TWorkflowJson[];
  organizationId: string;
  environment: string;
  webhookConfig: TWebhookConfigJson;
  defaultSuccessRedirectUri: string | null;
  defaultFailureRedirectUri: string | null;
  pkceRequired: boolean;
  createdAt: string;
  updatedAt: string;
  clientSecret?: string;
}

export function toWorkflowJson(w: Workflow): TWorkflowJson {
  return {
    workflowId: w.id,
    name: w.name,
    entryNodeId: w.entryNodeId,
    nodes: w.nodes as unknown as TWorkflowNode[],
    positions: (w.positions ?? {}) as TNodePositions,
    version: w.version,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

/** Webhook configuration; the signing secret only where `withSecret` (GET webhook-config). */
export function toWebhookConfigJson(app: App, withSecret = false): TWebhookConfigJson {
  return {
    url: app.webhookUrl,
    enabled: app.webhookEnabled,
    retryAttempts: app.webhookRetryAttempts,
    timeoutSeconds: app.webhookTimeoutSeconds,
    events: app.webhookEvents,
    ...(withSecret && app.webhookSecretEncrypted
      ? { secret: decryptSecret(app.webhookSecretEncrypted) }
      : {}),
  };
}

export function toAppJson(app: AppRow): TAppJson {
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
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}
