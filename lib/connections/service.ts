/**
 * Connections (issue 24): the Operator API's use cases — list, read, put, delete — on the
 * `provider_connections` rows of the URL's environment.
 * Rules:
 * - one connection per (environment, catalog provider); a provider id outside the catalog is 404;
 * - a PUT is checked whole before anything is written (a refusal stores nothing); secrets are
 *   sealed with the master key, kept when the PUT omits them, replaced when it sends them;
 * - every change writes an audit entry in the same transaction, the operator as actor, naming the
 *   fields that changed (`settings.clientSecret` when a secret was set) and never a secret's value;
 * - every change publishes the `provider_connections` invalidation so that each instance's
 *   runtime cache (runtime.ts) drops the connection when the transaction commits.
 */
import { operatorAudit, recordAudit } from "../audit";
import type { OperatorActor } from "../auth/actor";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import type { Tx } from "../db/client";
import type { ProviderConnection } from "../db/generated/client";
import type { TEnvironment } from "../environments";
import { invalidField, notFound } from "../errors";
import { newId } from "../ids";
import { findProvider, PROVIDERS, type TProviderDefinition } from "../providers/catalog";
import {
  checkSettings,
  SECRET_FIELDS,
  type TConnectionAdapter,
  type TConnectionJson,
  type TConnectionState,
  type TPutConnection,
} from "./schema";

export function connectionCacheKey(env: TEnvironment, providerId: string): string {
  return `${env} ${providerId}`;
}

function catalogProvider(providerId: string): TProviderDefinition {
  const provider = findProvider(providerId);
  if (!provider) throw notFound(`Provider "${providerId}"`);
  return provider;
}

export function unsealSecrets(row: Pick<ProviderConnection, "secretsEncrypted">): Record<string, string> {
  return row.secretsEncrypted
    ? (JSON.parse(decryptSecret(row.secretsEncrypted)) as Record<string, string>)
    : {};
}

export function connectionState(
  row: Pick<ProviderConnection, "enabled" | "lastErrorAt" | "lastSuccessAt"> | null,
): TConnectionState {
  if (!row) return "not_connected";
  if (!row.enabled) return "disabled";
  if (row.lastErrorAt && (!row.lastSuccessAt || row.lastErrorAt > row.lastSuccessAt)) return "failing";
  return "connected";
}

export function toConnectionJson(
  provider: TProviderDefinition,
  row: ProviderConnection | null,
): TConnectionJson {
  const base = {
    providerId: provider.id,
    providerName: provider.name,
    productionAdapter: provider.adapters.production,
    state: connectionState(row),
  };
  if (!row) {
    return {
      ...base,
      connectionId: null,
      adapter: null,
      enabled: false,
      settings: null,
      lastError: null,
      lastErrorAt: null,
      lastSuccessAt: null,
      createdAt: null,
      updatedAt: null,
    };
  }
  const adapter = row.adapter as TConnectionAdapter;
  return {
    ...base,
    connectionId: row.id,
    adapter,
    enabled: row.enabled,
    settings: row.settings as Record<string, unknown>,
    ...(adapter === "oidc" ? { clientSecretSet: Boolean(unsealSecrets(row).clientSecret) } : {}),
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Every catalog provider with its connection in `env`, in catalog order. */
export async function listConnections(db: Tx, env: TEnvironment): Promise<TConnectionJson[]> {
  const rows = await db.providerConnection.findMany({ where: { environment: env } });
  const byProvider = new Map(rows.map((r) => [r.providerId, r]));
  return PROVIDERS.map((p) => toConnectionJson(p, byProvider.get(p.id) ?? null));
}

export async function getConnection(db: Tx, env: TEnvironment, providerId: string): Promise<TConnectionJson> {
  const provider = catalogProvider(providerId);
  const row = await db.providerConnection.findUnique({
    where: { environment_providerId: { environment: env, providerId } },
  });
  return toConnectionJson(provider, row);
}

/** The names of what a change touches: adapter, enabled, settings.<key> (secrets by name only). */
function changedFields(
  before: ProviderConnection | null,
  after: { adapter: string; enabled: boolean; settings: Record<string, unknown> },
  secretsSet: string[],
): string[] {
  const changed: string[] = [];
  if (before?.adapter !== after.adapter) changed.push("adapter");
  if (before?.enabled !== after.enabled) changed.push("enabled");
  const old = (before?.settings ?? {}) as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(old), ...Object.keys(after.settings)])].sort()) {
    if (JSON.stringify(old[key]) !== JSON.stringify(after.settings[key])) changed.push(`settings.${key}`);
  }
  for (const name of secretsSet) changed.push(`settings.${name}`);
  return changed;
}

