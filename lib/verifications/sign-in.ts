/**
 * The sign-in driver of production sessions: one for every redirect adapter (oidc, saml, and
 * any module of lib/connections/adapters with `signIn`), the session's provider connection
 * choosing the adapter. ./upstream.ts (OIDC callback) and ./saml.ts (SAML ACS) are its entry
 * points by the way the answer comes back.
 * Rules:
 * - only production sessions with an enabled connection whose adapter signs in run here; the
 *   sandbox always uses the simulator;
 * - begin: the session loaded, a terminal one refused (VERIFICATION_TERMINAL), the adapter's
 *   begin (network, outside any transaction), then in one short transaction the session moves
 *   to authenticating and seals what the answer needs (upstream_encrypted: the adapter, the
 *   binding its answer must carry, its state) in the same write (transitions.ts
 *   `startSession`), cleared when the session ends;
 * - the binding: a redirect answer (OIDC) carries the adapter's own `state`; a form post (SAML,
 *   cross-site: no cookie of ours) carries our RelayState `{verificationId}.{32 random
 *   characters}`, unguessable; each is compared in constant time with the sealed one before
 *   anything runs — knowing a session's id is not enough to end it;
 * - complete: the adapter's complete runs outside any transaction (the SAML replay cache writes
 *   on its own); a sign-in whose connection was deleted, disabled or turned into another
 *   adapter meanwhile fails with provider_unavailable; the exchange is recorded in the
 *   connection's health (upstream-faults.ts recordUpstreamOutcome: successes and upstream faults
 *   only, never what the browser can forge); a refusal's precise cause goes to a log line with
 *   the verification id, the session failing with the adapter's generic reason; the outcome is
 *   applied in a short transaction (applyAdapterOutcome).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { adapterModuleOf, type TConnectionAdapter } from "../connections/adapters/registry";
import type { TAnswerChannel, TSignInAdapter, TSignInAnswer } from "../connections/adapters/types";
import { enabledConnection } from "../connections/runtime";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { kysely } from "../db/client";
import type { Verification } from "../db/rows";
import { ApiError } from "../errors";
import { logger } from "../log";
import type { TAdapterOutcome } from "../providers/adapters/types";
import { isTerminal } from "./state-machine";
import { readVerification } from "./store/session";
import { startSession } from "./transitions";
import { recordUpstreamOutcome } from "./upstream-faults";
import { inWakingTransaction } from "../webhooks/dispatch/wake";

type TSession = Pick<Verification, "environment" | "providerId">;

interface TSessionSignIn {
  adapter: TConnectionAdapter;
  signIn: TSignInAdapter<unknown, unknown>;
  settings: unknown;
}

/** The sign-in adapter running a session: production, its provider connected through one. */
export async function sessionSignIn(v: TSession): Promise<TSessionSignIn | null> {
  if (v.environment !== "production") return null;
  const connection = await enabledConnection(v.environment, v.providerId);
  const signIn = connection ? adapterModuleOf(connection.adapter)?.signIn : undefined;
  if (!connection || !signIn) return null;
  return { adapter: connection.adapter, signIn, settings: connection.settings };
}

/** How a session's sign-in answer comes back; null when no sign-in adapter runs it. */
export async function sessionAnswerChannel(v: TSession): Promise<TAnswerChannel | null> {
  return (await sessionSignIn(v))?.signIn.answer ?? null;
}

async function openSession(verificationId: string): Promise<Verification> {
  const v = await readVerification(kysely(), verificationId);
  if (!v) throw new ApiError("RESOURCE_NOT_FOUND", `Verification "${verificationId}" not found`);
  if (isTerminal(v.status))
    throw new ApiError("VERIFICATION_TERMINAL", `Verification "${v.id}" is already ${v.status}`);
  return v;
}

/** The RelayState of a form-post answer: names the session, and 32 unguessable characters. */
const RELAY_STATE = /^(ver_[0-9A-Za-z]{26})\.([A-Za-z0-9_-]{32})$/;

/** The verification id a RelayState names, or null when it is not a session's. */
export function sessionOfRelayState(relayState: string | undefined): string | null {
  return RELAY_STATE.exec(relayState ?? "")?.[1] ?? null;
}

/**
 * Sends the end-user to the session's upstream: its URL, and how the answer comes back
 * (redirect_query: the caller keeps the session id in a cookie for the callback). `only`: the
 * one answer channel the caller handles (another adapter: PROVIDER_NOT_AVAILABLE, `refusal`).
 */
