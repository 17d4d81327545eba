/**
 * Real upstream identity providers for production sessions, through the generic OIDC adapter:
 * the entry points of the sign-in driver (./sign-in.ts) for answers that come back as a
 * redirect to the one callback.
 * Rules:
 * - the broker is the relying party of each upstream eID: its client registration is the
 *   provider's enabled `oidc` connection in production (lib/connections, managed through the
 *   Operator API; IDV_UPSTREAM_OIDC is only imported into connections at start-up); sandbox
 *   sessions always use the simulator;
 * - one callback URL for every upstream: {PUBLIC_URL}/verify/callback (register it upstream);
 *   the hosted page keeps the session id in a cookie across the round trip, the adapter checks
 *   state, nonce and PKCE;
 * - a callback carrying another state (an older tab, a forged request naming the session), or
 *   reaching a session whose sign-in is answered another way (SAML), is refused with 409
 *   VERIFICATION_STATE_CONFLICT and changes nothing;
 * - a sign-in in progress when its connection is deleted or disabled ends failed with reason
 *   provider_unavailable at the callback;
 * - each exchange with the upstream is recorded in the connection's health, with its latency
 *   (upstream-faults.ts); an upstream fault fails the session with provider_unavailable;
 * - network calls happen outside database transactions; the hand-off secrets (state, nonce,
 *   PKCE verifier) are sealed in the session and cleared when it ends.
 */
import type { Verification } from "../db/rows";
import { kysely } from "../db/client";
import { ApiError } from "../errors";
import { applyAdapterOutcome } from "./outcome";
import { beginSignIn, finishSignIn, openSession, sessionAnswerChannel, signInInProgress } from "./sign-in";
import { inTransaction } from "../db/kysely";

export { upstreamCallbackUrl } from "../connections/adapters/oidc";

/** Whether a session is run by a real upstream answering by redirect (production, connected through oidc). */
export async function usesUpstream(v: Pick<Verification, "environment" | "providerId">): Promise<boolean> {
  return (await sessionAnswerChannel(v)) === "redirect_query";
}

/** Sends the end-user to the upstream: returns its authorization URL. */
export async function beginUpstreamAuthentication(verificationId: string): Promise<{ url: string }> {
  const { url } = await beginSignIn(verificationId, {
    answer: "redirect_query",
    refusal: (providerId) => `No upstream is connected for provider "${providerId}"`,
  });
  return { url };
}

/** Completes the round trip with the upstream's callback URL and applies its outcome. */
export async function completeUpstreamAuthentication(
  verificationId: string,
  callbackUrl: URL,
): Promise<Verification> {
  const v = await openSession(verificationId);
  const answer = { channel: "redirect_query", url: callbackUrl } as const;
  const found = signInInProgress(v, answer);
  switch (found.kind) {
    case "none":
      throw new ApiError(
        "VERIFICATION_STATE_CONFLICT",
        `Verification "${v.id}" has no upstream sign-in in progress`,
      );
    case "other_channel":
      // another adapter's sign-in (SAML) is in progress: this callback is not its answer
      throw new ApiError(
        "VERIFICATION_STATE_CONFLICT",
        `Verification "${v.id}" has no OpenID Connect sign-in in progress`,
      );
    case "foreign":
      // only the sign-in this session started may end it
      throw new ApiError(
        "VERIFICATION_STATE_CONFLICT",
        `The callback does not answer the sign-in of verification "${v.id}"`,
      );
  }
  const outcome = await finishSignIn(v, found.sealed, answer);
  return inTransaction(kysely(), (tx) => applyAdapterOutcome(tx, v.id, outcome));
}
