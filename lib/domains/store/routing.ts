/**
 * The reads that decide what a host serves (lib/domains/routing.ts, served-app.ts), on the data
 * layer (lib/db/kysely.ts). Prepared: the active host's read runs for every request to a custom
 * domain the routing cache does not hold, the verification's app for every hosted request on one.
 * `'active'` is a literal, not a parameter: a prepared statement's generic plan can then use the
 * partial unique indexes over active domains.
 */
import { sql } from "kysely";
import { prepared, type Db } from "../../db/kysely";

const ACTIVE_HOST = prepared("domains_active_host", (db, p: { host: string }) =>
  db
    .selectFrom("customDomains as d")
    .innerJoin("apps as a", "a.id", "d.appId")
    .select(["d.webDomain", "a.environment", "d.appId"])
    .where((eb) => eb.or([eb("d.webDomain", "=", p.host), eb("d.oidcDomain", "=", p.host)]))
    .where("d.status", "=", sql.lit("active"))
    .where("a.deletedAt", "is", null)
    .limit(1),
);

/** The active custom domain of a live app using `host` in either role: its web host, environment, app. */
export async function readActiveHost(db: Db, host: string) {
  const [row] = await ACTIVE_HOST.run(db, { host });
  return row;
}

const TLS_HOST = prepared("domains_tls_host", (db, p: { host: string }) =>
  db
    .selectFrom("customDomains as d")
    .innerJoin("apps as a", "a.id", "d.appId")
    .select([
      "d.id",
      "d.webDomain",
      "d.oidcDomain",
      "d.status",
      "d.requiredAction",
      "d.statusMessage",
      "d.lastCheckedAt",
      "a.id as appId",
      "a.name as appName",
      "a.deletedAt",
      "a.environment",
      "a.workspaceId",
    ])
    .where((eb) => eb.or([eb("d.webDomain", "=", p.host), eb("d.oidcDomain", "=", p.host)]))
    // the active domain of a live app first, else the oldest claim
    .orderBy((eb) => eb.and([eb("d.status", "=", sql.lit("active")), eb("a.deletedAt", "is", null)]), "desc")
    .orderBy("d.createdAt")
    .limit(1),
);

/** The custom domain `host` belongs to, in either role, any state, its app deleted or not. */
export async function readTlsHost(db: Db, host: string) {
  const [row] = await TLS_HOST.run(db, { host });
  return row;
}

const VERIFICATION_APP = prepared("domains_verification_app", (db, p: { id: string }) =>
  db.selectFrom("verifications").select("appId").where("id", "=", p.id),
);

/** The app of verification `id` (one primary-key read); undefined when there is none. */
export async function readVerificationApp(db: Db, id: string): Promise<string | undefined> {
  const [row] = await VERIFICATION_APP.run(db, { id });
  return row?.appId;
}
