/**
 * The open sessions of a provider whose connection goes away (issue 24 §1): a DELETE of the
 * connection, or a PUT that disables it or changes its adapter (lib/connections/service.ts).
 * Rules:
 * - in the caller's transaction, with the connection's change: every session of the provider in
 *   the environment that is still waiting for the end-user or at the upstream
 *   (awaiting_user_action, authenticating) ends failed with reason provider_unavailable, through
 *   the outcome every adapter's failure takes (outcome.ts `settleOutcome`): the events
 *   user.authentication_failed and failed with their webhook deliveries, the decision record, a
 *   production test's participation; an OpenID Provider session then returns to its client with
 *   the failure like any other;
 * - in batches of DISCONNECT_BATCH ids, each session then locked and settled on its own (one
 *   statement to lock, one to write); a session that ended meanwhile is left as it is;
 * - an OpenID Provider session nobody acted on yet (`untouched`) is failed too, and so announced
 *   first, as any first move would (its end-user would otherwise find a sign-in that cannot
 *   start until it expires).
 */
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { settleOutcome } from "./outcome";
import { isTerminal, VERIFICATION_TRANSITIONS } from "./state-machine";
import { sessionIdsOfProvider } from "./store/session";
import { lockSession } from "./transitions";

/** Sessions read per batch. */
export const DISCONNECT_BATCH = 200;

/** The states a session can fail from: those the state table's `authentication_failed` leaves. */
const FAILABLE_STATES: string[] = VERIFICATION_TRANSITIONS.authentication_failed.flatMap((rule) => rule.from);

/**
 * Ends every open session of `providerId` in `env` failed with reason provider_unavailable, in
 * the caller's transaction. Returns how many it failed.
 */
export async function failOpenSessionsOfProvider(
  db: Db,
  env: TEnvironment,
  providerId: string,
): Promise<number> {
  let failed = 0;
  let after = "";
  for (;;) {
    // keyset pagination on the id: each batch starts after the last one
    const batch = await sessionIdsOfProvider(
      db,
      { environment: env, providerId, states: FAILABLE_STATES },
      after,
      DISCONNECT_BATCH,
    );
    for (const id of batch) {
      after = id;
      const change = await lockSession(db, id);
      if (isTerminal(change.row.status) || !FAILABLE_STATES.includes(change.row.status)) continue;
      await settleOutcome(db, change, {
        kind: "failure",
        reason: "provider_unavailable",
        message: "the provider was disconnected",
      });
      failed++;
    }
    if (batch.length < DISCONNECT_BATCH) return failed;
  }
}
