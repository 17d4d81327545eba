/**
 * Connections (issue 24): the Operator API's use cases — list, read, put, delete — on the
 * `provider_connections` rows of the URL's environment.
 * Rules:
 * - one connection per (environment, catalog provider); a provider id outside the catalog is 404;
 * - a PUT is checked whole before anything is written (a refusal stores nothing); secrets are
 *   sealed with the master key, kept when the PUT omits them, replaced when it sends them; the
 *   Operator API's PUT (putConnectionFetching) first fetches what the settings point to (a saml
 *   metadataUrl), outside any transaction, then writes in a short one;
 * - every change writes an audit entry in the same transaction, the operator as actor, naming the
 *   fields that changed (`settings.clientSecret` when a secret was set) and never a secret's value;
 * - every change publishes the `provider_connections` invalidation so that each instance's
 *   runtime cache (runtime.ts) drops the connection when the transaction commits;
 * - a DELETE, or a PUT that disables the connection or changes its adapter, fails the provider's
 *   open sessions in the environment with reason provider_unavailable, in the same transaction
 *   (lib/verifications/disconnect.ts); the audit entry's `failedSessions` says how many;
 * - list and read answer each connection's health (health.ts), the list in one statement.
 */
import { operatorAudit, recordAudit } from "../audit";
import { cliActor, type OperatorActor } from "../auth/actor";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import { encryptSecret } from "../crypto/encryption";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { ApiError, invalidField, notFound } from "../errors";
import { newId } from "../ids";
import { findProvider, PROVIDERS, type TProviderDefinition } from "../providers/catalog";
import { failOpenSessionsOfProvider } from "../verifications/disconnect";
import { connectionHealth, NO_HEALTH } from "./health";
import { connectionState, parseConnectionAdapter, settingsObject, unsealSecrets } from "./rows";
import {
  ADAPTER_FLOWS,
  connectionCacheKey,
  checkSettings,
  connectionFlows,
  SECRET_FIELDS,
  type TConnectionAdapter,
  type TConnectionHealth,
  type TConnectionJson,
  type TPutConnection,
} from "./schema";
import { CONNECTION_ADAPTER_MODULES } from "./adapters/registry";
import {
  deleteConnectionRow,
  insertConnection,
  listConnectionRows,
  readConnection,
  updateConnection,
  updateConnectionOutcome,
  type TConnectionRow,
} from "./store/connections";
import { inTransaction } from "../db/kysely";

export { connectionCacheKey, connectionState, parseConnectionAdapter, unsealSecrets };

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

function catalogProvider(providerId: string): TProviderDefinition {
  const provider = findProvider(providerId);
  if (!provider) throw notFound(`Provider "${providerId}"`);
  return provider;
}