export async function beginSignIn(
  verificationId: string,
  only?: { answer: TAnswerChannel; refusal: (providerId: string) => string },
): Promise<{ url: string; answer: TAnswerChannel }> {
  const v = await openSession(verificationId);
  const found = await sessionSignIn(v);
  if (!found || (only && found.signIn.answer !== only.answer)) {
    throw new ApiError(
      "PROVIDER_NOT_AVAILABLE",
      only?.refusal(v.providerId) ?? `No upstream is connected for provider "${v.providerId}"`,
    );
  }
  const relayState = `${v.id}.${randomBytes(24).toString("base64url")}`;
  const { url, state, binding } = await found.signIn.begin(found.settings, {
    env: v.environment,
    providerId: v.providerId,
    bind: () => relayState,
  });
  const sealed: TSealedSignIn = { protocol: found.adapter, binding, state };
  // the session starts and keeps what the answer needs: one write
  await inWakingTransaction(kysely(), (tx) => startSession(tx, v.id, encryptSecret(JSON.stringify(sealed))));
  return { url, answer: found.signIn.answer };
}

/** What upstream_encrypted holds while a sign-in is in progress. */
const ZSealedSignIn = z.object({ protocol: z.string(), binding: z.string(), state: z.unknown() });
type TSealedSignIn = z.infer<typeof ZSealedSignIn>;

/** Sealed before the driver (an OIDC state alone; a SAML state with its protocol and RelayState). */
const ZLegacySealed = z.union([
  z
    .object({ protocol: z.literal("saml"), relayState: z.string() })
    .passthrough()
    .transform((s) => ({ protocol: "saml", binding: s.relayState, state: s as unknown })),
  z
    .object({ state: z.string(), nonce: z.string(), codeVerifier: z.string() })
    .transform((s) => ({ protocol: "oidc", binding: s.state, state: s as unknown })),
]);

function sealedSignInOf(v: Verification): TSealedSignIn | null {
  if (!v.upstreamEncrypted) return null;
  try {
    const json: unknown = JSON.parse(decryptSecret(v.upstreamEncrypted));
    const parsed = ZSealedSignIn.safeParse(json);
    if (parsed.success) return parsed.data;
    const legacy = ZLegacySealed.safeParse(json);
    return legacy.success ? legacy.data : null;
  } catch {
    return null;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export type TSignInInProgress =
  /** nothing sealed (never started, or ended) */
  | { kind: "none" }
  /** another adapter's sign-in, answered another way */
  | { kind: "other_channel" }
  /** the answer carries another binding (an older tab, a forged request) */
  | { kind: "foreign" }
  | { kind: "answered"; sealed: TSealedSignIn };

/** Whether `answer` answers the sign-in session `v` has in progress. Changes nothing. */
export function signInInProgress(v: Verification, answer: TSignInAnswer): TSignInInProgress {
  const sealed = sealedSignInOf(v);
  if (!sealed) return { kind: "none" };
  const signIn = adapterModuleOf(sealed.protocol)?.signIn;
  if (!signIn || signIn.answer !== answer.channel) return { kind: "other_channel" };
  const carried = signIn.bindingOf(answer);
  if (carried === undefined || !sameText(carried, sealed.binding)) return { kind: "foreign" };
  return { kind: "answered", sealed };
}

/**
 * Finishes the sign-in `answered` with the adapter (outside any transaction) and records it in
 * the connection's health: the outcome to apply.
 */
export async function finishSignIn(
  v: Verification,
  sealed: TSealedSignIn,
  answer: TSignInAnswer,
): Promise<TAdapterOutcome> {
  const found = await sessionSignIn(v);
  const state = found?.adapter === sealed.protocol ? found.signIn.stateSchema.safeParse(sealed.state) : null;
  if (!found || !state?.success) {
    // disconnected, disabled or another adapter while the end-user was at the upstream
    logger.warn(
      { verificationId: v.id, providerId: v.providerId, adapter: sealed.protocol },
      "sign-in answer for a provider no longer connected through its adapter",
    );
    return {
      kind: "failure",
      reason: "provider_unavailable",
      message: "the provider is no longer connected",
    };
  }
  // the connection's health: the exchange and how long it took
  const started = performance.now();
  const { outcome, refusal } = await found.signIn.complete(found.settings, state.data, answer, {
    env: v.environment,
    providerId: v.providerId,
  });
  await recordUpstreamOutcome(v, outcome, performance.now() - started);
  if (refusal) {
    logger.warn(
      {
        verificationId: v.id,
        providerId: v.providerId,
        adapter: sealed.protocol,
        refusal: refusal.reason,
        detail: refusal.message,
      },
      `${found.signIn.answerName} refused`,
    );
  }
  return outcome;
}

/** Loads a session for its answer; throws RESOURCE_NOT_FOUND / VERIFICATION_TERMINAL. */
export { openSession };
