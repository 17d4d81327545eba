/**
 * The custom domains as support sees them (lib/operators/custom-domains.ts), on the data layer
 * (lib/db/kysely.ts): the list of an environment's domains with their app and workspace, its
 * count.
 */
import type { Environment } from "../../db/generated/kysely/types";
import { countRows, type Db } from "../../db/kysely";

export interface TOperatorDomainFilter {
  environment: Environment;
  status?: string;
  /** the search as typed: an app or workspace id */
  search?: string;
  /** the search as a LIKE pattern's literal part (lowercased, wildcards escaped) for the hosts */
  hostPattern?: string;
}

/** The domains of live apps of the filter's environment, with its status and search. */
function filtered(db: Db, f: TOperatorDomainFilter) {
  let query = db
    .selectFrom("customDomains as d")
    .innerJoin("apps as a", "a.id", "d.appId")
    .where("a.environment", "=", f.environment)
    .where("a.deletedAt", "is", null);
  if (f.status !== undefined) query = query.where("d.status", "=", f.status);
  const { search, hostPattern } = f;
  if (search !== undefined && hostPattern !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb("d.webDomain", "like", `%${hostPattern}%`),
        eb("d.oidcDomain", "like", `%${hostPattern}%`),
        eb("d.appId", "=", search),
        eb("a.workspaceId", "=", search),
      ]),
    );
  return query;
}

/** How many domains the filter finds. */
export async function countOperatorDomains(db: Db, f: TOperatorDomainFilter): Promise<number> {
  return countRows(filtered(db, f));
}

/** A page of the domains the filter finds, newest first, with their app's and workspace's names. */
export async function listOperatorDomains(
  db: Db,
  f: TOperatorDomainFilter,
  page: { limit: number; offset: number },
) {
  return filtered(db, f)
    .innerJoin("workspaces as w", "w.id", "a.workspaceId")
    .selectAll("d")
    .select(["a.name as appName", "a.workspaceId", "w.name as workspaceName"])
    .orderBy("d.createdAt", "desc")
    .orderBy("d.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
