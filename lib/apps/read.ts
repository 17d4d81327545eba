/**
 * GET /v1/apps/{clientId}: the app with its providers and workflows in one prepared statement
 * outside any transaction (lib/db/sql.ts), with getOwnedApp's answers: 404 for an unknown,
 * deleted or other-environment app, 403 RESOURCE_FORBIDDEN for another workspace's. Writes and
 * everything inside a transaction keep loading the app with getOwnedApp (lib/apps/service.ts).
 */
import type { Tx } from "../db/client";
import { column, defineStatement, queryOne, type TRow } from "../db/sql";
import { parseEnvironment, type TEnvironment } from "../environments";
import { notFound } from "../errors";
import { foreignAppError, type TAppAsker } from "./ownership";
import type { TAppSource, TWorkflowSource } from "./serialize";

const APP_WITH_RELATIONS = defineStatement<[clientId: string], TAppSource & { deleted: boolean }>({
  name: "app_read",
  text: `SELECT a.id, a.workspace_id, a.environment, a.name, a.logo, a.redirect_uris,
                a.default_workflow_id, a.default_success_redirect_uri, a.default_failure_redirect_uri,
                a.webhook_url, a.webhook_enabled, a.webhook_retry_attempts, a.webhook_timeout_seconds,
                a.webhook_events, a.pkce_required, a.created_at, a.updated_at,
                a.deleted_at IS NOT NULL AS deleted,
                COALESCE((SELECT json_agg(json_build_object('provider_id', p.provider_id, 'enabled', p.enabled))
                            FROM app_providers p WHERE p.app_id = a.id), '[]') AS providers,
                COALESCE((SELECT json_agg(json_build_object(
                                   'id', w.id, 'name', w.name, 'entry_node_id', w.entry_node_id,
                                   'nodes', w.nodes, 'positions', w.positions, 'version', w.version,
                                   'created_at', w.created_at, 'updated_at', w.updated_at))
                            FROM workflows w WHERE w.app_id = a.id), '[]') AS workflows
           FROM apps a WHERE a.id = $1`,
  parse: (row) => ({
    id: column.text(row, "id"),
    workspaceId: column.text(row, "workspace_id"),
    environment: environmentOf(row),
    name: column.text(row, "name"),
    logo: column.textOrNull(row, "logo"),
    redirectUris: column.textArray(row, "redirect_uris"),
    defaultWorkflowId: column.textOrNull(row, "default_workflow_id"),
    defaultSuccessRedirectUri: column.textOrNull(row, "default_success_redirect_uri"),
    defaultFailureRedirectUri: column.textOrNull(row, "default_failure_redirect_uri"),
    webhookUrl: column.textOrNull(row, "webhook_url"),
    webhookEnabled: column.boolean(row, "webhook_enabled"),
    webhookRetryAttempts: column.int(row, "webhook_retry_attempts"),
    webhookTimeoutSeconds: column.int(row, "webhook_timeout_seconds"),
    webhookEvents: column.textArray(row, "webhook_events"),
    pkceRequired: column.boolean(row, "pkce_required"),
    createdAt: column.timestamp(row, "created_at"),
    updatedAt: column.timestamp(row, "updated_at"),
    deleted: column.boolean(row, "deleted"),
    providers: column.jsonRows(row, "providers").map((p) => ({
      providerId: column.text(p, "provider_id"),
      enabled: column.boolean(p, "enabled"),
    })),
    workflows: column.jsonRows(row, "workflows").map(workflowOf),
  }),
});

function environmentOf(row: TRow): TEnvironment {
  const value = column.text(row, "environment");
  const environment = parseEnvironment(value);
  if (!environment) throw new Error(`column "environment": unknown environment "${value}"`);
  return environment;
}

function workflowOf(w: TRow): TWorkflowSource {
  return {
    id: column.text(w, "id"),
    name: column.text(w, "name"),
    entryNodeId: column.text(w, "entry_node_id"),
    nodes: column.json(w, "nodes"),
    positions: column.json(w, "positions"),
    version: column.int(w, "version"),
    createdAt: column.timestamp(w, "created_at"),
    updatedAt: column.timestamp(w, "updated_at"),
  };
}

/** The app the caller may read, for toAppJson; 404 / 403 as getOwnedApp. */
export async function readOwnedApp(db: Tx, auth: TAppAsker, clientId: string): Promise<TAppSource> {
  const app = await queryOne(db, APP_WITH_RELATIONS, [clientId]);
  if (!app || app.deleted || app.environment !== auth.environment) throw notFound(`App "${clientId}"`);
  if (app.workspaceId !== auth.workspaceId) {
    throw foreignAppError(auth, clientId);
  }
  return app;
}
