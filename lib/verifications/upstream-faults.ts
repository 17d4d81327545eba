/**
 * Upstream faults (issue 24 §4): which failures of a production sign-in are its connection's,
 * what the integrator sees of them, and the record of each sign-in in the connection's health.
 * Rules:
 * - an upstream fault is a failure with reason provider_error (the upstream answered with an
 *   error), provider_unavailable (unreachable, timed out) or invalid_response (its answer did not
 *   verify); a person cancelling (access_denied: cancelled) or failing authentication
 *   (authentication_failed), and a wallet's presentation that does not verify
 *   (invalid_presentation: the wallet is the person's), are not the connection's fault; nor is a
 *   failure whose origin is the callback (an error parameter, a foreign state, a code refused as
 *   invalid_grant): the end-user's browser carries those and anyone can forge them for their own
 *   session, so counting them would let one person take a provider offline;
 * - integrators (API, webhooks, console) see one generic reason for an upstream fault of a
 *   production session: provider_unavailable (`integratorReason`, applied where every failure
 *   is written: outcome.ts). The upstream's own text goes to the connection's lastError (for
 *   operators) and to a log line, never to the session, its events or its decision record.
 *   Sandbox sessions keep the simulator's reasons;
 * - each sign-in that reached the upstream exchange is recorded in the connection's health
 *   (lib/connections/health.ts): successes and upstream faults with their latency; other
 *   outcomes are not recorded. Called after the exchange, outside the session's transaction; a
 *   recording that fails never fails the sign-in.
 */
import { recordConnectionSignIn } from "../connections/health";
import type { Verification } from "../db/rows";
import { logger } from "../log";
import type { TAdapterOutcome } from "../providers/adapters/types";

/** The failure reasons that are the upstream's (or the way to it), not the person's. */
export const UPSTREAM_FAULTS: ReadonlySet<string> = new Set([
  "provider_error",
  "provider_unavailable",
  "invalid_response",
]);

/** The reason an integrator sees for a session's failure with `reason`. */
export function integratorReason(environment: string, reason: string): string {
  return environment === "production" && UPSTREAM_FAULTS.has(reason) ? "provider_unavailable" : reason;
}

/**
 * Records what a production upstream exchange of session `v` ended with, and how long it took
 * (ms), in its connection's health; logs an upstream fault with its detail.
 */
export async function recordUpstreamOutcome(
  v: Pick<Verification, "id" | "environment" | "providerId">,
  outcome: TAdapterOutcome,
  latencyMs: number,
): Promise<void> {
  if (v.environment !== "production") return;
  if (outcome.kind === "success") {
    await recordConnectionSignIn(v.environment, v.providerId, { ok: true, latencyMs });
    return;
  }
  if (outcome.kind !== "failure" || !UPSTREAM_FAULTS.has(outcome.reason)) return;
  if (outcome.origin === "callback") {
    // forgeable by the end-user for their own session: logged, never the connection's fault
    logger.info(
      { verificationId: v.id, environment: v.environment, providerId: v.providerId, reason: outcome.reason },
      "upstream callback refused; not counted against the connection",
    );
    return;
  }
  const error = outcome.message ? `${outcome.reason}: ${outcome.message}` : outcome.reason;
  logger.warn(
    {
      verificationId: v.id,
      environment: v.environment,
      providerId: v.providerId,
      reason: outcome.reason,
      error,
    },
    "upstream sign-in failed; the session fails with provider_unavailable",
  );
  await recordConnectionSignIn(v.environment, v.providerId, { ok: false, latencyMs, error });
}
