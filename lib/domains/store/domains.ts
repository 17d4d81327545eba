/**
 * An app's custom domain row (lib/domains/service.ts, recheck.ts), on the data layer
 * (lib/db/kysely.ts): read, create, lock, the values of a check, and the background re-check's
 * lease. Rows are the generated type (`selectAll`); `dnsRecords` and `dnsChecks` are JSON read as
 * `unknown` (serialize.ts checks them) and written as JSON text. Timestamps (`createdAt`,
 * `updatedAt`) are set here.
 */
import type { Selectable } from "kysely";
import type { CustomDomain } from "../../db/generated/kysely/types";
import { prepared, type Db } from "../../db/kysely";

/** Whether `err` is PostgreSQL's unique violation. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && "code" in err && err.code === "23505";
}

/** A `custom_domains` row. */
export type TCustomDomainRow = Selectable<CustomDomain>;

/** What a check writes to the row (lib/domains/check.ts `checkUpdate`). */
export interface TCheckedValues {
  status: string;
  requiredAction: string;
  statusMessage: string | null;
  /** JSON text of the per-record results; null when DNS was not asked */
  dnsChecks: string | null;
  lastCheckedAt: Date;
  activatedAt: Date | null;
  nextCheckAt: Date | null;
  autoChecks: number;
  pendingSince: Date | null;
  claimExpiresAt: Date | null;
}

const DOMAIN_OF_APP = prepared("domains_of_app", (db, p: { appId: string }) =>
  db.selectFrom("customDomains").selectAll().where("appId", "=", p.appId),
);

/** The custom domain of app `appId`, undefined when it has none. */
export async function readDomainOfApp(db: Db, appId: string): Promise<TCustomDomainRow | undefined> {
  const [row] = await DOMAIN_OF_APP.run(db, { appId });
  return row;
}

export interface TNewCustomDomain {
  id: string;
  appId: string;
  webDomain: string;
  oidcDomain: string;
  status: string;
  requiredAction: string;
  /** JSON text of the records */
  dnsRecords: string;
  verificationToken: string;
  nextCheckAt: Date | null;
  autoChecks: number;
  pendingSince: Date | null;
  claimExpiresAt: Date | null;
}

/** Creates a custom domain; another one of the same app throws 23505 (unique `app_id`). */
export async function insertDomain(db: Db, values: TNewCustomDomain): Promise<TCustomDomainRow> {
  const now = new Date();
  return db
    .insertInto("customDomains")
    .values({ ...values, createdAt: now, updatedAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Domain `id` locked for the rest of the transaction, as it is now; undefined when it is gone. */
export async function lockDomain(db: Db, id: string): Promise<TCustomDomainRow | undefined> {
  return db.selectFrom("customDomains").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

/** Writes the values of a check to domain `id`: the row written, undefined when it is gone. */
export async function writeCheck(
  db: Db,
  id: string,
  values: TCheckedValues,
): Promise<TCustomDomainRow | undefined> {
  return db
    .updateTable("customDomains")
    .set({ ...values, updatedAt: new Date() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Claims up to `limit` domains due for a re-check at `now` (pending, next check due, the oldest
 * first; rows another claim holds skipped) by moving their next check to `lease`: their ids.
 */
export async function leaseDueDomains(db: Db, now: Date, lease: Date, limit: number): Promise<string[]> {
  const rows = await db
    .updateTable("customDomains")
    .set({ nextCheckAt: lease })
    .where("id", "in", (eb) =>
      eb
        .selectFrom("customDomains")
        .select("id")
        .where("status", "in", ["awaiting_dns", "verifying"])
        .where("nextCheckAt", "<=", now)
        .orderBy("nextCheckAt")
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}

/** Domain `id` while it holds `lease`, with its app's workspace and environment. */
export async function readLeasedDomain(db: Db, id: string, lease: Date) {
  return db
    .selectFrom("customDomains as d")
    .innerJoin("apps as a", "a.id", "d.appId")
    .selectAll("d")
    .select(["a.workspaceId", "a.environment"])
    .where("d.id", "=", id)
    .where("d.nextCheckAt", "=", lease)
    .executeTakeFirst();
}

/** Writes the values of a check to domain `id` only while it holds `lease`: whether it did. */
export async function writeLeasedCheck(
  db: Db,
  id: string,
  lease: Date,
  values: TCheckedValues,
): Promise<boolean> {
  const result = await db
    .updateTable("customDomains")
    .set({ ...values, updatedAt: new Date() })
    .where("id", "=", id)
    .where("nextCheckAt", "=", lease)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
