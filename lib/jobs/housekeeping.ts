/**
 * Periodic clean-up tasks (scheduled in lib/jobs/definitions.ts): each deletes what has
 * expired in bounded batches (lib/jobs/batches.ts) through the function of the domain that owns
 * the table, and logs what went.
 */
import { purgeExpiredTestSignInHandOffs } from "../connections/test-sign-in-hand-offs";
import { kysely } from "../db/client";
import { purgeExpiredIdempotencyRecords } from "../idempotency";
import { logger } from "../log";
import { purgeExpiredOidcRows } from "../oidc/purge";
import { purgeSamlAssertionIdsTask } from "../providers/adapters/saml-replay";
import { purgeExpiredRateLimits } from "../rate-limit/purge";
import { purgeEndedSessions } from "../verifications/purge";

export async function purgeIdempotencyRecords(): Promise<void> {
  const count = await purgeExpiredIdempotencyRecords(kysely());
  if (count > 0) logger.info({ count }, "expired idempotency records deleted");
}

export async function purgeOidcRowsTask(): Promise<void> {
  const counts = await purgeExpiredOidcRows(kysely());
  if (Object.values(counts).some((n) => n > 0)) {
    logger.info(
      counts,
      "expired authorization codes, access tokens, authorization and pushed requests, one-time values and untouched sessions deleted",
    );
  }
}

export async function purgeRateLimitsTask(): Promise<void> {
  const count = await purgeExpiredRateLimits(kysely());
  if (count > 0) logger.info({ count }, "ended rate-limit windows deleted");
}

export async function purgeEndedSessionsTask(): Promise<void> {
  const count = await purgeEndedSessions(kysely());
  if (count > 0) logger.info({ count }, "ended sessions deleted (IDV_SESSION_DELETE_DAYS)");
}

/**
 * The `saml_assertion_purge` job: the replay cache's expired assertion IDs, and the back-office
 * SAML test sign-ins' hand-offs that expired unanswered (lib/connections/test-sign-in-hand-offs.ts).
 */
export async function purgeSamlRowsTask(): Promise<void> {
  await purgeSamlAssertionIdsTask();
  const count = await purgeExpiredTestSignInHandOffs(kysely());
  if (count > 0) logger.info({ count }, "expired test sign-in hand-offs deleted");
}
