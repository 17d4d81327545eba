/**
 * Production sessions through a SAML 2.0 identity provider (an eIDAS node, SPID, CIE, Cl@ve,
 * DigiD …): the provider's enabled `saml` connection (lib/connections/adapters/saml.ts); the
 * entry points of the sign-in driver (./sign-in.ts) for answers posted to the ACS. The OIDC
 * counterpart is ./upstream.ts.
 * Rules:
 * - start: a signed HTTP-Redirect AuthnRequest; what the response must answer (request ID, ACS
 *   URL, RelayState) is sealed in the session (upstream_encrypted, cleared when it ends);
 * - the IdP's HTTP-POST to the ACS is cross-site, so no cookie of ours comes with it: the session
 *   is found from the RelayState, `{verificationId}.{32 random characters}`, unguessable and
 *   compared (constant time) with the one the session saved. An unknown, garbled or
 *   non-matching RelayState changes nothing (the caller answers 400): knowing a session's id is
 *   not enough to end it. A RelayState of an operator's test sign-in is not a session's
 *   (lib/connections/test-sign-in.ts);
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
import { adapterSettings } from "../connections/schema";
import { samlServiceProviderUrls } from "../connections/saml";
import { unsealSecrets } from "../connections/rows";
import { readConnection } from "../connections/store/connections";
import { kysely } from "../db/client";
import type { Verification } from "../db/rows";
import { parseEnvironment } from "../environments";
import { findProvider } from "../providers/catalog";
import { ApiError } from "../errors";
import { logger } from "../log";
import { samlServiceProviderMetadata } from "../providers/adapters/saml";
import type { TSamlUpstreamConfig } from "../providers/adapters/saml-settings";
import { applyAdapterOutcome } from "./outcome";
import { readVerification } from "./store/session";
import { isTerminal } from "./state-machine";
import {
  beginSignIn,
  finishSignIn,
  sessionAnswerChannel,
  sessionOfRelayState,
  signInInProgress,
} from "./sign-in";
import { inTransaction } from "../db/kysely";

export { SAML_REFUSED_REASON } from "../connections/adapters/saml";
export { sessionOfRelayState };

/** The largest ACS form accepted (a signed and encrypted response with its certificates fits). */
export const SAML_FORM_MAX_BYTES = 512 * 1024;

/** Whether a session is run by an identity provider answering by form post (production, connected through saml). */
export async function usesSaml(v: Pick<Verification, "environment" | "providerId">): Promise<boolean> {
  return (await sessionAnswerChannel(v)) === "form_post";
}

/** Sends the end-user to the IdP: returns the redirect URL carrying the signed AuthnRequest. */
export async function beginSamlSignIn(verificationId: string): Promise<{ url: string }> {
  const { url } = await beginSignIn(verificationId, {
    answer: "form_post",
    refusal: (providerId) => `No SAML identity provider is connected for "${providerId}"`,
  });
  return { url };
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
  const id = sessionOfRelayState(form.RelayState);
  if (!id) return { kind: "unknown" };
  const v = await readVerification(kysely(), id);
  if (!v || v.environment !== parseEnvironment(at.env) || v.providerId !== at.providerId)
    return { kind: "unknown" };
  // the user's browser posting again after the end (back button): the page shows the result
  if (isTerminal(v.status)) return { kind: "settled", verificationId: v.id };
  const answer = { channel: "form_post", form: { ...form } } as const;
  const found = signInInProgress(v, answer);
  if (found.kind !== "answered") return { kind: "unknown" };
  const outcome = await finishSignIn(v, found.sealed, answer);
  try {
    await inTransaction(kysely(), (tx) => applyAdapterOutcome(tx, v.id, outcome));
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
  const row = await readConnection(kysely(), env, providerId);
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
