/**
 * Housekeeping of the OpenID side (lib/oidc/purge.ts) on the data layer (lib/db/kysely.ts):
 * bounded batches of rows past their grace period, each batch one statement.
 */
import type { Db } from "../../db/kysely";

/** Deletes at most `limit` authorization codes that expired before `before`: how many went. */
export async function deleteExpiredCodes(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("authorizationCodes")
    .where("codeHash", "in", (eb) =>
      eb.selectFrom("authorizationCodes").select("codeHash").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes at most `limit` OP access tokens that expired before `before`: how many went. */
export async function deleteExpiredAccessTokens(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("oidcAccessTokens")
    .where("tokenHash", "in", (eb) =>
      eb.selectFrom("oidcAccessTokens").select("tokenHash").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes at most `limit` OIDC authorization requests that expired before `before`: how many went. */
export async function deleteExpiredAuthorizationRequests(
  db: Db,
  before: Date,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom("oidcAuthorizationRequests")
    .where("id", "in", (eb) =>
      eb.selectFrom("oidcAuthorizationRequests").select("id").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes at most `limit` pushed authorization requests that expired before `before`: how many went. */
export async function deleteExpiredPushedRequests(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("oidcPushedRequests")
    .where("id", "in", (eb) =>
      eb.selectFrom("oidcPushedRequests").select("id").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes at most `limit` sessions nobody acted on that ended before `before`: how many went. */
export async function deleteEndedUntouchedSessions(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("verifications")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("verifications")
        .select("id")
        // `untouched` itself: the partial index of untouched rows (migration 20261129030000)
        .where((v) => v.ref("untouched"))
        .where("endedAt", "<", before)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
