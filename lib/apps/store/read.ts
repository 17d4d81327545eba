/**
 * The apps table with its providers and workflows, on the data layer (lib/db/kysely.ts).
 * `readApp` is the one read of an app with both (getOwnedApp, lib/apps/service.ts, for every
 * route and use case that loads an app): one prepared statement, the relations aggregated as
 * JSON (`jsonArrayFrom` of one `jsonBuildObject` per row, `o`: the data layer maps only a result
 * row's own columns, so a nested row names its keys itself), with every column of the three
 * tables.
 * Rules of rows read as JSON:
 * - timestamps travel as epoch milliseconds (lib/db/timestamps.ts) and become Dates here;
 * - json columns travel as themselves (pg parses the result's JSON once).
 */
import type { Expression, ExpressionBuilder, RawBuilder } from "kysely";
import { sql } from "kysely";
import { jsonArrayFrom, jsonBuildObject } from "kysely/helpers/postgres";
import type { App, AppProvider, Workflow } from "../../db/rows";
import { prepared, type Db, type DB } from "../../db/kysely";
import { epochMs, epochMsOrNull, fromEpochMs, fromEpochMsOrNull } from "../../db/timestamps";
import type { TAppSource } from "../serialize";

/** A JSON document as the generated row types type it. */
type TJson = Workflow["nodes"];

/** A json/jsonb column inside the aggregated JSON, typed as the row's own column. */
const jsonValue = (column: Expression<unknown>): RawBuilder<TJson> => sql<TJson>`${column}`;

const APP_COLUMNS = [
  "id",
  "workspaceId",
  "environment",
  "name",
  "logo",
  "redirectUris",
  "defaultWorkflowId",
  "defaultSuccessRedirectUri",
  "defaultFailureRedirectUri",
  "clientSecretHash",
  "clientSecretRotatedAt",
  "webhookUrl",
  "webhookEnabled",
  "webhookRetryAttempts",
  "webhookTimeoutSeconds",
  "webhookEvents",
  "webhookSecretEncrypted",
  "pkceRequired",
  "tokenEndpointAuthMethod",
  "jwksUri",
  "requirePushedAuthorizationRequests",
  "requireDpop",
  "oidcProfile",
  "createdAt",
  "updatedAt",
  "deletedAt",
] as const;

const APP_WITH_RELATIONS = prepared("app_read", (db, p: { clientId: string }) =>
  db
    .selectFrom("apps as a")
    .select(APP_COLUMNS)
    .select((eb) => [
      jsonValue(eb.ref("a.companyInfo")).as("companyInfo"),
      jsonValue(eb.ref("a.jwks")).as("jwks"),
      jsonArrayFrom(
        eb
          .selectFrom("appProviders as p")
          .select((pe) =>
            jsonBuildObject({
              appId: pe.ref("p.appId"),
              providerId: pe.ref("p.providerId"),
              enabled: pe.ref("p.enabled"),
              status: pe.ref("p.status"),
              config: jsonValue(pe.ref("p.config")),
              currentTicketId: pe.ref("p.currentTicketId"),
              activatedAtMs: epochMsOrNull(pe.ref("p.activatedAt")),
              createdAtMs: epochMs(pe.ref("p.createdAt")),
              updatedAtMs: epochMs(pe.ref("p.updatedAt")),
            }).as("o"),
          )
          .whereRef("p.appId", "=", "a.id")
          .orderBy("p.providerId"),
      ).as("providers"),
      jsonArrayFrom(
        eb
          .selectFrom("workflows as w")
          .select((we) =>
            jsonBuildObject({
              id: we.ref("w.id"),
              appId: we.ref("w.appId"),
              name: we.ref("w.name"),
              entryNodeId: we.ref("w.entryNodeId"),
              nodes: jsonValue(we.ref("w.nodes")),
              positions: jsonValue(we.ref("w.positions")),
              version: we.ref("w.version"),
              createdAtMs: epochMs(we.ref("w.createdAt")),
              updatedAtMs: epochMs(we.ref("w.updatedAt")),
            }).as("o"),
          )
          .whereRef("w.appId", "=", "a.id")
          .orderBy("w.id"),
      ).as("workflows"),
    ])
    .where("a.id", "=", p.clientId),
);