/**
 * Creates or replaces the connection of `providerId` in the actor's environment. Returns it, and
 * whether it was created.
 */
export async function putConnection(
  db: Tx,
  actor: OperatorActor,
  providerId: string,
  body: TPutConnection,
): Promise<{ created: boolean; connection: TConnectionJson }> {
  const provider = catalogProvider(providerId);
  if (body.adapter === "wallet" && provider.adapters.production !== "wallet") {
    throw invalidField(
      "adapter",
      `provider "${providerId}" is not a wallet provider; wallet connects only those`,
    );
  }
  const where = { environment_providerId: { environment: actor.env, providerId } };
  const before = await db.providerConnection.findUnique({ where });
  // a secret stored for another adapter is not this one's
  const kept = before && before.adapter === body.adapter ? unsealSecrets(before) : {};
  const { settings, secrets, secretsSet } = checkSettings(body.adapter, body.settings, kept);
  const sealed = SECRET_FIELDS[body.adapter].length ? encryptSecret(JSON.stringify(secrets)) : null;
  const changed = changedFields(before, { ...body, settings }, secretsSet);
  const data = {
    adapter: body.adapter,
    enabled: body.enabled,
    settings: settings as object,
    secretsEncrypted: sealed,
    // a new configuration has not failed yet
    ...(changed.length ? { lastError: null, lastErrorAt: null } : {}),
  };
  const row = before
    ? await db.providerConnection.update({ where, data })
    : await db.providerConnection.create({
        data: { id: newId("con"), environment: actor.env, providerId, ...data },
      });
  if (!before || changed.length) {
    await recordAudit(db, {
      ...operatorAudit(actor),
      environment: actor.env,
      action: before ? "connection.updated" : "connection.created",
      targetType: "provider_connection",
      targetId: row.id,
      data: { providerId, adapter: body.adapter, enabled: body.enabled, changed },
    });
    await publishInvalidation(db, CACHE_TOPICS.connections, connectionCacheKey(actor.env, providerId));
  }
  return { created: !before, connection: toConnectionJson(provider, row) };
}

/** Disconnects `providerId` in the actor's environment; nothing to do when it is not connected. */
export async function deleteConnection(db: Tx, actor: OperatorActor, providerId: string): Promise<void> {
  catalogProvider(providerId);
  const row = await db.providerConnection.findUnique({
    where: { environment_providerId: { environment: actor.env, providerId } },
  });
  if (!row) return;
  await db.providerConnection.delete({ where: { id: row.id } });
  await recordAudit(db, {
    ...operatorAudit(actor),
    environment: actor.env,
    action: "connection.deleted",
    targetType: "provider_connection",
    targetId: row.id,
    data: { providerId, adapter: row.adapter },
  });
  await publishInvalidation(db, CACHE_TOPICS.connections, connectionCacheKey(actor.env, providerId));
}

/**
 * Records the outcome of a check (or a sign-in): no personal data, only the error's text. A change
 * of state (connected ↔ failing) publishes the invalidation: a failing connection is not offered
 * (runtime.ts connectionAvailability).
 */
export async function recordConnectionOutcome(
  db: Tx,
  env: TEnvironment,
  providerId: string,
  error: string | null,
): Promise<void> {
  const now = new Date();
  const where = { environment_providerId: { environment: env, providerId } };
  const before = await db.providerConnection.findUnique({ where });
  if (!before) return;
  const after = await db.providerConnection.update({
    where,
    data: error === null ? { lastSuccessAt: now } : { lastError: error.slice(0, 500), lastErrorAt: now },
  });
  if (connectionState(before) !== connectionState(after)) {
    await publishInvalidation(db, CACHE_TOPICS.connections, connectionCacheKey(env, providerId));
  }
}