export function toConnectionJson(
  provider: TProviderDefinition,
  row: TConnectionRow | null,
  health: TConnectionHealth = NO_HEALTH,
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
      secretsSet: [],
      lastError: null,
      lastErrorAt: null,
      lastSuccessAt: null,
      health: NO_HEALTH,
      createdAt: null,
      updatedAt: null,
    };
  }
  const adapter = parseConnectionAdapter(row.adapter);
  const secrets = unsealSecrets(row);
  return {
    ...base,
    connectionId: row.id,
    adapter,
    enabled: row.enabled,
    settings: settingsObject(row.settings),
    ...CONNECTION_ADAPTER_MODULES[adapter].connectionJson(
      { environment: row.environment, providerId: row.providerId, settings: row.settings },
      secrets,
    ),
    secretsSet: (SECRET_FIELDS[adapter] ?? []).filter((name) => Boolean(secrets[name])),
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    health,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Every catalog provider with its connection in `env`, in catalog order. */
export async function listConnections(db: Db, env: TEnvironment): Promise<TConnectionJson[]> {
  const rows = await listConnectionRows(db, env);
  const byProvider = new Map(rows.map((r) => [r.providerId, r]));
  // every connection's health in one statement
  const ids = rows.map((r) => r.providerId);
  const health = ids.length ? await connectionHealth(db, env, ids) : new Map<string, TConnectionHealth>();
  return PROVIDERS.map((p) => toConnectionJson(p, byProvider.get(p.id) ?? null, health.get(p.id)));
}

export async function getConnection(db: Db, env: TEnvironment, providerId: string): Promise<TConnectionJson> {
  const provider = catalogProvider(providerId);
  const row = (await readConnection(db, env, providerId)) ?? null;
  const health = row ? (await connectionHealth(db, env, [providerId])).get(providerId) : undefined;
  return toConnectionJson(provider, row, health);
}

/** Who changes a connection: an operator's request, or `idv connections import` (lib/cli). */
export type TConnectionActor = OperatorActor | { cli: true; env: TEnvironment };

function auditScope(actor: TConnectionActor) {
  return "auth" in actor ? operatorAudit(actor) : { actor: cliActor() };
}

/** JSON with every object's keys sorted: jsonb keeps keys in an order of its own. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The names of what a change touches: adapter, enabled, settings.<key> (secrets by name only). */
function changedFields(
  before: TConnectionRow | undefined,
  after: { adapter: string; enabled: boolean; settings: Record<string, unknown> },
  secretsSet: string[],
): string[] {
  const changed: string[] = [];
  if (before?.adapter !== after.adapter) changed.push("adapter");
  if (before?.enabled !== after.enabled) changed.push("enabled");
  const old = settingsObject(before?.settings);
  for (const key of [...new Set([...Object.keys(old), ...Object.keys(after.settings)])].sort()) {
    if (canonicalJson(old[key]) !== canonicalJson(after.settings[key])) changed.push(`settings.${key}`);
  }
  for (const name of secretsSet) changed.push(`settings.${name}`);
  return changed;
}

/** 400 naming `adapter` when the catalog provider cannot run on it (its module says why). */
function refuseAdapter(provider: TProviderDefinition, adapter: TConnectionAdapter): void {
  const refusal = CONNECTION_ADAPTER_MODULES[adapter].refuses(provider);
  if (refusal !== null) throw invalidField("adapter", refusal);
  if (connectionFlows(adapter, provider).length === 0) {
    throw invalidField(
      "adapter",
      `provider "${provider.id}" offers no flow the ${adapter} adapter answers (it answers ${ADAPTER_FLOWS[adapter].join(", ")}; the provider has ${provider.flowTypes.join(", ")})`,
    );
  }
}

/**
 * The Operator API's PUT: what the settings point to is fetched first (a saml `metadataUrl`
 * without `metadataXml`: through the SSRF guard, outside any transaction), then putConnection in
 * a short transaction of its own. A refusal (the fetch included) stores nothing.
 */
export async function putConnectionFetching(
  db: Db,
  actor: TConnectionActor,
  providerId: string,
  body: TPutConnection,
): Promise<{ created: boolean; connection: TConnectionJson }> {
  refuseAdapter(catalogProvider(providerId), body.adapter);
  const { resolveInput } = CONNECTION_ADAPTER_MODULES[body.adapter].settings;
  const resolved = resolveInput ? { ...body, settings: await resolveInput(body.settings) } : body;
  return inTransaction(db, (tx) => putConnection(tx, actor, providerId, resolved));
}

/**
 * Creates or replaces the connection of `providerId` in the actor's environment. Returns it, and
 * whether it was created.
 */
export async function putConnection(
  db: Db,
  actor: TConnectionActor,
  providerId: string,
  body: TPutConnection,
): Promise<{ created: boolean; connection: TConnectionJson }> {
  const provider = catalogProvider(providerId);
  refuseAdapter(provider, body.adapter);
  const before = await readConnection(db, actor.env, providerId);
  // a secret stored for another adapter is not this one's
  const kept = before && before.adapter === body.adapter ? unsealSecrets(before) : {};
  const { settings, secrets, secretsSet } = checkSettings(body.adapter, body.settings, kept);
  const sealed = SECRET_FIELDS[body.adapter].length ? encryptSecret(JSON.stringify(secrets)) : null;
  const changed = changedFields(before, { ...body, settings }, secretsSet);
  const values = {
    adapter: body.adapter,
    enabled: body.enabled,
    settings,
    secretsEncrypted: sealed,
    // a new configuration has not failed yet
    resetState: changed.length > 0,
  };
  const row = before
    ? await updateConnection(db, actor.env, providerId, values)
    : await insertConnection(db, { id: newId("con"), environment: actor.env, providerId }, values);
  if (!row) throw missingRow();
  // disabled, or another adapter: the open sessions of the provider fail (provider_unavailable)
  const failedSessions =
    !body.enabled || (before && before.adapter !== body.adapter)
      ? await failOpenSessionsOfProvider(db, actor.env, providerId)
      : undefined;
  if (!before || changed.length || failedSessions) {
    await recordAudit(db, {
      ...auditScope(actor),
      environment: actor.env,
      action: before ? "connection.updated" : "connection.created",
      targetType: "provider_connection",
      targetId: row.id,
      data: {
        providerId,
        adapter: body.adapter,
        enabled: body.enabled,
        changed,
        ...(failedSessions === undefined ? {} : { failedSessions }),
      },
    });
    await publishInvalidation(db, CACHE_TOPICS.connections, connectionCacheKey(actor.env, providerId));
  }
  const health = before ? (await connectionHealth(db, actor.env, [providerId])).get(providerId) : undefined;
  return { created: !before, connection: toConnectionJson(provider, row, health) };
}

/** Disconnects `providerId` in the actor's environment; nothing to do when it is not connected. */
export async function deleteConnection(db: Db, actor: TConnectionActor, providerId: string): Promise<void> {
  catalogProvider(providerId);
  const row = await readConnection(db, actor.env, providerId);
  if (!row) return;
  if (!(await deleteConnectionRow(db, row.id))) throw missingRow();
  // its open sessions fail (provider_unavailable), with their events and webhooks
  const failedSessions = await failOpenSessionsOfProvider(db, actor.env, providerId);
  await recordAudit(db, {
    ...auditScope(actor),
    environment: actor.env,
    action: "connection.deleted",
    targetType: "provider_connection",
    targetId: row.id,
    data: { providerId, adapter: row.adapter, failedSessions },
  });
  await publishInvalidation(db, CACHE_TOPICS.connections, connectionCacheKey(actor.env, providerId));
}

/**
 * Records the outcome of a check (or a sign-in): no personal data, only the error's text. A change
 * of state (connected ↔ failing) publishes the invalidation: a failing connection is not offered
 * (runtime.ts connectionAvailability).
 */
export async function recordConnectionOutcome(
  db: Db,
  env: TEnvironment,
  providerId: string,
  error: string | null,
): Promise<void> {
  const now = new Date();
  const before = await readConnection(db, env, providerId);
  if (!before) return;
  const after = await updateConnectionOutcome(db, env, providerId, {
    error: error === null ? null : error.slice(0, 500),
    now,
  });
  if (!after) throw missingRow();
  if (connectionState(before) !== connectionState(after)) {
    await publishInvalidation(db, CACHE_TOPICS.connections, connectionCacheKey(env, providerId));
  }
}
