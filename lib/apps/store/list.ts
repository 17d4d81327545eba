/**
 * The workspace's list of apps (GET /v1/apps), on the data layer (lib/db/kysely.ts): the count
 * and one page, each one statement; a page's apps carry what toAppJson shows (lib/apps/serialize.ts
 * `TAppSource`): read.ts's `appViewSelection`, as GET /v1/apps/{clientId} reads one app.
 */
import type { App } from "../../db/generated/kysely/types";
import { countRows, likeLiteral, type Db } from "../../db/kysely";
import type { TAppSource } from "../serialize";
import { appViewOf, appViewSelection } from "./read";

/** Which apps listAppPage lists: a workspace's live apps of one environment, maybe searched. */
export interface TAppListFilter {
  workspaceId: string;
  environment: App["environment"];
  /** part of the name (any case; `%` and `_` are literal) or the exact clientId */
  search?: string;
}

function listedApps(db: Db, filter: TAppListFilter) {
  let query = db
    .selectFrom("apps as a")
    .where("a.workspaceId", "=", filter.workspaceId)
    .where("a.environment", "=", filter.environment)
    .where("a.deletedAt", "is", null);
  const search = filter.search;
  if (search)
    query = query.where((eb) =>
      eb.or([eb("a.name", "ilike", `%${likeLiteral(search)}%`), eb("a.id", "=", search)]),
    );
  return query;
}

/** How many apps `filter` lists. */
export async function countApps(db: Db, filter: TAppListFilter): Promise<number> {
  return countRows(listedApps(db, filter));
}

/** One page of the apps `filter` lists, newest first (ids break ties), as toAppJson shows them. */
export async function listAppPage(
  db: Db,
  filter: TAppListFilter,
  { limit, offset }: { limit: number; offset: number },
): Promise<TAppSource[]> {
  const rows = await listedApps(db, filter)
    .select((eb) => appViewSelection(eb))
    .orderBy("a.createdAt", "desc")
    .orderBy("a.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(appViewOf);
}
