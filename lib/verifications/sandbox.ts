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
import type { Verification } from "../db/rows";
import type { Db } from "../db/kysely";
import { ApiError, notFound } from "../errors";
import { simulateOutcome } from "../providers/adapters/simulator";
import { findProvider } from "../providers/catalog";
import { settleOutcome } from "./outcome";
import { parseMatchData, unseal } from "./personal-data";
import type { TSimulate } from "./schema";
import { isTerminal } from "./state-machine";
import { applyStart, inSessionTransaction, type TSessionChange } from "./transitions";

/**
 * POST /v1/sandbox/verifications/{id}/simulate: the app's own session only, in a transaction of
 * its own (transitions.ts `inSessionTransaction`: the lock read and one write).
 */
export async function simulateVerification(
  db: Db,
  auth: AppAuth,
  verificationId: string,
  input: TSimulate,
): Promise<Verification> {
  return inSessionTransaction(db, verificationId, async (tx, change) => {
    // another app's or environment's session is 404, as getOwnedVerification answers
    if (change.row.appId !== auth.clientId || change.row.environment !== auth.environment)
      throw notFound(`Verification "${verificationId}"`);
    return simulate(tx, change, input);
  });
}

/**
 * The simulator pages' button: drives a sandbox session as its provider would (the end-user
 * reaches the provider, then the outcome applies), in a transaction of its own, as the test
 * helper endpoint above does; a production session is 404.
 */
export async function simulateSession(
  db: Db,
  verificationId: string,
  input: TSimulate,
): Promise<Verification> {
  return inSessionTransaction(db, verificationId, (tx, change) => simulate(tx, change, input));
}

/** The session's lock read, then one write of the whole change (transitions.ts `saveChange`). */
async function simulate(db: Db, change: TSessionChange, input: TSimulate): Promise<Verification> {
  const owned = change.row;
  if (owned.environment !== "sandbox") throw notFound(`Verification "${owned.id}"`);
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
  await applyStart(db, change);
  return settleOutcome(db, change, outcome);
}
