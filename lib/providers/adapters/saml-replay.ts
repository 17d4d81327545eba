/**
 * The assertion-ID replay cache of the SAML adapter, in PostgreSQL (`saml_assertion_ids`).
 * Rules:
 * - an accepted assertion's ID is recorded per issuing entity until the assertion's own expiry,
 *   insert-if-absent in one statement: of two sign-ins posting the same assertion (on any
 *   instance) exactly one records it, the other is a replay;
 * - a row whose expiry has passed is purged in bounded batches (the assertion it names is refused
 *   by its conditions by then, so deleting it changes no answer), hourly by `saml_assertion_purge`.
 */
import { kysely, type Db } from "../../db/client";
import { deleteInBatches, type TPurgeOptions } from "../../jobs/batches";
import { logger } from "../../log";
import { deleteExpiredAssertionIds, insertAssertionId } from "../store";

/** Records an assertion ID; false when it was already recorded (a replay). */
export interface TSamlReplayCache {
  remember(idpEntityId: string, assertionId: string, expiresAt: Date): Promise<boolean>;
}

/** The replay cache on the database client of kysely() (outside any transaction). */
export function postgresSamlReplayCache(db: Db): TSamlReplayCache {
  return {
    remember: (idpEntityId, assertionId, expiresAt) =>
      insertAssertionId(db, { idpEntityId, assertionId, expiresAt }),
  };
}

export async function purgeExpiredSamlAssertionIds(
  db: Db,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  return deleteInBatches((limit) => deleteExpiredAssertionIds(db, now, limit), batchSize);
}

/** The `saml_assertion_purge` job (lib/jobs/definitions.ts), hourly. */
export async function purgeSamlAssertionIdsTask(): Promise<void> {
  const count = await purgeExpiredSamlAssertionIds(kysely());
  if (count > 0) logger.info({ count }, "expired SAML assertion IDs deleted");
}