/** An app with its providers and workflows (every column). */
export type TAppWithRelations = App & { providers: AppProvider[]; workflows: Workflow[] };

/** App `clientId` with its providers and workflows, deleted or not; undefined when there is none. */
export async function readApp(db: Db, clientId: string): Promise<TAppWithRelations | undefined> {
  const [row] = await APP_WITH_RELATIONS.run(db, { clientId });
  if (!row) return undefined;
  const { providers, workflows, ...app } = row;
  return {
    ...app,
    providers: providers.map(({ o: { activatedAtMs, createdAtMs, updatedAtMs, ...provider } }) => ({
      ...provider,
      activatedAt: fromEpochMsOrNull(activatedAtMs),
      createdAt: fromEpochMs(createdAtMs),
      updatedAt: fromEpochMs(updatedAtMs),
    })),
    workflows: workflows.map(({ o: { createdAtMs, updatedAtMs, ...workflow } }) => ({
      ...workflow,
      createdAt: fromEpochMs(createdAtMs),
      updatedAt: fromEpochMs(updatedAtMs),
    })),
  };
}

// What toAppJson shows (lib/apps/serialize.ts `TAppSource`) of an app `a`, its providers and its
// workflows: GET /v1/apps/{clientId} (one app) and GET /v1/apps (a page) read only this. The read
// of every column above costs those routes a sixth of their throughput (the secrets, the
// providers' configuration and the timestamps travel and are mapped for nothing).
const VIEW_COLUMNS = [
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
  "a.tokenEndpointAuthMethod",
  "a.jwks",
  "a.jwksUri",
  "a.requirePushedAuthorizationRequests",
  "a.requireDpop",
  "a.oidcProfile",
  "a.createdAt",
  "a.updatedAt",
  "a.deletedAt",
] as const;

/** The selection of an app's view (`a`: the apps table). */
export function appViewSelection(eb: ExpressionBuilder<DB & { a: DB["apps"] }, "a">) {
  return [
    ...VIEW_COLUMNS,
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
  ] as const;
}

/** A row of `appViewSelection` as toAppJson reads it (relations unwrapped, timestamps as Dates). */
export function appViewOf<
  R extends {
    providers: { o: { providerId: string; enabled: boolean } }[];
    workflows: { o: TViewWorkflow & { createdAtMs: number; updatedAtMs: number } }[];
  },
>(row: R): Omit<R, "providers" | "workflows"> & Pick<TAppSource, "providers" | "workflows"> {
  const { providers, workflows, ...app } = row;
  return {
    ...app,
    providers: providers.map(({ o }) => o),
    workflows: workflows.map(({ o: { createdAtMs, updatedAtMs, ...workflow } }) => ({
      ...workflow,
      createdAt: fromEpochMs(createdAtMs),
      updatedAt: fromEpochMs(updatedAtMs),
    })),
  };
}

type TViewWorkflow = Omit<TAppSource["workflows"][number], "createdAt" | "updatedAt">;

const APP_VIEW = prepared("app_view", (db, p: { clientId: string }) =>
  db
    .selectFrom("apps as a")
    .select((eb) => appViewSelection(eb))
    .where("a.id", "=", p.clientId),
);

/** What GET /v1/apps/{clientId} shows of app `clientId`, deleted or not; undefined when there is none. */
export async function readAppView(
  db: Db,
  clientId: string,
): Promise<(TAppSource & { deletedAt: Date | null }) | undefined> {
  const [row] = await APP_VIEW.run(db, { clientId });
  return row === undefined ? undefined : appViewOf(row);
}
