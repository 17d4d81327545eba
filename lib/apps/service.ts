/**
 * Apps: the integrator's integrations.
 * Rules:
 * - an app belongs to one workspace and one environment; a key of another workspace gets 403
 *   RESOURCE_FORBIDDEN (worded for a key or a console session: ownership.ts), an unknown (or
 *   deleted, or other-environment) app 404 RESOURCE_NOT_FOUND;
 * - creating an app provisions the starter workflow with `passport` enabled (its default);
 * - the client secret is shown once (create, rotate) and stored as SHA-256 only;
 * - rotating the client secret revokes the app's outstanding OpenID Provider access tokens (a
 *   rotation answers a leak: whatever was obtained with the old secret stops working at once);
 * - PATCH: clientId/clientSecret are refused (VALIDATION_INVALID_PARAMETER); logo must be a real
 *   image data URL ("" or null removes it); redirectUris replace the list; webhookConfig merges
 *   and its secret is read-only; pkceRequired switches the OpenID Provider's PKCE requirement;
 *   the OpenID client settings (tokenEndpointAuthMethod, jwks/jwksUri, requirePushedAuthorization-
 *   Requests, requireDpop, oidcProfile) are checked and coupled by oidc-settings.ts;
 * - new apps require PKCE at the OpenID Provider (pkceRequired true); apps created before the
 *   setting existed keep it off until changed;
 * - deleting is a soft delete that also drops the credentials, so they stop working at once.
 */
import type { WorkspaceActor } from "../auth/actor";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { generateClientSecret } from "../auth/app-credentials";
import { recordAudit, workspaceAudit } from "../audit";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { ApiError, invalidField, notFound } from "../errors";
import { page, type TPage } from "../http/pagination";
import { newId } from "../ids";
import { webhookConfigChanges } from "../webhooks/config";
import { STARTER_PROVIDER_ID, starterWorkflow } from "../workflows/starter";
import { versionAuthor, writeWorkflowVersion } from "../workflows/version-record";
import { checkLogoDataUrl } from "./logo";
import { oidcSettingsChanges } from "./oidc-settings";
import { foreignAppError, type TAppAsker } from "./ownership";
import type { TUpdateApp } from "./schema";
import { countApps, listAppPage } from "./store/list";
import { readApp, readAppView } from "./store/read";
import {
  deleteCustomDomainOfApp,
  insertApp,
  revokeAppAccessTokens,
  setClientSecretHash,
  softDeleteAppRow,
  updateAppRow,
  type TAppChanges,
} from "./store/writes";
import { toAppJson, type AppRow, type TAppJson, type TAppSource } from "./serialize";
import { checkRedirectUri, MAX_REDIRECT_URIS } from "./uris";

export const DEFAULT_APP_NAME = "My App";

/** The answer to a resource that is not (or no longer) there: 404 RESOURCE_NOT_FOUND. */
function resourceGone(): ApiError {
  return new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
}

/** The app as getOwnedApp reads it, right after this transaction wrote it. */
async function appAfterWrite(db: Db, clientId: string): Promise<AppRow> {
  const app = await readApp(db, clientId);
  if (!app) throw resourceGone();
  return app;
}

/**
 * Loads an app the caller may act on, with its providers and workflows, or throws 404 / 403 as
 * the spec orders. One prepared statement (lib/apps/store/read.ts `readApp`), in `db`'s transaction
 * when it is one: GET /v1/apps/{clientId} and every use case that loads an app.
 */
export async function getOwnedApp(db: Db, auth: TAppAsker, clientId: string): Promise<AppRow> {
  const app = await readApp(db, clientId);
  if (!app || app.deletedAt !== null || app.environment !== auth.environment)
    throw notFound(`App "${clientId}"`);
  if (app.workspaceId !== auth.workspaceId) {
    throw foreignAppError(auth, clientId);
  }
  return app;
}

/** GET /v1/apps/{clientId}: the app as toAppJson shows it, with getOwnedApp's 404 / 403. */
export async function getOwnedAppView(db: Db, auth: TAppAsker, clientId: string): Promise<TAppSource> {
  const app = await readAppView(db, clientId);
  if (!app || app.deletedAt !== null || app.environment !== auth.environment)
    throw notFound(`App "${clientId}"`);
  if (app.workspaceId !== auth.workspaceId) {
    throw foreignAppError(auth, clientId);
  }
  return app;
}

export async function createApp(
  db: Db,
  actor: WorkspaceActor,
  input: { name?: string },
): Promise<TAppJson & { clientSecret: string }> {
  const env: TEnvironment = actor.auth.environment;
  const clientId = newId("app");
  const workflowId = newId("wf");
  const { secret, hash } = generateClientSecret(env);
  const starter = starterWorkflow();
  // new apps require PKCE at the OpenID Provider (insertApp sets pkceRequired)
  await insertApp(db, {
    id: clientId,
    workspaceId: actor.auth.workspaceId,
    environment: env,
    name: input.name ?? DEFAULT_APP_NAME,
    clientSecretHash: hash,
    providerId: STARTER_PROVIDER_ID,
    workflow: { id: workflowId, name: starter.name, entryNodeId: starter.entryNodeId, nodes: starter.nodes },
  });
  const app = await appAfterWrite(db, clientId);
  await writeWorkflowVersion(db, app.workflows[0]!, versionAuthor(actor.auth));
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "app.created",
    targetType: "app",
    targetId: clientId,
    data: { name: app.name },
  });
  return { ...toAppJson(app), clientSecret: secret };
}

