/**
 * Moving a verification session: the row lock, the one `move` every transition goes through,
 * the start of authentication, cancellation and expiry.
 * Rules:
 * - every transition follows lib/verifications/state-machine.ts, happens under a row lock inside
 *   the caller's transaction, and writes its events there too (lib/webhooks/events.ts): a move
 *   the table does not have is 400 VERIFICATION_TERMINAL from an end state, else 409
 *   VERIFICATION_STATE_CONFLICT;
 * - a change is made in memory (`TSessionChange`: the locked row, then each move on it and the
 *   events it records) and written by `saveChange` in one statement (store.ts): the row as the
 *   moves left it, the events in the order recorded (each with the row as it saw it) and the
 *   decision record of an outcome; so the lock read and that write are a transaction's two
 *   statements, however many moves it makes; they run in the caller's transaction;
 * - `inSessionTransaction` gives a change a transaction of its own (the caller's, when it holds
 *   one), in which an outcome of a production-test session also records its participation
 *   (production-tests/participation.ts): one path for every session;
 * - the end-user's first act on an OpenID Provider session announces it first and ends its
 *   `untouched` (create.ts);
 * - events: user.authentication_started when the end-user reaches the provider (idempotent while
 *   authenticating), workflow.cancelled on cancel, session.timed_out on expiry (none for an
 *   OpenID Provider session nobody acted on); the outcomes are in outcome.ts;
 * - the funnel stamp startedAt is written by its transition, in the same update; an end state
 *   stamps endedAt; every move stamps updatedAt;
 * - cancel wipes the personal data; expiry wipes what only a running session needs.
 */
import type { AppAuth } from "../auth/app-credentials";
import type { Verification } from "../db/rows";
import type { Db } from "../db/kysely";
import { ApiError, notFound } from "../errors";
import { countSessionEnded } from "../metrics/count";
import { transition } from "../state-machine";
import type { TEventSpec } from "../webhooks/events";
import type { TEventType } from "../webhooks/event-types";
import { inWakingTransaction } from "../webhooks/dispatch/wake";
import type { TRunnableWorkflow } from "../workflows/engine/nodes";
import { announcement, unannounced } from "./create";
import type { TDecisionRow } from "./decisions";
import { personalDataWipe } from "./personal-data";
import { getOwnedVerification } from "./read";
import {
  saveSession,
  selectDueSessionsForUpdate,
  selectSessionForUpdate,
  workflowAtVersion,
  type TLockedSession,
  type TSessionUpdate,
} from "./store/session";
import { isTerminal, VERIFICATION_TRANSITIONS, type TVerificationTransition } from "./state-machine";

/**
 * A session under its row lock and what the transaction does to it, in memory until
 * `saveChange`: the row as the moves leave it, the events they record and an outcome's decision.
 */
export interface TSessionChange {
  readonly locked: TLockedSession;
  row: Verification;
  readonly events: TEventSpec[];
  decision: TDecisionRow | null;
}

/** Locks the session row for the rest of the transaction and starts a change of it (one statement). */
export async function lockSession(db: Db, verificationId: string): Promise<TSessionChange> {
  const locked = await selectSessionForUpdate(db, verificationId);
  if (!locked) throw notFound(`Verification "${verificationId}"`);
  return { locked, row: locked.verification, events: [], decision: null };
}

/** Locks the session row for the rest of the transaction and returns it (one statement). */
export async function lockVerification(db: Db, verificationId: string): Promise<Verification> {
  return (await lockSession(db, verificationId)).row;
}

/**
 * Runs `fn` on session `verificationId` locked in a transaction of its own (see the module
 * rules; in the caller's when `db` is one). Deliveries its change queues wake this process's
 * dispatcher once it has committed (lib/webhooks/dispatch/wake.ts).
 */
export async function inSessionTransaction<T>(
  db: Db,
  verificationId: string,
  fn: (tx: Db, change: TSessionChange) => Promise<T>,
): Promise<T> {
  return inWakingTransaction(db, async (tx) => fn(tx, await lockSession(tx, verificationId)));
}

/**
 * The workflow the session was planned on (its recorded version while kept, else the current
 * one), as the engine runs it; null when the workflow was deleted.
 */
export async function plannedWorkflowOf(db: Db, change: TSessionChange): Promise<TRunnableWorkflow | null> {
  const { workflow, verification } = change.locked;
  return workflow ? workflowAtVersion(db, verification.workflowId, workflow.planned) : null;
}

