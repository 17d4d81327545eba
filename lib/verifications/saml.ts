/**
 * Production sessions through a SAML 2.0 identity provider (an eIDAS node, SPID, CIE, Cl@ve,
 * DigiD …): the provider's enabled `saml` connection (lib/connections/saml.ts), the adapter of
 * lib/providers/adapters/saml.ts. The OIDC counterpart is ./upstream.ts.
 * Rules:
 * - start: a signed HTTP-Redirect AuthnRequest; what the response must answer (request ID, ACS
 *   URL, RelayState) is sealed in the session (upstream_encrypted, cleared when it ends);
 * - the IdP's HTTP-POST to the ACS is cross-site, so no cookie of ours comes with it: the session
 *   is found from the RelayState, `{verificationId}.{32 random characters}`, unguessable and
 *   compared (constant time) with the one the session saved. An unknown, garbled or
 *   non-matching RelayState changes nothing (the caller answers 400): knowing a session's id is
 *   not enough to end it;
 * - the response is checked outside any database transaction (the replay cache writes on its
 *   own), then the outcome applied in a short one (applyAdapterOutcome, as ./upstream.ts does);
 * - every refusal (TSamlRefusal) ends the session failed with the generic reason
 *   `authentication_failed`, the precise refusal going to a log line with the verification id:
 *   all of them can be provoked by the end-user's own browser (a forged or replayed post), so none
 *   says anything about the health of the connection. A connection deleted, disabled or turned
 *   into another adapter during the round trip fails the session with `provider_unavailable`;
 * - SP metadata is served for a saml connection whether or not it is enabled (an operator
 *   registers it at the IdP before switching the connection on).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { connectionSettings } from "../connections/runtime";
import { adapterSettings } from "../connections/schema";
import { samlServiceProviderUrls } from "../connections/saml";
import { unsealSecrets } from "../connections/service";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { getDb } from "../db/client";
import type { Verification } from "../db/generated/client";
import { parseEnvironment } from "../environments";
import { findProvider } from "../providers/catalog";
import { ApiError } from "../errors";
import { logger } from "../log";
import {
  beginSamlAuthentication,
  completeSamlAuthentication,
  samlServiceProviderMetadata,
  ZSamlSavedState,
} from "../providers/adapters/saml";
import { postgresSamlReplayCache } from "../providers/adapters/saml-replay";
import type { TSamlUpstreamConfig } from "../providers/adapters/saml-settings";
import type { TAdapterOutcome } from "../providers/adapters/types";
import { applyAdapterOutcome } from "./outcome";
import { recordUpstreamOutcome } from "./upstream-faults";
import { isTerminal } from "./state-machine";
import { startAuthentication } from "./transitions";

/** What a SAML session seals in upstream_encrypted (`protocol` tells it from the OIDC state). */
const ZSavedSamlSession = ZSamlSavedState.extend({ protocol: z.literal("saml") });

const RELAY_STATE = /^(ver_[0-9A-Za-z]{26})\.([A-Za-z0-9_-]{32})$/;

/** The largest ACS form accepted (a signed and encrypted response with its certificates fits). */
export const SAML_FORM_MAX_BYTES = 512 * 1024;

/** The verification id a RelayState names, or null when it is not one of ours. */
export function sessionOfRelayState(relayState: string | undefined): string | null {
  return RELAY_STATE.exec(relayState ?? "")?.[1] ?? null;
}

/** The integrator's reason for every refused SAML response (the precise one is logged). */
export const SAML_REFUSED_REASON = "authentication_failed";

async function samlConfigOf(
  v: Pick<Verification, "environment" | "providerId">,
): Promise<TSamlUpstreamConfig | null> {
  if (v.environment !== "production") return null;
  return connectionSettings(v.environment, v.providerId, "saml");
}

/** Whether a session is run by a SAML identity provider (production, provider connected through saml). */
export async function usesSaml(v: Pick<Verification, "environment" | "providerId">): Promise<boolean> {
  return (await samlConfigOf(v)) !== null;
}

