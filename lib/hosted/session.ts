/**
 * What the end-user's browser may do to a session from the hosted and simulator pages.
 * Rules:
 * - the status read model carries no personal data: status, reason, and once the session has
 *   ended the address to return to — only for the browser the session is bound to
 *   (lib/hosted/binding.ts; lib/verifications/return.ts nextUrlFor: only registered addresses,
 *   the same address on every poll, nothing minted; null → final page);
 * - the end-user's Cancel is the provider-side "cancelled" outcome (verification.workflow.cancelled,
 *   cancelledBy user); a session that already ended is left as it is (the page then shows it);
 * - a push identifier is validated for the provider, sealed on the session, and moves it to
 *   authenticating (the request reached the person's app);
 * - simulator actions exist only for sandbox sessions and go through simulateSession, the same
 *   path as the App API test helper; a production session is "not found" there;
 * - every write runs in one transaction with the events it emits; a state change (cancel, push,
 *   start) in a transaction of its own on the data layer (lib/webhooks/dispatch/wake.ts
 *   `inWakingTransaction`), as the App API's: the row's lock read, then the change made in
 *   memory and written in one statement (lib/verifications/transitions.ts; the simulator
 *   through sandbox.ts `simulateSession`, which may record a production-test participation).
 */
import { encryptSecret } from "../crypto/encryption";
import { inTransaction, type Db } from "../db/kysely";
import { ApiError } from "../errors";
import type { TSimulatedOutcome } from "../providers/adapters/simulator";
import { answerHostedReturn } from "../verifications/return";
import { settleOutcome } from "../verifications/outcome";
import { simulateSession } from "../verifications/sandbox";
import { applyStart, lockSession, saveChange, type TSessionChange } from "../verifications/transitions";
import { inWakingTransaction } from "../webhooks/dispatch/wake";
import { isTerminal } from "../verifications/state-machine";
import { readFlowType, readSessionStatus } from "../verifications/store/session";
import { hostedBrowser } from "./binding";
import { validatePushIdentifier } from "./push";

export interface THostedStatus {
  status: string;
  reason?: string;
  /** where the browser goes now that the session has ended (absent: show the final page) */
  next?: string;
}

/** The status as the browser holding `secret` (its hosted binding cookie, if any) may see it. */
export async function readHostedStatus(
  db: Db,
  verificationId: string,
  secret: string | undefined,
): Promise<THostedStatus | null> {
  const v = await readSessionStatus(db, verificationId);
  if (!v) return null;
  const status: THostedStatus = {
    status: v.status,
    ...(v.statusReason && v.status !== "completed" ? { reason: v.statusReason } : {}),
  };
  if (!isTerminal(v.status)) return status;
  const browser = await hostedBrowser(db, verificationId, secret);
  return browser?.next ? { ...status, next: browser.next } : status;
}

/** /verify/{id}/return: the bound browser's REST return (once); null: show the page. */
export async function answerReturn(
  db: Db,
  verificationId: string,
  secret: string | undefined,
): Promise<string | null> {
  return inTransaction(db, async (tx) => {
    const browser = await hostedBrowser(tx, verificationId, secret);
    if (!browser?.bound || browser.oidc) return null;
    return answerHostedReturn(tx, verificationId);
  });
}

/**
 * May this browser take the session to its provider (/verify/{id}/start)? Not an OpenID
 * Provider session's same-device flows in a browser other than the one that started the sign-in;
 * the phone of a QR flow has no binding and only authenticates.
 */
export async function mayStart(db: Db, verificationId: string, secret: string | undefined): Promise<boolean> {
  const browser = await hostedBrowser(db, verificationId, secret);
  if (!browser?.oidc || browser.bound) return true;
  return (await readFlowType(db, verificationId)) === "qr";
}

/** The session locked in the transaction `tx`, or null when there is none. */
async function lockIfAny(tx: Db, verificationId: string): Promise<TSessionChange | null> {
  try {
    return await lockSession(tx, verificationId);
  } catch (err) {
    if (err instanceof ApiError && err.code === "RESOURCE_NOT_FOUND") return null;
    throw err;
  }
}

/** The end-user pressed Cancel. Returns false when the session had already ended. */
export async function cancelByUser(db: Db, verificationId: string): Promise<boolean> {
  return inWakingTransaction(db, async (tx) => {
    const change = await lockSession(tx, verificationId);
    if (isTerminal(change.row.status)) return false;
    // the provider-side "cancelled" outcome (no participation: only completed or failed have one)
    await settleOutcome(tx, change, { kind: "cancelled" });
    return true;
  });
}

/** Push flow: the identifier was entered. Returns false when it does not fit the provider. */
export async function submitPushIdentifier(db: Db, verificationId: string, raw: unknown): Promise<boolean> {
  return inWakingTransaction(db, async (tx) => {
    const change = await lockSession(tx, verificationId);
    const v = change.row;
    if (v.flowType !== "push") {
      throw new ApiError("VERIFICATION_STATE_CONFLICT", `Verification "${v.id}" is not a push session`);
    }
    const identifier = validatePushIdentifier(v.providerId, raw);
    if (!identifier) return false;
    if (isTerminal(v.status)) return true;
    await applyStart(tx, change);
    // sealed on the session in the same write (after the start's event, which does not carry it)
    change.row = {
      ...change.row,
      upstreamEncrypted: encryptSecret(JSON.stringify({ pushIdentifier: identifier })),
      updatedAt: new Date(),
    };
    await saveChange(tx, change);
    return true;
  });
}

/** Redirect flow: the end-user left for the provider (sandbox: its simulator). */
export async function leaveForProvider(db: Db, verificationId: string): Promise<void> {
  await inWakingTransaction(db, async (tx) => {
    const change = await lockIfAny(tx, verificationId);
    if (!change || isTerminal(change.row.status)) return;
    await applyStart(tx, change);
    await saveChange(tx, change);
  });
}

/** A simulator button: sandbox sessions only (a production session is "not found"). */
export async function actInSimulator(
  db: Db,
  verificationId: string,
  input: { outcome: TSimulatedOutcome; identity?: string },
): Promise<void> {
  await simulateSession(db, verificationId, {
    outcome: input.outcome,
    ...(input.identity ? { identity: input.identity } : {}),
  });
}
