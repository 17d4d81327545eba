/**
 * Housekeeping of the OpenID Provider's and the code exchange's short-lived rows: authorization
 * codes, OP access tokens and OIDC authorization requests are deleted one day after they expire
 * (hourly job `oidc_purge`, bounded batches).
 * Why a day and not at once: a code presented again after its use must still be recognised as
 * reused while the access tokens issued from it live (at most the code's lifetime plus
 * ACCESS_TOKEN_TTL_SECONDS), and an expired token or request is answered "expired" / "already
 * answered" rather than "unknown" for a while. After that they only take room.
 * Sessions /auth started that no end-user ever acted on (`untouched`, lib/verifications/create.ts)
 * go the same way a day after they ended: they are in no list or statistic, have no event and
 * no personal data, and would otherwise stay for IDV_SESSION_DELETE_DAYS.
 */
import { Prisma, type Db } from "../db/client";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";

export const OIDC_PURGE_GRACE_MS = 24 * 3600 * 1000;

type TRawDb = Pick<Db, "$executeRaw">;

function cutoff(now: Date): string {
  // the columns are UTC `timestamp without time zone`: the literal's Z is ignored on the cast
  return new Date(now.getTime() - OIDC_PURGE_GRACE_MS).toISOString();
}

/**
 * Deletes rows of `table` whose `expires_at` is older than the grace period, in batches. The
 * names are fixed identifiers of this module (never user input), hence Prisma.raw.
 */
function purgeExpired(table: string, key: string) {
  return (db: TRawDb, { now = new Date(), batchSize }: TPurgeOptions = {}): Promise<number> => {
    const before = cutoff(now);
    return deleteInBatches(
      (limit) => db.$executeRaw`
        DELETE FROM ${Prisma.raw(table)}
         WHERE ${Prisma.raw(key)} IN (SELECT ${Prisma.raw(key)} FROM ${Prisma.raw(table)}
                                       WHERE expires_at < ${before}::timestamp LIMIT ${limit})`,
      batchSize,
    );
  };
}

export const purgeExpiredAuthorizationCodes = purgeExpired("authorization_codes", "code_hash");
export const purgeExpiredAccessTokens = purgeExpired("oidc_access_tokens", "token_hash");
export const purgeExpiredAuthorizationRequests = purgeExpired("oidc_authorization_requests", "id");

/** Deletes the sessions nobody acted on that ended more than the grace period ago, in batches. */
export function purgeEndedUntouchedSessions(
  db: TRawDb,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  const before = cutoff(now);
  // the partial index of untouched rows (migration 20261129030000) holds only these
  return deleteInBatches(
    (limit) => db.$executeRaw`
      DELETE FROM verifications
       WHERE id IN (SELECT id FROM verifications
                     WHERE untouched AND ended_at < ${before}::timestamp LIMIT ${limit})`,
    batchSize,
  );
}

export async function purgeExpiredOidcRows(
  db: TRawDb,
  options: TPurgeOptions = {},
): Promise<{
  codes: number;
  accessTokens: number;
  authorizationRequests: number;
  untouchedSessions: number;
}> {
  return {
    codes: await purgeExpiredAuthorizationCodes(db, options),
    accessTokens: await purgeExpiredAccessTokens(db, options),
    authorizationRequests: await purgeExpiredAuthorizationRequests(db, options),
    untouchedSessions: await purgeEndedUntouchedSessions(db, options),
  };
}
