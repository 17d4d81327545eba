/**
 * The `provider_connections` rows on the data layer (lib/db/kysely.ts): the Operator API's reads
 * and writes (../service.ts), the runtime's read (../runtime.ts), the check and its re-check job
 * (../check.ts, ../recheck.ts), the test sign-in's read (../test-sign-in.ts) and the CLI's export
 * and import (lib/cli/connections.ts). The rules are theirs; this module only reads and writes.
 * Rules of its rows:
 * - a row is the generated row type (`TConnectionRow`): `settings` is `unknown`, checked by its
 *   readers (../rows.ts `settingsObject`, the adapters' schemas), written as JSON text;
 * - timestamps are set here (`createdAt` of a new row, `updatedAt` of every
 *   change: @updatedAt), from this process's clock;
 * - a write of a row that is gone (deleted concurrently) answers undefined or false: what the
 *   caller makes of it is its rule (../service.ts answers 404 RESOURCE_NOT_FOUND).
 */
import type { Selectable } from "kysely";
import { prepared, type DB, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

/** A row of provider_connections. */
export type TConnectionRow = Selectable<DB["providerConnections"]>;

// ---------------------------------------------------------------------------------------------
// Reads

const READ = prepared("connections_read", (db, p: { environment: TEnvironment; providerId: string }) =>
  db
    .selectFrom("providerConnections")
    .selectAll()
    .where("environment", "=", p.environment)
    .where("providerId", "=", p.providerId),
);

/** The connection of `providerId` in `environment`; undefined when there is none. */
export async function readConnection(
  db: Db,
  environment: TEnvironment,
  providerId: string,
): Promise<TConnectionRow | undefined> {
  const [row] = await READ.run(db, { environment, providerId });
  return row;
}

const READ_BY_ID = prepared("connections_read_by_id", (db, p: { id: string }) =>
  db.selectFrom("providerConnections").selectAll().where("id", "=", p.id),
);

/** The connection whose id is `id`; undefined when there is none. */
export async function readConnectionById(db: Db, id: string): Promise<TConnectionRow | undefined> {
  const [row] = await READ_BY_ID.run(db, { id });
  return row;
}

const LIST = prepared("connections_list", (db, p: { environment: TEnvironment }) =>
  db.selectFrom("providerConnections").selectAll().where("environment", "=", p.environment),
);

/** The connections of `environment` (in no particular order). */
export function listConnectionRows(db: Db, environment: TEnvironment): Promise<TConnectionRow[]> {
  return LIST.run(db, { environment });
}

/** The connections of `environments` (in no particular order). */
export function listConnectionRowsIn(
  db: Db,
  environments: readonly TEnvironment[],
): Promise<TConnectionRow[]> {
  if (environments.length === 0) return Promise.resolve([]);
  return db.selectFrom("providerConnections").selectAll().where("environment", "in", environments).execute();
}

/** The provider ids of `environment`'s connections other than `kept`, in order. */
export async function otherProviderIds(
  db: Db,
  environment: TEnvironment,
  kept: readonly string[],
): Promise<string[]> {
  const rows = await db
    .selectFrom("providerConnections")
    .select("providerId")
    .where("environment", "=", environment)
    .$if(kept.length > 0, (qb) => qb.where("providerId", "not in", kept))
    .orderBy("providerId", "asc")
    .execute();
  return rows.map((row) => row.providerId);
}

/** The enabled connections with an error recorded (failing, or failed once), by environment and provider. */
export function listErroredConnections(db: Db) {
  return db
    .selectFrom("providerConnections")
    .select(["environment", "providerId", "enabled", "lastErrorAt", "lastSuccessAt"])
    .where("enabled", "=", true)
    .where("lastErrorAt", "is not", null)
    .orderBy("environment", "asc")
    .orderBy("providerId", "asc")
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Writes

/** What a PUT writes: the configuration, and the state reset when the configuration changed. */
export interface TConnectionValues {
  adapter: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  secretsEncrypted: string | null;
  /** a new configuration has not failed yet: lastError, lastErrorAt and the streak cleared */
  resetState: boolean;
}

function written(values: TConnectionValues, now: Date) {
  return {
    adapter: values.adapter,
    enabled: values.enabled,
    settings: JSON.stringify(values.settings),
    secretsEncrypted: values.secretsEncrypted,
    ...(values.resetState ? { lastError: null, lastErrorAt: null, failureStreak: 0 } : {}),
    updatedAt: now,
  };
}

/** Creates the connection of `providerId` in `environment`; a taken pair throws 23505. */
export async function insertConnection(
  db: Db,
  row: { id: string; environment: TEnvironment; providerId: string },
  values: TConnectionValues,
): Promise<TConnectionRow> {
  const now = new Date();
  return db
    .insertInto("providerConnections")
    .values({ ...row, ...written(values, now), createdAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Creates the connection unless one of `providerId` in `environment` exists; whether it did. */
export async function insertConnectionIfAbsent(
  db: Db,
  row: { id: string; environment: TEnvironment; providerId: string },
  values: Omit<TConnectionValues, "resetState">,
): Promise<boolean> {
  const now = new Date();
  const inserted = await db
    .insertInto("providerConnections")
    .values({ ...row, ...written({ ...values, resetState: false }, now), createdAt: now })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Replaces the configuration of the connection of `providerId` in `environment`; undefined when there is none. */
export function updateConnection(
  db: Db,
  environment: TEnvironment,
  providerId: string,
  values: TConnectionValues,
): Promise<TConnectionRow | undefined> {
  return db
    .updateTable("providerConnections")
    .set(written(values, new Date()))
    .where("environment", "=", environment)
    .where("providerId", "=", providerId)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes connection `id` (its health buckets go with it); whether there was one. */
export async function deleteConnectionRow(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("providerConnections").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Records a check's (or a sign-in's) outcome on the connection of `providerId` in `environment`
 * at `now`: a success (`error` null) sets lastSuccessAt and clears the streak, a failure sets
 * lastError and lastErrorAt. The row as it is after; undefined when there is none.
 */
export function updateConnectionOutcome(
  db: Db,
  environment: TEnvironment,
  providerId: string,
  outcome: { error: string | null; now: Date },
): Promise<TConnectionRow | undefined> {
  const { error, now } = outcome;
  return db
    .updateTable("providerConnections")
    .set(
      error === null
        ? { lastSuccessAt: now, failureStreak: 0, updatedAt: now }
        : { lastError: error, lastErrorAt: now, updatedAt: now },
    )
    .where("environment", "=", environment)
    .where("providerId", "=", providerId)
    .returningAll()
    .executeTakeFirst();
}