/** The session's workflow as it is now, as the engine runs it; null when it was deleted. */
export async function currentWorkflowOf(db: Db, change: TSessionChange): Promise<TRunnableWorkflow | null> {
  const { workflow, verification } = change.locked;
  return workflow ? workflowAtVersion(db, verification.workflowId, workflow.current) : null;
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

/** Takes `event` from the session's state (or refuses it) and sets the new state with `data`. */
export async function move(
  db: Db,
  change: TSessionChange,
  event: TVerificationTransition,
  data: TSessionUpdate = {},
): Promise<Verification> {
  const v = change.row;
  const to = transition(VERIFICATION_TRANSITIONS, v.status, event, refuseMove(v));
  // the end-user acted on an OpenID Provider session: it is announced first, and from now on
  // listed and counted (an expiry is no act)
  const acted = unannounced(v) && event !== "expire";
  if (acted) change.events.push(...announcement(v, await plannedWorkflowOf(db, change)));
  const now = new Date();
  change.row = {
    ...v,
    ...data,
    ...(isTerminal(to) ? { endedAt: now } : {}),
    ...(acted ? { untouched: false } : {}),
    status: to,
    updatedAt: now,
  };
  return change.row;
}

/** Records `type` for the session as it is now (written by `saveChange`, after the earlier ones). */
export function recordEvent(
  change: TSessionChange,
  type: TEventType,
  options: Pick<TEventSpec, "metadata" | "result"> = {},
): void {
  change.events.push({ type, ...options, verification: change.row });
}

/** Writes what `change` did (one statement; none when it did nothing) and returns the row it left. */
export async function saveChange(db: Db, change: TSessionChange): Promise<Verification> {
  const untouched = change.row === change.locked.verification && change.events.length === 0;
  if (!untouched || change.decision) await saveSession(db, change.row, change.events, change.decision);
  const { status, providerId, environment } = change.row;
  if (isTerminal(status) && !isTerminal(change.locked.verification.status))
    countSessionEnded(status, providerId, environment);
  return change.row;
}

/** The end-user reached the identity provider (idempotent while authenticating). */
export async function applyStart(db: Db, change: TSessionChange): Promise<void> {
  if (change.row.status === "authenticating") return;
  // funnel stamp (GET /v1/stats/verifications): written with the transition
  const moved = await move(db, change, "start_authentication", { startedAt: new Date() });
  recordEvent(change, "verification.user.authentication_started", { metadata: { flowType: moved.flowType } });
}

/** The end-user or the integrator cancelled: the personal data goes with it. */
export async function applyCancel(db: Db, change: TSessionChange, by: "user" | "integrator"): Promise<void> {
  await move(db, change, "cancel", {
    statusReason: by === "user" ? "cancelled_by_user" : "cancelled_by_integrator",
    ...personalDataWipe(),
  });
  recordEvent(change, "verification.workflow.cancelled", { metadata: { cancelledBy: by } });
}

/** The session's time ran out. */
export async function applyExpiry(db: Db, change: TSessionChange): Promise<void> {
  const before = change.row;
  await move(db, change, "expire", {
    statusReason: "session_timed_out",
    upstreamEncrypted: null,
    matchDataEncrypted: null,
  });
  // an OpenID Provider session nobody acted on ends as silently as it began
  if (!unannounced(before)) recordEvent(change, "verification.session.timed_out");
}

/** The end-user reached the identity provider (idempotent while authenticating). */
export async function startAuthentication(db: Db, verificationId: string): Promise<Verification> {
  return startSession(db, verificationId);
}

/**
 * The end-user reached the identity provider (idempotent while authenticating), with
 * `upstreamEncrypted` (what the provider's answer will be checked against, sealed) set in the
 * same write when given: one statement after the lock read.
 */
export async function startSession(
  db: Db,
  verificationId: string,
  upstreamEncrypted?: string,
): Promise<Verification> {
  const change = await lockSession(db, verificationId);
  await applyStart(db, change);
  // sealed on the session in the same write (after the start's event, which does not carry it)
  if (upstreamEncrypted !== undefined)
    change.row = { ...change.row, upstreamEncrypted, updatedAt: new Date() };
  return saveChange(db, change);
}

/** DELETE /v1/verifications/{id}: cancel an ongoing session and delete its personal data. */
export async function cancelVerification(db: Db, auth: AppAuth, verificationId: string): Promise<void> {
  await getOwnedVerification(db, auth, verificationId);
  await cancelByIntegrator(db, verificationId);
}

/**
 * The integrator's cancel (the App API's DELETE, the Workspace API's POST …/cancel): callers
 * check ownership first. 400 VERIFICATION_TERMINAL when the session already ended.
 */
export async function cancelByIntegrator(db: Db, verificationId: string): Promise<Verification> {
  const change = await lockSession(db, verificationId);
  await applyCancel(db, change, "integrator");
  return saveChange(db, change);
}

/** The states a session expires from: those the state table's `expire` leaves. */
export const EXPIRING_STATES: readonly string[] = VERIFICATION_TRANSITIONS.expire.flatMap(
  (rule) => rule.from,
);

/** The session is still open at `now`, past its expiresAt. */
function isDue(v: Verification, now: Date): boolean {
  return !isTerminal(v.status) && v.expiresAt.getTime() <= now.getTime();
}

/** Expires the locked session when it is due and writes the change (one statement); else nothing. */
async function expireLockedIfDue(db: Db, change: TSessionChange, now: Date): Promise<boolean> {
  if (!isDue(change.row, now)) return false;
  await applyExpiry(db, change);
  await saveChange(db, change);
  return true;
}

/**
 * One session: expired when still open at its expiresAt, with the same moves as the sweep
 * (expiry-sweep.ts); a no-op for a session that ended, is not due or is gone.
 */
export async function expireIfDue(db: Db, verificationId: string, now = new Date()): Promise<boolean> {
  const change = await lockSession(db, verificationId).catch(() => undefined);
  return change ? expireLockedIfDue(db, change, now) : false;
}

/**
 * One batch of the expiry sweep (expiry-sweep.ts), in the caller's transaction: up to `limit`
 * open sessions whose expiresAt is `now` or earlier, locked in one statement with SKIP LOCKED
 * (a session another transaction holds, such as a concurrent sweep or an end-user's action, is
 * left for the next batch: never expired twice, never waited for), each then expired exactly as
 * `expireIfDue` does, its change written in one statement. `claimed` below `limit`: no more were
 * due (but those other transactions held).
 */
export async function expireDueSessions(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ claimed: number; expired: number }> {
  const due = await selectDueSessionsForUpdate(db, EXPIRING_STATES, now, limit);
  let expired = 0;
  for (const locked of due)
    if (await expireLockedIfDue(db, { locked, row: locked.verification, events: [], decision: null }, now))
      expired++;
  return { claimed: due.length, expired };
}
