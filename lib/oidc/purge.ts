/**
 * Housekeeping of the OpenID Provider's and the code exchange's short-lived rows: authorization
 * codes, OP access tokens, OIDC authorization requests and pushed authorization requests (PAR)
 * are deleted one day after they expire (hourly job `oidc_purge`, bounded batches).
 * Why a day and not at once: a code presented again after its use must still be recognised as
 * reused while the access tokens issued from it live (at most the code's lifetime plus
 * ACCESS_TOKEN_TTL_SECONDS), and an expired token or request is answered "expired" / "already
 * answered" rather than "unknown" for a while. After that they only take room.
 * Sessions /auth started that no end-user ever acted on (`untouched`, lib/verifications/create.ts)
 * go the same way a day after they ended: they are in no list or statistic, have no event and
 * no personal data, and would otherwise stay for IDV_SESSION_DELETE_DAYS.
 * One-time values (oidc_replay: client assertion and DPoP proof jti, lib/oidc/store/replay.ts) go
 * as soon as they expire: an expired claim no longer blocks anything.
 */
import type { Db } from "../db/client";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";
import {
  deleteEndedUntouchedSessions,
  deleteExpiredAccessTokens,
  deleteExpiredAuthorizationRequests,
  deleteExpiredCodes,
  deleteExpiredPushedRequests,
} from "./store/purge";
import { deleteExpiredReplayEntries } from "./store/replay";

export const OIDC_PURGE_GRACE_MS = 24 * 3600 * 1000;

const cutoff = (now: Date): Date => new Date(now.getTime() - OIDC_PURGE_GRACE_MS);

/** Deletes, in batches, the rows `deleteBatch` deletes that are older than the grace period. */
function purgeExpired(deleteBatch: typeof deleteExpiredCodes) {
  return (db: Db, { now = new Date(), batchSize }: TPurgeOptions = {}): Promise<number> => {
    const before = cutoff(now);
    return deleteInBatches((limit) => deleteBatch(db, before, limit), batchSize);
  };
}

export const purgeExpiredAuthorizationCodes = purgeExpired(deleteExpiredCodes);
export const purgeExpiredAccessTokens = purgeExpired(deleteExpiredAccessTokens);
export const purgeExpiredAuthorizationRequests = purgeExpired(deleteExpiredAuthorizationRequests);
export const purgeExpiredPushedRequests = purgeExpired(deleteExpiredPushedRequests);
/** Deletes the sessions nobody acted on that ended more than the grace period ago, in batches. */
export const purgeEndedUntouchedSessions = purgeExpired(deleteEndedUntouchedSessions);

/** Deletes, in batches, the one-time values that expired before `now` (no grace period). */
export function purgeExpiredReplayEntries(
  db: Db,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  return deleteInBatches((limit) => deleteExpiredReplayEntries(db, now, limit), batchSize);
}

export async function purgeExpiredOidcRows(
  db: Db,
  options: TPurgeOptions = {},
): Promise<{
  codes: number;
  accessTokens: number;
  authorizationRequests: number;
  pushedRequests: number;
  untouchedSessions: number;
  replayEntries: number;
}> {
  return {
    codes: await purgeExpiredAuthorizationCodes(db, options),
    accessTokens: await purgeExpiredAccessTokens(db, options),
    authorizationRequests: await purgeExpiredAuthorizationRequests(db, options),
    pushedRequests: await purgeExpiredPushedRequests(db, options),
    untouchedSessions: await purgeEndedUntouchedSessions(db, options),
    replayEntries: await purgeExpiredReplayEntries(db, options),
  };
}
