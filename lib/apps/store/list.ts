/**
 * The workspace's list of apps (GET /v1/apps), on the data layer (lib/db/kysely.ts): the count
 * and one page, each one statement; a page's apps carry what toAppJson shows (lib/apps/serialize.ts
 * `TAppSource`), their providers and workflows aggregated as JSON as in read.ts.
 */
import { jsonArrayFrom, jsonBuildObject } from "kysely/helpers/postgres";
import type { App } from "../../db/generated/kysely/types";
import { likeLiteral, type Db } from "../../db/kysely";
import { epochMs, fromEpochMs } from "../../db/timestamps";
import type { TAppSource } from "../serialize";
import { jsonValue } from "./read";

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
  const { n } = await listedApps(db, filter)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** One page of the apps `filter` lists, newest first (ids break ties), as toAppJson shows them. */
export async function listAppPage(
  db: Db,
  filter: TAppListFilter,
  { limit, offset }: { limit: number; offset: number },
): Promise<TAppSource[]> {
  const rows = await listedApps(db, filter)
    .select([
      "a.id",
      "a.workspaceId",
      "a.environment",
      "a.name",
      "a.logo",
      "a.redirectUris",
      "a.defaultWorkflowId",
      "a.defaultSuccessRedirectUri",
      "a.defaultFailureRedirectUri",
      "a.webhookUrl",
      "a.webhookEnabled",
      "a.webhookRetryAttempts",
      "a.webhookTimeoutSeconds",
      "a.webhookEvents",
      "a.pkceRequired",
      "a.createdAt",
      "a.updatedAt",
    ])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom("appProviders as p")
          .select((pe) =>
            jsonBuildObject({ providerId: pe.ref("p.providerId"), enabled: pe.ref("p.enabled") }).as("o"),
          )
          .whereRef("p.appId", "=", "a.id"),
      ).as("providers"),
      jsonArrayFrom(
        eb
          .selectFrom("workflows as w")
          .select((we) =>
            jsonBuildObject({
              id: we.ref("w.id"),
              name: we.ref("w.name"),
              entryNodeId: we.ref("w.entryNodeId"),
              nodes: jsonValue(we.ref("w.nodes")),
              positions: jsonValue(we.ref("w.positions")),
              version: we.ref("w.version"),
              createdAtMs: epochMs(we.ref("w.createdAt")),
              updatedAtMs: epochMs(we.ref("w.updatedAt")),
            }).as("o"),
          )
          .whereRef("w.appId", "=", "a.id"),
      ).as("workflows"),
    ])
    .orderBy("a.createdAt", "desc")
    .orderBy("a.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => ({
    ...row,
    providers: row.providers.map(({ o }) => o),
    workflows: row.workflows.map(({ o: { createdAtMs, updatedAtMs, ...workflow } }) => ({
      ...workflow,
      createdAt: fromEpochMs(createdAtMs),
      updatedAt: fromEpochMs(updatedAtMs),
    })),
  }));
}
