/**
 * The assertion-ID replay cache of the SAML adapter, in PostgreSQL (`saml_assertion_ids`).
 * Rules:
 * - an accepted assertion's ID is recorded per issuing entity until the assertion's own expiry,
 *   insert-if-absent in one statement: of two sign-ins posting the same assertion (on any
 *   instance) exactly one records it, the other is a replay;
 * - a row whose expiry has passed is purged in bounded batches (the assertion it names is refused
 *   by its conditions by then, so deleting it changes no answer), hourly by `saml_assertion_purge`.
 */
import { getDb, type Db, type Tx } from "../../db/client";
import { defineCommand, execute, utcParam } from "../../db/sql";
import { deleteInBatches, type TPurgeOptions } from "../../jobs/batches";
import { logger } from "../../log";

/** Records an assertion ID; false when it was already recorded (a replay). */
export interface TSamlReplayCache {
  remember(idpEntityId: string, assertionId: string, expiresAt: Date): Promise<boolean>;
}

const rememberAssertion = defineCommand<[string, string, Date]>({
  name: "saml_assertion_remember",
  text: `INSERT INTO saml_assertion_ids (idp_entity_id, assertion_id, expires_at)
         VALUES ($1, $2, ${utcParam(3)})
         ON CONFLICT (idp_entity_id, assertion_id) DO NOTHING`,
});

/** The replay cache on the database client of getDb() (outside any transaction). */
export function postgresSamlReplayCache(db: Tx): TSamlReplayCache {
  return {
    remember: async (idpEntityId, assertionId, expiresAt) =>
      (await execute(db, rememberAssertion, [idpEntityId, assertionId, expiresAt])) === 1,
  };
}

export async function purgeExpiredSamlAssertionIds(
  db: Pick<Db, "$executeRaw">,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  // the column is a UTC `timestamp without time zone`: the literal's Z is ignored on the cast
  return deleteInBatches(
    (limit) => db.$executeRaw`
      DELETE FROM saml_assertion_ids
       WHERE (idp_entity_id, assertion_id) IN (
             SELECT idp_entity_id, assertion_id FROM saml_assertion_ids
              WHERE expires_at < ${now.toISOString()}::timestamp LIMIT ${limit})`,
    batchSize,
  );
}

/** The `saml_assertion_purge` job (lib/jobs/definitions.ts), hourly. */
export async function purgeSamlAssertionIdsTask(): Promise<void> {
  const count = await purgeExpiredSamlAssertionIds(getDb());
  if (count > 0) logger.info({ count }, "expired SAML assertion IDs deleted");
}
