/**
 * Moving a verification session: the row lock, the one `move` every transition goes through,
 * the start of authentication, cancellation and expiry.
 * Rules:
 * - every transition follows lib/verifications/state-machine.ts, happens under a row lock inside
 *   the caller's transaction, and writes its events there too (lib/webhooks/events.ts): a move
 *   the table does not have is 400 VERIFICATION_TERMINAL from an end state, else 409
 *   VERIFICATION_STATE_CONFLICT;
 * - the end-user's first act on an OpenID Provider session announces it first (create.ts);
 * - events: user.authentication_started when the end-user reaches the provider (idempotent while
 *   authenticating), workflow.cancelled on cancel, session.timed_out on expiry (none for an
 *   OpenID Provider session nobody acted on); the outcomes are in outcome.ts;
 * - the funnel stamp startedAt is written by its transition, in the same update; an end state
 *   stamps endedAt;
 * - cancel wipes the personal data; expiry wipes what only a running session needs.
 */
import type { AppAuth } from "../auth/app-credentials";
import type { Tx } from "../db/client";
import type { Verification } from "../db/generated/client";
import { ApiError, notFound } from "../errors";
import { transition } from "../state-machine";
import { emitVerificationEvent } from "../webhooks/events";
import { announce, unannounced } from "./create";
import { personalDataWipe } from "./personal-data";
import { selectVerificationForUpdate } from "./lock-sql";
import { getOwnedVerification } from "./read";
import { isTerminal, VERIFICATION_TRANSITIONS, type TVerificationTransition } from "./state-machine";

/** Locks the session row for the rest of the transaction and returns it (one statement). */
export async function lockVerification(db: Tx, verificationId: string): Promise<Verification> {
  const v = await selectVerificationForUpdate(db, verificationId);
  if (!v) throw notFound(`Verification "${verificationId}"`);
  return v;
}

/** The refusal of a move the state table does not have: terminal, or a state conflict. */
function refuseMove(v: Verification) {
  return (from: string, event: TVerificationTransition, allowed: readonly string[]): ApiError =>
    isTerminal(from)
      ? new ApiError("VERIFICATION_TERMINAL", `Verification "${v.id}" is already ${from}`)
      : new ApiError(
          "VERIFICATION_STATE_CONFLICT",
          `Verification "${v.id}" is ${from}; "${event}" is only possible from ${allowed.join(", ")}`,
        );
}

/** Takes `event` from the session's state (or refuses it) and writes the new state with `data`. */
export async function move(
  db: Tx,
  v: Verification,
  event: TVerificationTransition,
  data: Partial<Verification> = {},
): Promise<Verification> {
  const to = transition(VERIFICATION_TRANSITIONS, v.status, event, refuseMove(v));
  // the end-user acted on an OpenID Provider session: it is announced first (an expiry is no act)
  if (unannounced(v) && event !== "expire") await announce(db, v);
  const ended = isTerminal(to) ? { endedAt: new Date() } : {};
  return db.verification.update({ where: { id: v.id }, data: { ...data, ...ended, status: to } });
}

/** The end-user reached the identity provider (idempotent while authenticating). */
export async function startAuthentication(db: Tx, verificationId: string): Promise<Verification> {
  const v = await lockVerification(db, verificationId);
  if (v.status === "authenticating") return v;
  // funnel stamp (GET /v1/stats/verifications): written with the transition
  const moved = await move(db, v, "start_authentication", { startedAt: new Date() });
  await emitVerificationEvent(db, moved, "verification.user.authentication_started", {
    metadata: { flowType: moved.flowType },
  });
  return moved;
}

export async function cancelSession(
  db: Tx,
  v: Verification,
  by: "user" | "integrator",
): Promise<Verification> {
  const cancelled = await move(db, v, "cancel", {
    statusReason: by === "user" ? "cancelled_by_user" : "cancelled_by_integrator",
    ...personalDataWipe(),
  });
  await emitVerificationEvent(db, cancelled, "verification.workflow.cancelled", {
    metadata: { cancelledBy: by },
  });
  return cancelled;
}

export async function expireSession(db: Tx, v: Verification): Promise<Verification> {
  const expired = await move(db, v, "expire", {
    statusReason: "session_timed_out",
    upstreamEncrypted: null,
    matchDataEncrypted: null,
  });
  // an OpenID Provider session nobody acted on ends as silently as it began
  if (!unannounced(v)) await emitVerificationEvent(db, expired, "verification.session.timed_out");
  return expired;
}

/** DELETE /v1/verifications/{id}: cancel an ongoing session and delete its personal data. */
export async function cancelVerification(db: Tx, auth: AppAuth, verificationId: string): Promise<void> {
  await getOwnedVerification(db, auth, verificationId);
  await cancelByIntegrator(db, verificationId);
}

/**
 * The integrator's cancel (the App API's DELETE, the Workspace API's POST …/cancel): callers
 * check ownership first. 400 VERIFICATION_TERMINAL when the session already ended.
 */
export async function cancelByIntegrator(db: Tx, verificationId: string): Promise<Verification> {
  const v = await lockVerification(db, verificationId);
  return cancelSession(db, v, "integrator");
}

/** The expiry job: a session still open at its expiresAt is expired. */
export async function expireIfDue(db: Tx, verificationId: string, now = new Date()): Promise<boolean> {
  const v = await lockVerification(db, verificationId).catch(() => undefined);
  if (!v || isTerminal(v.status) || v.expiresAt > now) return false;
  await expireSession(db, v);
  return true;
}
