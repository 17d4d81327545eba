/**
 * Participations and stamp claims of a production-test challenge (the verification flow calls
 * these; they have no endpoint of their own).
 * Rules:
 * - a participation is one attempt (successful or not) with one of the test's providers, while
 *   the challenge is active (neither completed nor expired); a verification participates at
 *   most once per challenge (recording it again returns the first record);
 * - only a successful participation claims, and at most once;
 * - claims never exceed the request's maxStampClaims: every claim (and every participation)
 *   first locks the challenge row (SELECT … FOR UPDATE), so claims of one challenge run one
 *   after another and each counts the claims committed before it;
 * - the claim that reaches maxStampClaims sets completedAt; no claim after completion or expiry.
 * Both functions must run inside a transaction (the lock lasts until it ends); refusals the
 * caller can expect are returned as results, not thrown. They run the statements of
 * ./store/challenges.ts in the caller's transaction (the session's: lib/verifications/outcome.ts);
 * the lock reads the challenge with its request and app in one statement and locks only the
 * challenge row.
 */
import { recordAudit } from "../audit";
import { SYSTEM_ACTOR } from "../auth/actor";
import type { Db } from "../db/kysely";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { readPayload } from "./serialize";
import {
  countClaimed,
  insertParticipation,
  lockChallengeRow,
  readParticipation,
  readParticipationOfVerification,
  setChallengeCompleted,
  setParticipationClaimed,
  type TParticipationRow,
} from "./store/challenges";

export type TParticipationRefusal = "challenge_completed" | "challenge_expired" | "provider_not_in_test";
export type TClaimRefusal =
  "not_successful" | "already_claimed" | "challenge_completed" | "challenge_expired";

export type TParticipationResult =
  | { ok: true; participation: TParticipationRow; created: boolean }
  | { ok: false; reason: TParticipationRefusal };

export type TClaimResult =
  | { ok: true; participation: TParticipationRow; totalClaims: number; completed: boolean }
  | { ok: false; reason: TClaimRefusal };

export interface TParticipationInput {
  challengeId: string;
  verificationId?: string | null;
  providerId: string;
  successful: boolean;
}

function assertInTransaction(db: Db, what: string): void {
  // without a transaction the row lock would be released at once and the claim limit would not hold
  if (!db.isTransaction) throw new Error(`${what} must run inside a transaction`);
}

/** Locks the challenge row until the transaction ends and returns it with its request payload. */
async function lockChallenge(db: Db, challengeId: string) {
  const challenge = await lockChallengeRow(db, challengeId);
  if (!challenge) throw notFound(`Production test challenge "${challengeId}"`);
  return challenge;
}

// a missing row answers 404 RESOURCE_NOT_FOUND
const missingRow = () => new ApiError("RESOURCE_NOT_FOUND", "Resource not found");

function inactiveReason(
  challenge: { completedAt: Date | null; expiresAt: Date },
  now: Date,
): "challenge_completed" | "challenge_expired" | undefined {
  if (challenge.completedAt !== null) return "challenge_completed";
  if (challenge.expiresAt.getTime() <= now.getTime()) return "challenge_expired";
  return undefined;
}

export async function recordParticipation(
  db: Db,
  input: TParticipationInput,
  now: Date = new Date(),
): Promise<TParticipationResult> {
  assertInTransaction(db, "recordParticipation");
  const challenge = await lockChallenge(db, input.challengeId);
  if (input.verificationId) {
    const existing = await readParticipationOfVerification(db, challenge.id, input.verificationId);
    if (existing) return { ok: true, participation: existing, created: false };
  }
  const inactive = inactiveReason(challenge, now);
  if (inactive) return { ok: false, reason: inactive };
  if (!readPayload(challenge.request).providerIds.includes(input.providerId)) {
    return { ok: false, reason: "provider_not_in_test" };
  }
  const participation = await insertParticipation(db, {
    id: newId("ptp"),
    challengeId: challenge.id,
    verificationId: input.verificationId ?? null,
    providerId: input.providerId,
    successful: input.successful,
  });
  return { ok: true, participation, created: true };
}

export async function claimStamp(
  db: Db,
  participationId: string,
  now: Date = new Date(),
): Promise<TClaimResult> {
  assertInTransaction(db, "claimStamp");
  const found = await readParticipation(db, participationId);
  if (!found) throw notFound(`Production test participation "${participationId}"`);
  const challenge = await lockChallenge(db, found.challengeId);
  // read again under the lock: a concurrent claim of the same participation has committed by now
  const participation = await readParticipation(db, participationId);
  if (!participation) throw missingRow();
  if (!participation.successful) return { ok: false, reason: "not_successful" };
  if (participation.claimed) return { ok: false, reason: "already_claimed" };
  const inactive = inactiveReason(challenge, now);
  if (inactive) return { ok: false, reason: inactive };

  const max = readPayload(challenge.request).maxStampClaims;
  const claimedBefore = await countClaimed(db, challenge.id);
  // only reachable if completedAt was lost (e.g. edited by hand): finish the challenge now
  const exhausted = claimedBefore >= max;
  if (!exhausted) {
    await setParticipationClaimed(db, participationId);
  }
  const totalClaims = exhausted ? claimedBefore : claimedBefore + 1;
  const completed = totalClaims >= max;
  if (completed) {
    await setChallengeCompleted(db, challenge.id, now);
    await recordAudit(db, {
      workspaceId: challenge.request.workspaceId,
      environment: challenge.request.app.environment,
      actor: SYSTEM_ACTOR,
      action: "production_test.completed",
      targetType: "production_test_challenge",
      targetId: challenge.id,
      data: { requestId: challenge.requestId, totalClaims, maxStampClaims: max },
    });
  }
  if (exhausted) return { ok: false, reason: "challenge_completed" };
  return { ok: true, participation: { ...participation, claimed: true }, totalClaims, completed };
}