export async function listApps(
  db: Db,
  auth: WorkspaceAuth,
  { limit, offset, search }: { limit: number; offset: number; search?: string },
): Promise<TPage<TAppJson>> {
  // `search`: part of the name (any case) or the exact clientId; blank means no filter
  const filter = {
    workspaceId: auth.workspaceId,
    environment: auth.environment,
    search: search || undefined,
  };
  const [total, rows] = await Promise.all([
    countApps(db, filter),
    listAppPage(db, filter, { limit, offset }),
  ]);
  return page(rows.map(toAppJson), total, limit, offset);
}

function checkUri(path: string, value: string, env: TEnvironment): void {
  const problem = checkRedirectUri(value, env);
  if (problem) throw invalidField(path, problem);
}

export async function updateApp(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  patch: TUpdateApp,
): Promise<TAppJson> {
  for (const field of ["clientId", "clientSecret"] as const) {
    if (patch[field] !== undefined) {
      throw invalidField(
        field,
        field === "clientId"
          ? "is immutable and cannot be changed"
          : "cannot be set; rotate it with POST /v1/apps/{client_id}/rotate-client-secret",
        "VALIDATION_INVALID_PARAMETER",
      );
    }
  }
  const app = await getOwnedApp(db, actor.auth, clientId);
  const env = actor.auth.environment;
  const data: TAppChanges = {};
  if (patch.name !== undefined) data.name = patch.name;
  if (patch.logo !== undefined) {
    if (patch.logo === null || patch.logo === "") data.logo = null;
    else {
      const check = checkLogoDataUrl(patch.logo);
      if (!check.ok) throw invalidField("logo", check.message);
      data.logo = patch.logo;
    }
  }
  if (patch.redirectUris !== undefined) {
    if (patch.redirectUris.length > MAX_REDIRECT_URIS) {
      throw invalidField("redirectUris", `must contain at most ${MAX_REDIRECT_URIS} URIs`);
    }
    patch.redirectUris.forEach((uri, i) => checkUri(`redirectUris[${i}]`, uri, env));
    data.redirectUris = [...new Set(patch.redirectUris)];
  }
  for (const field of ["defaultSuccessRedirectUri", "defaultFailureRedirectUri"] as const) {
    const value = patch[field];
    if (value === undefined) continue;
    if (value === null || value === "") data[field] = null;
    else {
      checkUri(field, value, env);
      data[field] = value;
    }
  }
  if (patch.webhookConfig !== undefined)
    Object.assign(data, webhookConfigChanges(app, patch.webhookConfig, env, "webhookConfig."));
  if (patch.pkceRequired !== undefined) data.pkceRequired = patch.pkceRequired;
  Object.assign(data, await oidcSettingsChanges(app, patch, env));

  if (!(await updateAppRow(db, clientId, data))) throw resourceGone();
  const updated = await appAfterWrite(db, clientId);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "app.updated",
    targetType: "app",
    targetId: clientId,
    data: { fields: Object.keys(data) },
  });
  return toAppJson(updated);
}

export async function deleteApp(db: Db, actor: WorkspaceActor, clientId: string): Promise<{ deleted: true }> {
  await getOwnedApp(db, actor.auth, clientId);
  if (!(await softDeleteAppRow(db, clientId, new Date()))) throw resourceGone();
  // its custom domain stops routing and its hosts become free for other apps at once
  await deleteCustomDomainOfApp(db, clientId);
  // every instance's cached OP issuer of its hosts (lib/oidc/provider/issuer.ts), on commit
  await publishInvalidation(db, CACHE_TOPICS.customDomains);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "app.deleted",
    targetType: "app",
    targetId: clientId,
  });
  return { deleted: true };
}

export async function rotateClientSecret(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
): Promise<{ clientId: string; clientSecret: string; rotatedAt: string }> {
  await getOwnedApp(db, actor.auth, clientId);
  const { secret, hash } = generateClientSecret(actor.auth.environment);
  const rotatedAt = new Date();
  if (!(await setClientSecretHash(db, clientId, hash, rotatedAt))) throw resourceGone();
  const revoked = await revokeAppAccessTokens(db, clientId, rotatedAt);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "app.client_secret_rotated",
    targetType: "app",
    targetId: clientId,
    data: { accessTokensRevoked: revoked },
  });
  return { clientId, clientSecret: secret, rotatedAt: rotatedAt.toISOString() };
}
