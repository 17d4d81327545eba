/**
 * Sandbox test helpers: a sandbox session driven to an outcome on the same path the simulator
 * pages take (same events, same workflow run).
 * Rules:
 * - only sandbox sessions: a production session is 404;
 * - a session that already ended is 400 VERIFICATION_TERMINAL;
 * - the end-user first reaches the provider (authentication started), then the simulator's
 *   outcome for the test identity applies (outcome.ts).
 */
import type { AppAuth } from "../auth/app-credentials";
import type { Tx } from "../db/client";
import type { Verification } from "../db/generated/client";
import { ApiError, notFound } from "../errors";
import { simulateOutcome } from "../providers/adapters/simulator";
import { findProvider } from "../providers/catalog";
import { applyAdapterOutcome } from "./outcome";
import { parseMatchData, unseal } from "./personal-data";
import { getOwnedVerification } from "./read";
import type { TSimulate } from "./schema";
import { isTerminal } from "./state-machine";
import { lockVerification, startAuthentication } from "./transitions";

/** POST /v1/sandbox/verifications/{id}/simulate: the app's own session only. */
export async function simulateVerification(
  db: Tx,
  auth: AppAuth,
  verificationId: string,
  input: TSimulate,
): Promise<Verification> {
  await getOwnedVerification(db, auth, verificationId);
  return simulateSession(db, verificationId, input);
}

/**
 * Drives a sandbox session as its provider would: the end-user reaches the provider, then the
 * outcome applies. The test helper endpoint and the simulator pages both call this.
 */
export async function simulateSession(
  db: Tx,
  verificationId: string,
  input: TSimulate,
): Promise<Verification> {
  const owned = await lockVerification(db, verificationId);
  if (owned.environment !== "sandbox") throw notFound(`Verification "${verificationId}"`);
  if (isTerminal(owned.status))
    throw new ApiError("VERIFICATION_TERMINAL", `Verification "${owned.id}" is already ${owned.status}`);
  const provider = findProvider(owned.providerId)!;
  const matchData = unseal(owned.matchDataEncrypted, parseMatchData);
  const outcome = simulateOutcome(provider, {
    outcome: input.outcome,
    identityId: input.identity,
    matchData,
    reference: owned.id,
    at: new Date(),
  });
  await startAuthentication(db, owned.id);
  return applyAdapterOutcome(db, owned.id, outcome);
}
