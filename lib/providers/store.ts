/**
 * The providers' tables on the data layer (lib/db/kysely.ts): so far the SAML adapter's
 * assertion-ID replay cache, `saml_assertion_ids` (adapters/saml-replay.ts has its rules).
 */
import { sql } from "kysely";
import { prepared, type Db } from "../db/kysely";

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