/** Sends the end-user to the IdP: returns the redirect URL carrying the signed AuthnRequest. */
export async function beginSamlSignIn(verificationId: string): Promise<{ url: string }> {
  const db = getDb();
  const v = await db.verification.findUnique({ where: { id: verificationId } });
  if (!v) throw new ApiError("RESOURCE_NOT_FOUND", `Verification "${verificationId}" not found`);
  if (isTerminal(v.status))
    throw new ApiError("VERIFICATION_TERMINAL", `Verification "${v.id}" is already ${v.status}`);
  const config = await samlConfigOf(v);
  if (!config)
    throw new ApiError(
      "PROVIDER_NOT_AVAILABLE",
      `No SAML identity provider is connected for "${v.providerId}"`,
    );
  const relayState = `${v.id}.${randomBytes(24).toString("base64url")}`;
  const { acsUrl } = samlServiceProviderUrls(v.environment, v.providerId);
  const { url, saved } = await beginSamlAuthentication(config, { acsUrl, relayState });
  await db.$transaction(async (tx) => {
    await startAuthentication(tx, v.id);
    await tx.verification.update({
      where: { id: v.id },
      data: { upstreamEncrypted: encryptSecret(JSON.stringify({ ...saved, protocol: "saml" })) },
    });
  });
  return { url };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The session's saved SAML state, or null when it has none (ended, another protocol, unreadable). */
function savedStateOf(v: Verification): z.output<typeof ZSavedSamlSession> | null {
  if (!v.upstreamEncrypted) return null;
  try {
    const parsed = ZSavedSamlSession.safeParse(JSON.parse(decryptSecret(v.upstreamEncrypted)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type TSamlAcsResult =
  /** the RelayState names no SAML sign-in in progress at this ACS: nothing changed */
  | { kind: "unknown" }
  /** the session's page tells the rest */
  | { kind: "settled"; verificationId: string };

/**
 * The IdP's HTTP-POST to the ACS of `providerId` in `env`: finds the session from the RelayState,
 * checks the response and applies its outcome. Never throws for anything the post contains.
 */
export async function completeSamlSignIn(
  at: { env: string; providerId: string },
  form: { SAMLResponse?: string; RelayState?: string },
): Promise<TSamlAcsResult> {
  const match = RELAY_STATE.exec(form.RelayState ?? "");
  if (!match) return { kind: "unknown" };
  const db = getDb();
  const v = await db.verification.findUnique({ where: { id: match[1]! } });
  if (!v || v.environment !== parseEnvironment(at.env) || v.providerId !== at.providerId)
    return { kind: "unknown" };
  // the user's browser posting again after the end (back button): the page shows the result
  if (isTerminal(v.status)) return { kind: "settled", verificationId: v.id };
  const saved = savedStateOf(v);
  if (!saved || !sameText(saved.relayState, form.RelayState!)) return { kind: "unknown" };

  const config = await samlConfigOf(v);
  let outcome: TAdapterOutcome;
  if (!config) {
    outcome = { kind: "failure", reason: "provider_unavailable" };
    logger.warn(
      { verificationId: v.id, providerId: v.providerId },
      "SAML response for a provider no longer connected through saml",
    );
  } else {
    const started = performance.now();
    const answer = await completeSamlAuthentication(config, saved, form, postgresSamlReplayCache(db));
    if (answer.kind === "success") {
      outcome = answer;
      // the connection's health: successes and their latency; a refusal is what the browser
      // posted (anyone can forge one for their own session), never the connection's fault
      await recordUpstreamOutcome(v, outcome, performance.now() - started);
    } else {
      outcome = { kind: "failure", reason: SAML_REFUSED_REASON };
      logger.warn(
        { verificationId: v.id, providerId: v.providerId, refusal: answer.reason, detail: answer.message },
        "SAML response refused",
      );
    }
  }
  try {
    await db.$transaction((tx) => applyAdapterOutcome(tx, v.id, outcome));
  } catch (err) {
    // ended meanwhile (expired, cancelled): the page shows the state it is in
    if (!(err instanceof ApiError)) throw err;
    logger.warn(
      { verificationId: v.id, err: { code: err.code, message: err.message } },
      "SAML response for a session that changed meanwhile",
    );
  }
  return { kind: "settled", verificationId: v.id };
}

/** Our SP metadata for the saml connection of `providerId` in `env`; null when there is none. */
export async function samlMetadataOf(envName: string, providerId: string): Promise<string | null> {
  const env = parseEnvironment(envName);
  // only catalog ids reach the database (a path segment may hold anything, NUL bytes included)
  if (!env || !findProvider(providerId)) return null;
  const row = await getDb().providerConnection.findUnique({
    where: { environment_providerId: { environment: env, providerId } },
  });
  if (!row || row.adapter !== "saml") return null;
  let config: TSamlUpstreamConfig;
  try {
    config = adapterSettings("saml", row.settings, unsealSecrets(row));
  } catch {
    // a stored connection its adapter no longer accepts is not connected (runtime.ts)
    return null;
  }
  return samlServiceProviderMetadata(config, samlServiceProviderUrls(env, providerId));
}
