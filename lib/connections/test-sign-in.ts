/**
 * Test sign-in through a connection (issue 24 §1, back-office): an operator runs a real sign-in
 * against the connection's upstream in a new tab and sees the mapped claims and the upstream's raw
 * claims, without anything being stored server-side.
 * Rules:
 * - only an operator's console session may start one (an operator key is 403): the sign-in needs
 *   that operator's browser; the hand-off (state, nonce, PKCE verifier, environment, provider,
 *   the operator's user id and session id, expiry) is sealed with the master key, 10 minutes
 *   (./test-sign-in-cookies.ts) — no database row for a redirect's;
 * - the upstream returns to the one registered callback, {PUBLIC_URL}/verify/callback, which hands
 *   over here when the hand-off cookie is present and a session's cookie is not; the callback
 *   accepts it only from the same live operator session that started it (same user, same session id);
 * - the stored connection is used as it is, also when disabled or failing (an operator tests
 *   before enabling); the adapter's own functions run the sign-in (lib/providers/adapters/oidc.ts),
 *   so the claims shown are mapped exactly as a production sign-in maps them;
 * - the result (outcome, mapped and raw claims, LoA, evidence) goes to the back-office result page
 *   in a second sealed HttpOnly cookie bound to the same session (./test-sign-in-cookies.ts):
 *   nothing else is written to the database or the log, the connection's health included (save
 *   the SAML replay cache: a test sign-in's assertion ID is remembered like any other, so it
 *   cannot be posted twice; and a form post's hand-off row, deleted as it is read);
 * - every adapter with a sign-in (./adapters, `signIn`) runs through the same interface; how
 *   the hand-off travels follows how its answer comes back: a redirect's (oidc) in the cookie
 *   above; a cross-site form post's (saml) server-side under a short random RelayState
 *   (./test-sign-in-hand-offs.ts). The ACS cannot see the operator's session: the result is
 *   sealed for the hand-off's session and the result page shows it to that live session only;
 * - a refused answer shows its precise cause (e.g. SAML `wrong_audience`) to the operator.
 */
import { z } from "zod";
import { readSessionCookie, resolveSessionOperator } from "../auth/console/credential";
import type { OperatorActor } from "../auth/actor";
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { ApiError, notFound } from "../errors";
import { findProvider } from "../providers/catalog";
import { adapterModuleOf } from "./adapters/registry";
import type { TSignInAdapter, TSignInAnswer, TSignInCompletion } from "./adapters/types";
import { adapterSettings } from "./schema";
import { parseConnectionAdapter, unsealSecrets } from "./rows";
import { readConnection } from "./store/connections";
import {
  clearedHandOffCookie,
  HANDOFF_SECONDS,
  handOffCookie,
  PURPOSE_HANDOFF,
  readHandOffCookie,
  resultCookie,
  resultPagePath,
  type THandOff,
  type TTestSignInResult,
} from "./test-sign-in-cookies";
import {
  isTestSignInRelayState,
  keepHandOff,
  newTestRelayState,
  takeHandOff,
} from "./test-sign-in-hand-offs";

export const ZTestSignInStartJson = z.object({
  url: z.string().describe("The upstream's authorization URL: open it in a new tab of the same browser"),
});
export type TTestSignInStartJson = z.infer<typeof ZTestSignInStartJson>;

async function storedConnection(db: Db, env: TEnvironment, providerId: string) {
  if (!findProvider(providerId)) throw notFound(`Provider "${providerId}"`);
  const row = await readConnection(db, env, providerId);
  if (!row) throw notFound(`Connection of provider "${providerId}"`);
  return row;
}

const STALE_SETTINGS = "The saved settings are no longer accepted by the adapter: save the connection again";

type TStoredRow = { adapter: string; settings: unknown; secretsEncrypted: string | null };

/** The stored settings as the adapter reads them; null when it no longer accepts them. */
function storedSettings(row: TStoredRow): unknown {
  try {
    return adapterSettings(parseConnectionAdapter(row.adapter), row.settings, unsealSecrets(row));
  } catch {
    // the zod refusal of a connection stored under older rules (runtime.ts treats it as absent)
    return null;
  }
}

