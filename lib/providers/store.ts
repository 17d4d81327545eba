/**
 * The providers' tables on the data layer (lib/db/kysely.ts): the SAML adapter's assertion-ID
 * replay cache, `saml_assertion_ids` (adapters/saml-replay.ts has its rules), and an app's
 * provider rows with their current activation tickets (app-providers.ts, app-listing.ts); the
 * providers' states nested in another statement's app row (`appProviderStates`).
 */
import { sql, type Selectable } from "kysely";
import { jsonArrayFrom, jsonBuildObject } from "kysely/helpers/postgres";
import type { ActivationTicket, AppProvider } from "../db/generated/kysely/types";
import { prepared, type Db } from "../db/kysely";

/** An app's provider row (app_providers), every column. */
export type TAppProviderRow = Selectable<AppProvider>;
/** An activation ticket's row, every column. */
export type TActivationTicketRow = Selectable<ActivationTicket>;

/**
 * The provider states of the app `a` of an enclosing statement, in provider id order, as a JSON
 * array of `{ o: { providerId, enabled, status } }` (a nested row names its keys itself: the data
 * layer maps only a result row's own columns). `db` is the enclosing statement's builder.
 */
export function appProviderStates(db: Db) {
  return jsonArrayFrom(
    db
      .selectFrom("appProviders as p")
      .select((pe) =>
        jsonBuildObject({
          providerId: pe.ref("p.providerId"),
          enabled: pe.ref("p.enabled"),
          status: pe.ref("p.status"),
        }).as("o"),
      )
      .where("p.appId", "=", sql.ref<string>("a.id"))
      .orderBy("p.providerId"),
  );
}

const APP_PROVIDER_ROWS = prepared("app_provider_rows", (db, p: { appId: string }) =>
  db.selectFrom("appProviders").selectAll().where("appId", "=", p.appId),
);

/** The provider rows of app `appId` (GET /v1/providers and the Workspace API's listings). */
export function readAppProviderRows(db: Db, appId: string): Promise<TAppProviderRow[]> {
  return APP_PROVIDER_ROWS.run(db, { appId });
}

/** App `appId`'s row of provider `providerId`; undefined when there is none. */
export function readAppProviderRow(
  db: Db,
  appId: string,
  providerId: string,
): Promise<TAppProviderRow | undefined> {
  return db
    .selectFrom("appProviders")
    .selectAll()
    .where("appId", "=", appId)
    .where("providerId", "=", providerId)
    .executeTakeFirst();
}

/** Switches app `appId`'s provider `providerId` on or off; whether the row was there. */
export async function setAppProviderEnabled(
  db: Db,
  appId: string,
  providerId: string,
  enabled: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable("appProviders")
    .set({ enabled, updatedAt: new Date() })
    .where("appId", "=", appId)
    .where("providerId", "=", providerId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The activation tickets `ids` (those that exist, in no particular order). */
export function readActivationTickets(db: Db, ids: readonly string[]): Promise<TActivationTicketRow[]> {
  return db
    .selectFrom("activationTickets")
    .selectAll()
    .where("id", "in", [...ids])
    .execute();
}

const REMEMBER_ASSERTION = prepared(
  "saml_assertion_remember",
  (db, p: { idpEntityId: string; assertionId: string; expiresAt: Date }) =>
    db
      .insertInto("samlAssertionIds")
      .values({ idpEntityId: p.idpEntityId, assertionId: p.assertionId, expiresAt: p.expiresAt })
      .onConflict((oc) => oc.columns(["idpEntityId", "assertionId"]).doNothing())
      .returning(sql.lit(1).as("inserted")),
);

/** Records an assertion ID until `expiresAt`, insert-if-absent: false when it was already there. */
export async function insertAssertionId(
  db: Db,
  assertion: { idpEntityId: string; assertionId: string; expiresAt: Date },
): Promise<boolean> {
  return (await REMEMBER_ASSERTION.run(db, assertion)).length === 1;
}

/** Deletes at most `limit` assertion IDs that expired before `before`: how many it deleted. */
export async function deleteExpiredAssertionIds(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("samlAssertionIds")
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple("idpEntityId", "assertionId"),
        "in",
        selectFrom("samlAssertionIds")
          .select(["idpEntityId", "assertionId"])
          .where("expiresAt", "<", before)
          .limit(limit)
          .$asTuple("idpEntityId", "assertionId"),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
