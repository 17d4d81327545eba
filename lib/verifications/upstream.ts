/**
 * Real upstream identity providers for production sessions, through the generic OIDC adapter.
 * Rules:
 * - the broker is the relying party of each upstream eID: its client registration is the
 *   provider's enabled `oidc` connection in production (lib/connections, managed through the
 *   Operator API; IDV_UPSTREAM_OIDC is only imported into connections at start-up); sandbox
 *   sessions always use the simulator;
 * - one callback URL for every upstream: {PUBLIC_URL}/verify/callback (register it upstream);
 *   the hosted page keeps the session id in a cookie across the round trip, the adapter checks
 *   state, nonce and PKCE;
 * - a sign-in in progress when its connection is deleted or disabled ends failed with reason
 *   provider_unavailable at the callback;
 * - each exchange with the upstream is recorded in the connection's health, with its latency
 *   (upstream-faults.ts); an upstream fault fails the session with provider_unavailable;
 * - network calls happen outside database transactions; the hand-off secrets (state, nonce,
 *   PKCE verifier) are sealed in the session and cleared when it ends.
 */
import { connectionSettings } from "../connections/runtime";
import { publicUrl } from "../config";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { getDb } from "../db/client";
import type { Verification } from "../db/generated/client";
import { ApiError } from "../errors";
import {
  beginOidcAuthorization,
  completeOidcAuthorization,
  ZOidcSavedState,
  type TOidcUpstreamConfig,
} from "../providers/adapters/oidc";
import type { TAdapterOutcome } from "../providers/adapters/types";
import { findProvider } from "../providers/catalog";
import { applyAdapterOutcome } from "./outcome";
import { startAuthentication } from "./transitions";
import { recordUpstreamOutcome } from "./upstream-faults";
import { isTerminal } from "./state-machine";

export function upstreamCallbackUrl(): string {
  return `${publicUrl()}/verify/callback`;
}

/** The upstream configuration of a production session's provider: its enabled oidc connection. */
async function upstreamConfigOf(
  v: Pick<Verification, "environment" | "providerId">,
): Promise<TOidcUpstreamConfig | null> {
  if (v.environment !== "production") return null;
  return connectionSettings(v.environment, v.providerId, "oidc");
}

/** Whether a session is run by a real upstream (production, provider connected through oidc). */
export async function usesUpstream(v: Pick<Verification, "environment" | "providerId">): Promise<boolean> {
  return (await upstreamConfigOf(v)) !== null;
}

async function configFor(v: Verification): Promise<TOidcUpstreamConfig> {
  const config = await upstreamConfigOf(v);
  if (!config) {
    throw new ApiError("PROVIDER_NOT_AVAILABLE", `No upstream is connected for provider "${v.providerId}"`);
  }
  return config;
}

/** Sends the end-user to the upstream: returns its authorization URL. */
export async function beginUpstreamAuthentication(verificationId: string): Promise<{ url: string }> {
  const db = getDb();
  const v = await db.verification.findUnique({ where: { id: verificationId } });
  if (!v) throw new ApiError("RESOURCE_NOT_FOUND", `Verification "${verificationId}" not found`);
  if (isTerminal(v.status))
    throw new ApiError("VERIFICATION_TERMINAL", `Verification "${v.id}" is already ${v.status}`);
  if (!findProvider(v.providerId)) throw new Error(`provider ${v.providerId} is not in the catalog`);
  const { url, saved } = await beginOidcAuthorization(await configFor(v), upstreamCallbackUrl());
  await db.$transaction(async (tx) => {
    await startAuthentication(tx, v.id);
    await tx.verification.update({
      where: { id: v.id },
      data: { upstreamEncrypted: encryptSecret(JSON.stringify(saved)) },
    });
  });
  return { url };
}

/** Completes the round trip with the upstream's callback URL and applies its outcome. */
export async function completeUpstreamAuthentication(
  verificationId: string,
  callbackUrl: URL,
): Promise<Verification> {
  const db = getDb();
  const v = await db.verification.findUnique({ where: { id: verificationId } });
  if (!v) throw new ApiError("RESOURCE_NOT_FOUND", `Verification "${verificationId}" not found`);
  if (isTerminal(v.status))
    throw new ApiError("VERIFICATION_TERMINAL", `Verification "${v.id}" is already ${v.status}`);
  if (!v.upstreamEncrypted) {
    throw new ApiError(
      "VERIFICATION_STATE_CONFLICT",
      `Verification "${v.id}" has no upstream sign-in in progress`,
    );
  }
  const parsed = ZOidcSavedState.safeParse(JSON.parse(decryptSecret(v.upstreamEncrypted)));
  // another adapter's sign-in (SAML) is in progress: this callback is not its answer
  if (!parsed.success) {
    throw new ApiError(
      "VERIFICATION_STATE_CONFLICT",
      `Verification "${v.id}" has no OpenID Connect sign-in in progress`,
    );
  }
  const saved = parsed.data;
  // a callback carrying another state (an older tab, a forged request naming this session) is
  // refused and changes nothing: only the sign-in this session started may end it
  if (callbackUrl.searchParams.get("state") !== saved.state) {
    throw new ApiError(
      "VERIFICATION_STATE_CONFLICT",
      `The callback does not answer the sign-in of verification "${v.id}"`,
    );
  }
  const config = await upstreamConfigOf(v);
  // disconnected (or disabled) while the end-user was at the upstream: the session fails cleanly
  let outcome: TAdapterOutcome = {
    kind: "failure",
    reason: "provider_unavailable",
    message: "the provider is no longer connected",
  };
  if (config) {
    // the connection's health: the exchange (code redemption, userinfo) and how long it took
    const started = performance.now();
    outcome = await completeOidcAuthorization(config, upstreamCallbackUrl(), callbackUrl, saved);
    await recordUpstreamOutcome(v, outcome, performance.now() - started);
  }
  return db.$transaction((tx) => applyAdapterOutcome(tx, v.id, outcome));
}