/** The sign-in of a stored connection's adapter; 400 naming `adapter` when it has none. */
function signInOf(row: TStoredRow): TSignInAdapter<unknown, unknown> {
  const signIn = adapterModuleOf(row.adapter)?.signIn;
  if (!signIn) {
    throw new ApiError("VALIDATION_ERROR", `Test sign-in is not available for ${row.adapter} connections`, {
      details: [
        { path: "adapter", message: `test sign-in runs sign-in adapters only (this one is ${row.adapter})` },
      ],
    });
  }
  return signIn;
}

/**
 * POST …/connections/{providerId}/test-sign-in: the upstream's URL, and the hand-off cookie to
 * set (null for a form post's: kept server-side under its RelayState). `cookieHeader` is the
 * request's (the operator's session cookie is bound in).
 */
export async function startTestSignIn(
  db: Db,
  actor: OperatorActor,
  providerId: string,
  cookieHeader: string | null,
): Promise<{ url: string; setCookie: string | null }> {
  if (actor.auth.via !== "session") {
    throw new ApiError(
      "RESOURCE_FORBIDDEN",
      "A test sign-in runs in an operator's browser: start it from the back-office (an operator key cannot)",
    );
  }
  const claims = await readSessionCookie(cookieHeader);
  if (!claims || claims.userId !== actor.auth.userId) {
    throw new ApiError("INVALID_SESSION", "Your session has ended. Sign in again");
  }
  const row = await storedConnection(db, actor.env, providerId);
  const signIn = signInOf(row);
  const settings = storedSettings(row);
  if (settings === null) {
    throw new ApiError("VALIDATION_ERROR", STALE_SETTINGS, {
      details: [{ path: "settings", message: STALE_SETTINGS }],
    });
  }
  const handOffOf = (state: unknown, binding?: string): THandOff => ({
    purpose: PURPOSE_HANDOFF,
    env: actor.env,
    providerId,
    userId: claims.userId,
    sessionId: claims.sessionId,
    expiresAt: Date.now() + HANDOFF_SECONDS * 1000,
    adapter: row.adapter,
    binding,
    state,
  });
  // a form post's answer brings back only the RelayState (no cookie of ours): a random key to the
  // hand-off kept here, short enough for any IdP (SAML: 80 bytes at most)
  const bound: { relayState?: string; handOff?: THandOff } = {};
  const { url, state, binding } = await signIn.begin(settings, {
    env: actor.env,
    providerId,
    bind: (requestState) => {
      bound.relayState = newTestRelayState();
      bound.handOff = handOffOf(requestState);
      return bound.relayState;
    },
  });
  if (signIn.answer === "form_post") {
    if (!bound.relayState || !bound.handOff)
      throw new Error(`the ${row.adapter} sign-in did not call bind()`);
    await keepHandOff(db, bound.relayState, bound.handOff);
    return { url, setCookie: null };
  }
  return {
    url,
    setCookie: handOffCookie(handOffOf(state, binding)),
  };
}

function refused(handOff: THandOff, message: string): TTestSignInResult {
  return {
    env: handOff.env,
    providerId: handOff.providerId,
    outcome: "refused",
    reason: "refused",
    message,
    claims: {},
    rawClaims: {},
    loa: null,
    evidence: {},
    truncated: false,
    at: new Date().toISOString(),
  };
}

function resultOf(handOff: THandOff, { outcome, refusal }: TSignInCompletion): TTestSignInResult {
  const base = { ...refused(handOff, ""), reason: null, message: null };
  // the precise cause of a refused answer: the operator's to see
  if (refusal) return { ...base, outcome: "failure", reason: refusal.reason, message: refusal.message };
  switch (outcome.kind) {
    case "success":
      return {
        ...base,
        outcome: "success",
        claims: outcome.identity.claims,
        rawClaims: outcome.identity.rawClaims,
        loa: outcome.identity.loa,
        evidence: outcome.identity.evidence,
      };
    case "cancelled":
      return { ...base, outcome: "cancelled" };
    case "failure":
      return { ...base, outcome: "failure", reason: outcome.reason, message: outcome.message ?? null };
    default:
      return { ...base, outcome: "failure", reason: outcome.kind, message: null };
  }
}

