/**
 * Claims on custom-domain hosts (lib/domains/claims.ts has the rules), on the data layer
 * (lib/db/kysely.ts): the hosts' advisory locks, the domains using some hosts, the expired claims
 * locked for deletion, and deleting domains.
 */
import { prepared, type Db } from "../../db/kysely";

const LOCK_HOST = prepared("domains_lock_host", (db, p: { key: string }) =>
  db.selectNoFrom((eb) =>
    eb.fn("pg_advisory_xact_lock", [eb.fn("hashtextextended", [eb.val(p.key), eb.lit(0)])]).as("locked"),
  ),
);

/** A transaction-scoped advisory lock on host name `host` (claims.ts takes them in sorted order). */
export async function lockHostName(db: Db, host: string): Promise<void> {
  await LOCK_HOST.run(db, { key: `custom-domain:${host}` });
}

/**
 * The domains that use one of `hosts` in either role (but `exceptId`), with whether their app is
 * deleted and its workspace and environment.
 */
export async function readDomainsOnHosts(db: Db, hosts: readonly string[], exceptId?: string) {
  let query = db
    .selectFrom("customDomains as d")
    .innerJoin("apps as a", "a.id", "d.appId")
    .select([
      "d.id",
      "d.appId",
      "d.webDomain",
      "d.oidcDomain",
      "d.status",
      "a.deletedAt",
      "a.workspaceId",
      "a.environment",
    ])
    .where((eb) => eb.or([eb("d.webDomain", "in", hosts), eb("d.oidcDomain", "in", hosts)]));
  if (exceptId !== undefined) query = query.where("d.id", "<>", exceptId);
  return query.execute();
}

/** Deletes domain `id`: whether there was one. */
export async function deleteDomain(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("customDomains").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Up to `limit` claims (domains that are not active) expired at `now`, the oldest expiry first,
 * locked for the rest of the transaction; rows another transaction holds are skipped.
 */
export async function lockExpiredClaims(db: Db, now: Date, limit: number) {
  return db
    .selectFrom("customDomains as d")
    .innerJoin("apps as a", "a.id", "d.appId")
    .select(["d.id", "d.appId", "d.webDomain", "d.oidcDomain", "d.status", "a.workspaceId", "a.environment"])
    .where("d.status", "<>", "active")
    .where("d.claimExpiresAt", "<=", now)
    .orderBy("d.claimExpiresAt")
    .limit(limit)
    .forUpdate("d")
    .skipLocked()
    .execute();
}

/** Deletes the domains `ids`. */
export async function deleteDomains(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("customDomains").where("id", "in", ids).execute();
}
