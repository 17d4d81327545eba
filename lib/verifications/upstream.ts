/**
 * Real upstream identity providers for production sessions, through the generic OIDC adapter.
 * Rules:
 * - the broker is the relying party of each upstream eID: its client registration is deployment
 *   configuration (IDV_UPSTREAM_OIDC: JSON {providerId: {issuer, clientId, clientSecret, scopes,
 *   claimMapping, acrToLoa}}), checked when the server starts; sandbox sessions always use the simulator;
 * - one callback URL for every upstream: {PUBLIC_URL}/verify/callback (register it upstream);
 *   the hosted page keeps the session id in a cookie across the round trip, the adapter checks
 *   state, nonce and PKCE;
 * - network calls happen outside database transactions; the hand-off secrets (state, nonce,
 *   PKCE verifier) are sealed in the session and cleared when it ends.
 */
import { z } from "zod";
import { config, parseSetting, publicUrl } from "../config";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { getDb } from "../db/client";
import type { Verification } from "../db/generated/client";
import { ApiError } from "../errors";
import {
  beginOidcAuthorization,
  completeOidcAuthorization,
  ZOidcUpstreamConfig,
  ZOidcSavedState,
  type TOidcUpstreamConfig,
} from "../providers/adapters/oidc";
import { findProvider } from "../providers/catalog";
import { applyAdapterOutcome } from "./outcome";
import { startAuthentication } from "./transitions";
import { isTerminal } from "./state-machine";
import { jsonParser } from "../state-machine";

const parseSavedState = jsonParser(ZOidcSavedState, "verifications.upstream_encrypted");

const ZUpstreams = z.record(z.string(), ZOidcUpstreamConfig);
let cache: { source: object; configs: Record<string, TOidcUpstreamConfig> } | undefined;

/** IDV_UPSTREAM_OIDC checked against the adapter's schema (at start-up, lib/config/startup.ts). */
export function upstreamConfigs(): Record<string, TOidcUpstreamConfig> {
  const source = config().upstreamOidc;
  if (cache?.source !== source)
    cache = { source, configs: parseSetting("IDV_UPSTREAM_OIDC", ZUpstreams, source) };
  return cache.configs;
}

export function upstreamCallbackUrl(): string {
  return `${publicUrl()}/verify/callback`;
}

/** Whether a session is run by a real upstream (production, provider configured). */
export function usesUpstream(v: Pick<Verification, "environment" | "providerId">): boolean {
  return v.environment === "production" && Boolean(upstreamConfigs()[v.providerId]);
}

function configFor(v: Verification): TOidcUpstreamConfig {
  const config = upstreamConfigs()[v.providerId];
  if (v.environment !== "production" || !config) {
    throw new ApiError("PROVIDER_NOT_AVAILABLE", `No upstream is configured for provider "${v.providerId}"`);
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
  const { url, saved } = await beginOidcAuthorization(configFor(v), upstreamCallbackUrl());
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
  const saved = parseSavedState(JSON.parse(decryptSecret(v.upstreamEncrypted)));
  const outcome = await completeOidcAuthorization(configFor(v), upstreamCallbackUrl(), callbackUrl, saved);
  return db.$transaction((tx) => applyAdapterOutcome(tx, v.id, outcome));
}
