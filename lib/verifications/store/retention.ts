/**
 * The retention of sessions (lib/verifications/personal-data.ts, purge.ts), on the data layer
 * (lib/db/kysely.ts): the personal data of long-ended sessions wiped, their rows deleted much
 * later (with what hangs off them: foreign keys with ON DELETE CASCADE).
 */
import type { Db } from "../../db/kysely";
import type { TSavedColumns, TSessionUpdate } from "./session";

/**
 * Empties the personal data of the sessions that ended before `cutoff` and still have it, with
 * `wipe` (personal-data.ts `personalDataWipe`): how many.
 */
export async function wipePersonalData(
  db: Db,
  cutoff: Date,
  wipe: TSessionUpdate & Pick<TSavedColumns, "personalDataDeletedAt">,
): Promise<number> {
  const result = await db
    .updateTable("verifications")
    .set({ ...wipe, updatedAt: new Date() })
    .where("endedAt", "<", cutoff)
    .where("personalDataDeletedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes at most `limit` sessions that ended before `before` and whose personal data is gone
 * (with what hangs off them: foreign keys with ON DELETE CASCADE): how many.
 */
export async function deleteEndedSessions(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("verifications")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("verifications")
        .select("id")
        .where("endedAt", "<", before)
        .where("personalDataDeletedAt", "is not", null)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