/** The adapter's part of an answer: the sign-in's outcome (the stored connection as it is now). */
async function completeAdapterTestSignIn(
  row: TStoredRow,
  handOff: THandOff,
  answer: TSignInAnswer,
): Promise<TSignInCompletion> {
  const signIn = adapterModuleOf(row.adapter)?.signIn;
  const state = row.adapter === handOff.adapter ? signIn?.stateSchema.safeParse(handOff.state) : undefined;
  if (!signIn || !state?.success || signIn.answer !== answer.channel) {
    const message = `the connection is no longer ${handOff.adapter}`;
    return { outcome: { kind: "failure", reason: "provider_unavailable", message } };
  }
  const settings = storedSettings(row);
  if (settings === null)
    return { outcome: { kind: "failure", reason: "invalid_configuration", message: STALE_SETTINGS } };
  return signIn.complete(settings, state.data, answer, { env: handOff.env, providerId: handOff.providerId });
}

/** The stored connection's outcome for a hand-off checked by the caller; a refusal on ApiError. */
async function answeredResult(db: Db, handOff: THandOff, answer: TSignInAnswer): Promise<TTestSignInResult> {
  try {
    const row = await storedConnection(db, handOff.env, handOff.providerId);
    return resultOf(handOff, await completeAdapterTestSignIn(row, handOff, answer));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return refused(handOff, err.message);
  }
}

/**
 * GET /verify/callback of a test sign-in: checks the hand-off against the operator's live session,
 * finishes the sign-in with the upstream, and answers where to send the browser (the back-office
 * result page) with the cookies to set (the hand-off cleared, the sealed result). A missing or
 * unreadable hand-off is null (the callback answers 400): there is nothing to show it on.
 */
export async function completeTestSignIn(
  db: Db,
  cookieHeader: string | null,
  callbackUrl: URL,
): Promise<{ location: string; setCookies: string[] } | null> {
  const handOff = readHandOffCookie(cookieHeader);
  if (!handOff) return null;
  const setCookies = [clearedHandOffCookie()];
  const claims = await readSessionCookie(cookieHeader);
  let result: TTestSignInResult;
  if (Date.now() > handOff.expiresAt) {
    result = refused(handOff, "This test sign-in took too long: start it again");
  } else if (!claims || claims.userId !== handOff.userId || claims.sessionId !== handOff.sessionId) {
    result = refused(handOff, "This test sign-in was started by another session: start it again");
  } else {
    const answer: TSignInAnswer = { channel: "redirect_query", url: callbackUrl };
    const carried = adapterModuleOf(handOff.adapter)?.signIn?.bindingOf(answer);
    try {
      await resolveSessionOperator(db, claims);
      result =
        handOff.binding !== undefined && carried !== handOff.binding
          ? refused(handOff, "This answer is not the one of this test sign-in: start it again")
          : await answeredResult(db, handOff, answer);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      result = refused(handOff, err.message);
    }
  }
  setCookies.push(resultCookie(handOff, result));
  return { location: resultPagePath(handOff.env, handOff.providerId), setCookies };
}

/**
 * The IdP's HTTP-POST of a test sign-in to the ACS of `providerId` in `env`: the hand-off is the
 * one kept under the RelayState (10 minutes, for this ACS, consumed here); the answer is
 * completed by the connection's adapter and the browser sent to the result page with the sealed
 * result, which only the hand-off's session can read there. An unknown, used, expired or
 * foreign RelayState is null (the ACS answers 400, no cookie). Never throws for what the post
 * contains.
 */
export async function completeTestSignInPost(
  db: Db,
  at: { env: string; providerId: string },
  form: Record<string, string | undefined>,
): Promise<{ location: string; setCookies: string[] } | null> {
  const relayState = form.RelayState;
  if (!isTestSignInRelayState(relayState)) return null;
  const handOff = await takeHandOff(db, relayState, at);
  if (!handOff) return null;
  const result = await answeredResult(db, handOff, { channel: "form_post", form });
  return {
    location: resultPagePath(handOff.env, handOff.providerId),
    setCookies: [resultCookie(handOff, result)],
  };
}
