/**
 * What the adapters read at run time (issue 24): the enabled connection of a provider in an
 * environment, as its adapter's configuration; and the one-time import of the two former
 * environment variables into connections.
 * Rules:
 * - cached per process (lib/cache/derived-cache.ts) under "<environment> <providerId>", dropped
 *   by the `provider_connections` invalidation every change publishes (service.ts), so every
 *   instance sees a PUT or DELETE as soon as it commits;
 * - no connection, a disabled one, or another adapter's → null (the caller refuses cleanly); a
 *   stored connection the adapter no longer accepts is logged and treated as absent, never a 500;
 * - availability (the honest catalog, issue 24 §2): a production provider is available only while
 *   its connection is enabled, accepted by its adapter and not `failing` (its last check or outcome
 *   failed after its last success); the sandbox always is (every provider runs on the simulator).
 *   A failing connection comes back when a check succeeds (POST …/check, or the
 *   `connection_recheck` job every 5 minutes: recheck.ts);
 * - IDV_UPSTREAM_OIDC / IDV_WALLET_TRUSTED_ISSUERS, when set, are imported once at start-up
 *   (lib/cli/serve.ts) into production connections that do not exist yet (audited, system actor),
 *   with a warning telling the operator to manage them through the Operator API; an existing
 *   connection is never overwritten. IDV_UPSTREAM_OIDC's claimMapping keeps its former direction
 *   (OIDC claim → upstream name) and is turned around on import.
 */
