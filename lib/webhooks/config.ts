/**
 * Webhook configuration of an app (url, enabled, retryAttempts, timeoutSeconds, events, secret).
 * Rules:
 * - url: absolute http(s), https only in production, no user credentials, no fragment; null or ""
 *   clears it; a webhook cannot be enabled (or stay enabled) without a url;
 * - retryAttempts 0–10 and timeoutSeconds 1–30 are stored but not enforced per app: delivery uses
 *   the deployment-wide schedule (spec, Events §5);
 * - events: known event types only, duplicates collapsed, order kept;
 * - the signing secret is read-only: it is only ever set by rotation, which returns
 *   `whsec_<random>` and stores it encrypted with IDV_MASTER_KEY. An app has no secret until its
 *   first rotation, and deliveries carry X-Service-Signature only once a secret exists; a rotation
 *   invalidates signatures made with the previous secret at once;
 * - the signing secret is a credential (the `credentials` permission, lib/auth/roles.ts): only
 *   roles that hold it in this environment read it (GET/PATCH webhook-config) or rotate it
 *   (rotate-secret, checked by withApi). Owners, admins and workspace API keys hold it everywhere,
 *   developers in the sandbox only, viewers nowhere: the secret forges deliveries the integrator
 *   trusts. Every reader sees `signed` (whether a secret exists) and `secretReadable` (whether
 *   this caller gets it); the rest of the configuration stays readable to all.
 * The same rules serve PATCH /v1/apps/{client_id} (webhookConfig, fields named
 * `webhookConfig.…`) and PATCH /v1/apps/{client_id}/webhook-config (fields named as they are).
 * Callers load the app with getOwnedApp first, so ownership is checked before anything here.
 */
import type { z } from "zod";
import type { WorkspaceActor } from "../auth/actor";
import type { TWebhookConfigPatch } from "../apps/schema";
import { toWebhookConfigJson } from "../apps/serialize";
import { recordAudit, workspaceAudit } from "../audit";
import { can } from "../auth/roles";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { encryptSecret } from "../crypto/encryption";
import type { Db } from "../db/client";
import type { App } from "../db/rows";
import type { TEnvironment } from "../environments";
import { ApiError, invalidField } from "../errors";
import { randomToken } from "../ids";
import type { ZWebhookConfigResourceJson } from "./config-endpoints";
import { setWebhookSecret, updateWebhookColumns, type TWebhookColumns } from "./store/config";

export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** The answer to a resource that is not (or no longer) there: 404 RESOURCE_NOT_FOUND, an app gone meanwhile. */
function resourceGone(): ApiError {
  return new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
}

function checkWebhookUrl(url: string, env: TEnvironment, field: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidField(field, "must be an absolute http(s) URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw invalidField(field, "must use https or http");
  if (env === "production" && parsed.protocol !== "https:")
    throw invalidField(field, "must use https in production");
  if (parsed.username || parsed.password) throw invalidField(field, "must not contain user credentials");
  if (url.includes("#")) throw invalidField(field, "must not contain a fragment");
}

/**
 * Validates a patch against the app's current configuration and returns the columns to write.
 * `prefix` is how the caller's body names the configuration ("webhookConfig." inside PATCH app).
 */
export function webhookConfigChanges(
  current: Pick<App, "webhookEnabled" | "webhookUrl">,
  patch: TWebhookConfigPatch,
  env: TEnvironment,
  prefix = "",
): TWebhookColumns {
  if (patch.secret !== undefined) {
    throw invalidField(
      `${prefix}secret`,
      "is read-only; rotate it with POST /v1/apps/{client_id}/webhook-config/rotate-secret",
      "VALIDATION_INVALID_PARAMETER",
    );
  }
  const data: TWebhookColumns = {};
  if (patch.url !== undefined) {
    const url = patch.url === null || patch.url.trim() === "" ? null : patch.url.trim();
    if (url !== null) checkWebhookUrl(url, env, `${prefix}url`);
    data.webhookUrl = url;
  }
  if (patch.enabled !== undefined) data.webhookEnabled = patch.enabled;
  if (patch.retryAttempts !== undefined) data.webhookRetryAttempts = patch.retryAttempts;
  if (patch.timeoutSeconds !== undefined) data.webhookTimeoutSeconds = patch.timeoutSeconds;
  if (patch.events !== undefined) data.webhookEvents = [...new Set(patch.events)];
  const enabled = data.webhookEnabled ?? current.webhookEnabled;
  const url = data.webhookUrl !== undefined ? data.webhookUrl : current.webhookUrl;
  if (enabled && !url) throw invalidField(`${prefix}url`, "is required while the webhook is enabled");
  return data;
}

/** A new signing secret: whsec_ + 43 characters of [A-Za-z0-9] (about 256 bits). */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomToken(43)}`;
}

/** The webhook-config resource: whether it is signed, and the secret for roles with `credentials`. */
export type TWebhookConfigResourceJson = z.infer<typeof ZWebhookConfigResourceJson>;

/** What the resource shows of an app: its webhook columns. */
type TWebhookConfigSource = Pick<
  App,
  | "webhookUrl"
  | "webhookEnabled"
  | "webhookRetryAttempts"
  | "webhookTimeoutSeconds"
  | "webhookEvents"
  | "webhookSecretEncrypted"
>;

function toWebhookConfigResourceJson(
  app: TWebhookConfigSource,
  auth: WorkspaceAuth,
): TWebhookConfigResourceJson {
  const secretReadable = can(auth.role, "credentials", auth.environment);
  return {
    ...toWebhookConfigJson(app, secretReadable),
    signed: app.webhookSecretEncrypted !== null,
    secretReadable,
  };
}

/** GET webhook-config: the configuration, with the stored secret once one exists (see rules). */
export function getWebhookConfig(app: App, auth: WorkspaceAuth): TWebhookConfigResourceJson {
  return toWebhookConfigResourceJson(app, auth);
}

export async function updateWebhookConfig(
  db: Db,
  actor: WorkspaceActor,
  app: App,
  patch: TWebhookConfigPatch,
): Promise<TWebhookConfigResourceJson> {
  const data = webhookConfigChanges(app, patch, actor.auth.environment);
  const updated = await updateWebhookColumns(db, app.id, data);
  if (!updated) throw resourceGone();
  await recordAudit(db, {
    ...workspaceAudit(actor),
    targetType: "app",
    action: "webhook_config.updated",
    targetId: app.id,
    // field names only: a webhook URL may carry a token in its query
    data: { fields: Object.keys(data) },
  });
  return toWebhookConfigResourceJson(updated, actor.auth);
}

export async function rotateWebhookSecret(
  db: Db,
  actor: WorkspaceActor,
  app: App,
): Promise<{ secret: string }> {
  const secret = generateWebhookSecret();
  if (!(await setWebhookSecret(db, app.id, encryptSecret(secret)))) throw resourceGone();
  await recordAudit(db, {
    ...workspaceAudit(actor),
    targetType: "app",
    action: "webhook_config.secret_rotated",
    targetId: app.id,
    // the first rotation is the one that turns signing on
    data: { firstSecret: app.webhookSecretEncrypted === null },
  });
  return { secret };
}