import { z } from "zod";
import { recordAudit } from "../audit";
import { SYSTEM_ACTOR } from "../auth/actor";
import { DerivedCache } from "../cache/derived-cache";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import { config, parseSetting } from "../config";
import { encryptSecret } from "../crypto/encryption";
import { kysely } from "../db/client";
import { inTransaction, type Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { newId } from "../ids";
import { logger } from "../log";
import { invertLegacyClaimMapping, ZOidcUpstreamConfig } from "../providers/adapters/oidc-settings";
import { ZWalletTrustConfig } from "../providers/adapters/wallet";
import { findProvider, type TFlowType } from "../providers/catalog";
import {
  adapterSettings,
  connectionCacheKey,
  connectionFlows,
  SECRET_FIELDS,
  type TAdapterSettings,
  type TConnectionAdapter,
  type TUnavailableReason,
} from "./schema";
import { CONNECTION_ADAPTER_MODULES } from "./adapters/registry";
import { connectionState, parseConnectionAdapter, unsealSecrets } from "./rows";
import { insertConnectionIfAbsent, readConnection } from "./store/connections";

export type TRuntimeConnection = {
  [A in TConnectionAdapter]: { adapter: A; settings: TAdapterSettings[A] };
}[TConnectionAdapter];

export type TConnectionAvailability =
  | {
      available: true;
      /**
       * production: the flows its connection answers (an OIDC or SAML front door is a redirect,
       * whatever the scheme's own apps offer; the wallet adapter answers through the Digital
       * Credentials API); null in the sandbox, where the simulator plays every flow of the catalog
       */
      flows: readonly TFlowType[] | null;
    }
  | { available: false; reason: TUnavailableReason; message: string };

interface TCachedConnection {
  /** the enabled connection as its adapter's settings (null: none, disabled, or refused) */
  connection: TRuntimeConnection | null;
  availability: TConnectionAvailability;
}

let cache: DerivedCache<TCachedConnection> | undefined;
function connections(): DerivedCache<TCachedConnection> {
  return (cache ??= new DerivedCache({
    topic: CACHE_TOPICS.connections,
    ttlMs: 5 * 60_000,
    maxEntries: 1000,
  }));
}

function unavailable(reason: TUnavailableReason, providerId: string): TConnectionAvailability {
  const what =
    reason === "disabled"
      ? "its connection is disabled"
      : reason === "failing"
        ? "its connection is failing"
        : "no connection to its identity provider";
  return {
    available: false,
    reason,
    message: `Provider "${providerId}" is not connected in this deployment (${what}); ask the operator to connect it`,
  };
}

async function load(db: Db, env: TEnvironment, providerId: string): Promise<TCachedConnection> {
  const row = await readConnection(db, env, providerId);
  if (!row) return { connection: null, availability: unavailable("not_connected", providerId) };
  if (!row.enabled) return { connection: null, availability: unavailable("disabled", providerId) };
  // an adapter outside the list is a corrupt row (a clear error), not a connection its adapter refuses
  const adapter = parseConnectionAdapter(row.adapter);
  let connection: TRuntimeConnection;
  try {
    connection = {
      adapter,
      settings: adapterSettings(adapter, row.settings, unsealSecrets(row)),
    } as TRuntimeConnection;
  } catch (err) {
    // the zod issue list names fields, never values
    logger.warn(
      { environment: env, providerId, error: err instanceof Error ? err.message.slice(0, 500) : "error" },
      "stored connection refused by its adapter; treated as not connected",
    );
    return { connection: null, availability: unavailable("not_connected", providerId) };
  }
  const provider = findProvider(providerId);
  const flows = provider ? connectionFlows(adapter, provider) : [];
  return {
    connection,
    availability:
      connectionState(row) === "failing"
        ? unavailable("failing", providerId)
        : flows.length === 0
          ? unavailable("not_connected", providerId)
          : { available: true, flows },
  };
}

function cached(env: TEnvironment, providerId: string, db?: Db): Promise<TCachedConnection> {
  return connections().get(connectionCacheKey(env, providerId), async () => ({
    value: await load(db ? db : kysely(), env, providerId),
  }));
}

/** The enabled connection of `providerId` in `env` for `adapter`, as the adapter's settings; else null. */
export async function connectionSettings<A extends TConnectionAdapter>(
  env: TEnvironment,
  providerId: string,
  adapter: A,
): Promise<TAdapterSettings[A] | null> {
  const found = (await cached(env, providerId)).connection;
  return found?.adapter === adapter ? (found.settings as TAdapterSettings[A]) : null;
}

/** The enabled connection of `providerId` in `env`, whatever its adapter, with its settings; else null. */
export async function enabledConnection(
  env: TEnvironment,
  providerId: string,
): Promise<TRuntimeConnection | null> {
  return (await cached(env, providerId)).connection;
}

/**
 * Whether sessions of `providerId` can start in `env`: always in the sandbox (the simulator);
 * in production only with an enabled, accepted, not failing connection. `db` (the caller's
 * transaction) loads it on a cache miss, so a request never waits for a second connection.
 */
export async function connectionAvailability(
  env: TEnvironment,
  providerId: string,
  db?: Db,
): Promise<TConnectionAvailability> {
  if (env === "sandbox") return { available: true, flows: null };
  return (await cached(env, providerId, db)).availability;
}

/** connectionAvailability of several providers, by provider id. */
export async function connectionAvailabilities(
  env: TEnvironment,
  providerIds: readonly string[],
  db?: Db,
): Promise<Map<string, TConnectionAvailability>> {
  const found = await Promise.all(providerIds.map((id) => connectionAvailability(env, id, db)));
  return new Map(providerIds.map((id, i) => [id, found[i]!]));
}

/** The `available` and `unavailableReason` fields of a provider entry. */
export function availabilityFields(a: TConnectionAvailability): {
  available: boolean;
  unavailableReason: TUnavailableReason | null;
} {
  return a.available
    ? { available: true, unavailableReason: null }
    : { available: false, unavailableReason: a.reason };
}

// ---------------------------------------------------------------------------------------------
// The former environment variables

const IMPORTS = [
  {
    variable: "IDV_UPSTREAM_OIDC",
    adapter: "oidc",
    // the variable's claimMapping keeps its former direction (OIDC claim → upstream name): turned
    // around on import into the connections' (upstream name → OIDC claim)
    schema: z.record(
      z.string(),
      z.preprocess(
        (entry) =>
          entry && typeof entry === "object" && !Array.isArray(entry) && "claimMapping" in entry
            ? { ...entry, claimMapping: invertLegacyClaimMapping(entry.claimMapping) }
            : entry,
        ZOidcUpstreamConfig,
      ),
    ),
  },
  {
    variable: "IDV_WALLET_TRUSTED_ISSUERS",
    adapter: "wallet",
    schema: z.record(z.string(), ZWalletTrustConfig),
  },
] as const;

/** The entries of both variables, checked against their adapter's schema (ConfigError when bad). */
export function environmentConnections(): {
  variable: string;
  adapter: TConnectionAdapter;
  entries: Record<string, Record<string, unknown>>;
}[] {
  const sources = {
    IDV_UPSTREAM_OIDC: config().upstreamOidc,
    IDV_WALLET_TRUSTED_ISSUERS: config().walletTrustedIssuers,
  };
  return IMPORTS.map(({ variable, adapter, schema }) => ({
    variable,
    adapter,
    entries: parseSetting(
      variable,
      schema as z.ZodType<Record<string, Record<string, unknown>>>,
      sources[variable],
    ),
  }));
}

/**
 * Imports the variables' entries into production connections that do not exist yet. Returns the
 * start-up warnings (none when both variables are unset).
 */
export async function importEnvironmentConnections(): Promise<string[]> {
  const warnings: string[] = [];
  for (const { variable, adapter, entries } of environmentConnections()) {
    const ids = Object.keys(entries);
    if (ids.length === 0) continue;
    const imported: string[] = [];
    const skipped: string[] = [];
    for (const providerId of ids) {
      const provider = findProvider(providerId);
      if (!provider || CONNECTION_ADAPTER_MODULES[adapter].refuses(provider) !== null) {
        skipped.push(providerId);
        continue;
      }
      const entry = entries[providerId]!;
      const settings = Object.fromEntries(
        Object.entries(entry).filter(([k]) => !SECRET_FIELDS[adapter].includes(k)),
      );
      const secrets = Object.fromEntries(
        Object.entries(entry).filter(([k]) => SECRET_FIELDS[adapter].includes(k)),
      );
      const id = newId("con");
      // one transaction per connection; the insert skips a connection that exists (another
      // instance starting at the same time, or an operator's), so nothing is imported twice
      const created = await inTransaction(kysely(), async (tx) => {
        const inserted = await insertConnectionIfAbsent(
          tx,
          { id, environment: "production", providerId },
          {
            adapter,
            enabled: true,
            settings,
            secretsEncrypted: SECRET_FIELDS[adapter].length ? encryptSecret(JSON.stringify(secrets)) : null,
          },
        );
        if (!inserted) return false;
        await recordAudit(tx, {
          actor: SYSTEM_ACTOR,
          environment: "production",
          action: "connection.created",
          targetType: "provider_connection",
          targetId: id,
          data: {
            providerId,
            adapter,
            enabled: true,
            importedFrom: variable,
            changed: ["adapter", "enabled", ...Object.keys(entry).map((k) => `settings.${k}`)],
          },
        });
        await publishInvalidation(tx, CACHE_TOPICS.connections, connectionCacheKey("production", providerId));
        return true;
      });
      if (!created) {
        skipped.push(providerId);
        continue;
      }
      imported.push(providerId);
    }
    warnings.push(
      `${variable} is deprecated: connections are managed through the Operator API (/api/production/v1/operator/connections, see docs/connections.md).` +
        (imported.length ? ` Imported into production connections: ${imported.join(", ")}.` : "") +
        (skipped.length
          ? ` Not imported (a connection exists, or not a catalog provider for this adapter): ${skipped.join(", ")}.`
          : "") +
        ` Remove ${variable} once the connections are as you want them; it is read only at start-up and never overwrites a connection.`,
    );
  }
  return warnings;
}
