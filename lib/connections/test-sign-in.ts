/**
 * Test sign-in through a connection (issue 24 §1, back-office): an operator runs a real sign-in
 * against the connection's upstream in a new tab and sees the mapped claims and the upstream's raw
 * claims, without anything being stored server-side.
 * Rules:
 * - only an operator's console session may start one (an operator key is 403): the sign-in needs
 *   that operator's browser; the hand-off (state, nonce, PKCE verifier, environment, provider,
 *   the operator's user id and session id, expiry) is sealed with the master key, 10 minutes;
 *   a redirect's (oidc) travels in an HttpOnly cookie of its own (Path=/verify) — no database row;
 * - the upstream returns to the one registered callback, {PUBLIC_URL}/verify/callback, which hands
 *   over here when this cookie is present and a session's cookie is not; the callback accepts it
 *   only from the same live operator session that started it (same user, same session id);
 * - the stored connection is used as it is, also when disabled or failing (an operator tests
 *   before enabling); the adapter's own functions run the sign-in (lib/providers/adapters/oidc.ts),
 *   so the claims shown are mapped exactly as a production sign-in maps them;
 * - the result (outcome, mapped and raw claims, LoA, evidence) goes to the back-office result page
 *   in a second sealed HttpOnly cookie bound to the same session (Path=/operator/{env}/connections,
 *   5 minutes): nothing else is written to the database or the log, the connection's health
 *   included (save the SAML replay cache: a test sign-in's assertion ID is remembered like any
 *   other, so it cannot be posted twice; and a form post's hand-off row below, deleted as it is
 *   read);
 * - every adapter with a sign-in (./adapters, `signIn`) runs through the same interface; how
 *   the hand-off travels follows how its answer comes back: a redirect's (oidc) in the cookie
 *   above; a cross-site form post's (saml: the IdP's HTTP-POST to the connection's ACS, which
 *   carries no cookie of ours, and whose RelayState SAML Bindings §3.4.3/§3.5.3 limit to 80
 *   bytes, enforced by eIDAS nodes and SPID) is kept server-side in `connection_test_hand_offs`
 *   under a short random RelayState (`t.` + 32 random base64url characters, 34 bytes; the row's
 *   id is the SHA-256 of that RelayState, its hand-off sealed as above: no personal data). The
 *   ACS recognises it by the prefix and consumes it in one statement (DELETE … RETURNING, for
 *   its environment and provider only): single use, refused once expired; expired rows are
 *   purged hourly (`saml_assertion_purge`). The ACS cannot see the operator's session: the
 *   result is sealed for the hand-off's session and the result page shows it to that live
 *   session only;
 * - a refused answer shows its precise cause (e.g. SAML `wrong_audience`) to the operator.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { readSessionCookie, resolveSessionOperator } from "../auth/console-session";
import type { OperatorActor } from "../auth/actor";
import { config } from "../config";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import { sha256Hex } from "../crypto/hash";
import type { Db, Tx } from "../db/client";
import { ENVIRONMENTS, parseEnvironment, type TEnvironment } from "../environments";
import { ApiError, notFound } from "../errors";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";
import { findProvider } from "../providers/catalog";
import { adapterModuleOf } from "./adapters/registry";
import type { TSignInAdapter, TSignInAnswer, TSignInCompletion } from "./adapters/types";
import { adapterSettings } from "./schema";
import { parseConnectionAdapter, unsealSecrets } from "./rows";

/** The hand-off cookie between the start and the callback (its own name: never a session's). */
export const TEST_SIGN_IN_COOKIE = "idv_connection_test";
/** The result cookie the back-office result page reads. */
export const TEST_RESULT_COOKIE = "idv_connection_test_result";

const HANDOFF_SECONDS = 10 * 60;
const RESULT_SECONDS = 5 * 60;
/** Browsers keep cookies up to about 4096 bytes (name and attributes included). */
const MAX_RESULT_COOKIE_CHARS = 3800;
const PURPOSE_HANDOFF = "connection_test_sign_in";
const PURPOSE_RESULT = "connection_test_result";

export const ZTestSignInStartJson = z.object({
  url: z.string().describe("The upstream's authorization URL: open it in a new tab of the same browser"),
});
export type TTestSignInStartJson = z.infer<typeof ZTestSignInStartJson>;

const ZEnvironment = z.enum(ENVIRONMENTS);

const ZHandOff = z.object({
  purpose: z.literal(PURPOSE_HANDOFF),
  env: ZEnvironment,
  providerId: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  expiresAt: z.number(),
  /** the connection's adapter when the sign-in started, the binding its answer carries, its state */
  adapter: z.string(),
  binding: z.string().optional(),
  state: z.unknown(),
});
type THandOff = z.infer<typeof ZHandOff>;

export const ZTestSignInResult = z.object({
  env: ZEnvironment,
  providerId: z.string(),
  outcome: z.enum(["success", "failure", "cancelled", "refused"]),
  /** failure: the adapter's reason and message; refused: why the callback refused the hand-off */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  /** the claims under OIDC names, mapped by the connection's claimMapping */
  claims: z.record(z.string(), z.unknown()),
  /** the upstream's person claims under its own names (the mapping editor previews on these) */
  rawClaims: z.record(z.string(), z.unknown()),
  loa: z.number().nullable(),
  evidence: z.record(z.string(), z.string()),
  /** the claims did not fit in the result cookie: only the outcome is shown */
  truncated: z.boolean(),
  at: z.string(),
});
export type TTestSignInResult = z.infer<typeof ZTestSignInResult>;

const ZSealedResult = z.object({
  purpose: z.literal(PURPOSE_RESULT),
  userId: z.string(),
  sessionId: z.string(),
  expiresAt: z.number(),
  result: ZTestSignInResult,
});

function secureFlag(): string {
  return config().https ? "; Secure" : "";
}

function cookie(name: string, value: string, path: string, maxAge: number): string {
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureFlag()}`;
}

export function resultPagePath(env: TEnvironment, providerId: string): string {
  return `/operator/${env}/connections/${providerId}/test-sign-in`;
}

function resultCookiePath(env: TEnvironment): string {
  return `/operator/${env}/connections`;
}

/** The cookie header's value of `name` (undefined when absent). */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function unseal<T>(schema: z.ZodType<T>, sealed: string | undefined): T | null {
  if (!sealed) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(decryptSecret(sealed)));
    return parsed.success ? parsed.data : null;
  } catch {
    // forged, truncated, or sealed with another master key
    return null;
  }
}

async function storedConnection(db: Tx, env: TEnvironment, providerId: string) {
  if (!findProvider(providerId)) throw notFound(`Provider "${providerId}"`);
  const row = await db.providerConnection.findUnique({
    where: { environment_providerId: { environment: env, providerId } },
  });
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

/** The prefix of a test sign-in's RelayState (a session's starts with ver_). */
const RELAY_PREFIX = "t.";
/** A test sign-in's RelayState: the prefix and 32 random base64url characters (192 bits; 34 of the 80 bytes). */
const TEST_RELAY_STATE = /^t\.[A-Za-z0-9_-]{32}$/;

function seal(handOff: THandOff): string {
  return encryptSecret(JSON.stringify(handOff));
}

/** The key of a form post's hand-off row: the SHA-256 of the RelayState (never stored as it is). */
function handOffKey(relayState: string): string {
  return sha256Hex(relayState);
}

/** Keeps a form post's hand-off under its RelayState (in the start's transaction). */
async function keepHandOff(db: Tx, relayState: string, handOff: THandOff): Promise<void> {
  await db.connectionTestHandOff.create({
    data: {
      id: handOffKey(relayState),
      environment: handOff.env,
      providerId: handOff.providerId,
      handOffSealed: seal(handOff),
      expiresAt: new Date(handOff.expiresAt),
    },
  });
}

/**
 * The hand-off a form post's RelayState names at the ACS of `providerId` in `env`, deleted as it
 * is read (single use: of two posts of the same RelayState exactly one gets it); null when there
 * is none (unknown, used, purged, or another ACS's: that one's row is left alone) or it expired.
 */
async function takeHandOff(
  db: Tx,
  relayState: string,
  at: { env: string; providerId: string },
): Promise<THandOff | null> {
  const env = parseEnvironment(at.env);
  if (!env || !TEST_RELAY_STATE.test(relayState)) return null;
  const rows = await db.$queryRaw<{ hand_off_sealed: string }[]>`
    DELETE FROM connection_test_hand_offs
     WHERE id = ${handOffKey(relayState)} AND environment = ${env}::"Environment"
       AND provider_id = ${at.providerId}
    RETURNING hand_off_sealed`;
  const handOff = unseal(ZHandOff, rows[0]?.hand_off_sealed);
  if (!handOff || handOff.env !== env || handOff.providerId !== at.providerId) return null;
  return Date.now() > handOff.expiresAt ? null : handOff;
}

/** Deletes the form posts' hand-offs that expired unanswered, in bounded batches (hourly). */
export async function purgeExpiredTestSignInHandOffs(
  db: Pick<Db, "$executeRaw">,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  // the column is a UTC `timestamp without time zone`: the literal's Z is ignored on the cast
  return deleteInBatches(
    (limit) => db.$executeRaw`
      DELETE FROM connection_test_hand_offs
       WHERE id IN (SELECT id FROM connection_test_hand_offs
                     WHERE expires_at < ${now.toISOString()}::timestamp LIMIT ${limit})`,
    batchSize,
  );
}

/**
 * POST …/connections/{providerId}/test-sign-in: the upstream's URL, and the hand-off cookie to
 * set (null for a form post's: kept server-side under its RelayState). `cookieHeader` is the
 * request's (the operator's session cookie is bound in).
 */
export async function startTestSignIn(
  db: Tx,
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
      bound.relayState = `${RELAY_PREFIX}${randomBytes(24).toString("base64url")}`;
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
    setCookie: cookie(TEST_SIGN_IN_COOKIE, seal(handOffOf(state, binding)), "/verify", HANDOFF_SECONDS),
  };
}

/** Whether a callback request belongs to a test sign-in: its cookie, and no session's cookie. */
export function isTestSignInCallback(cookieHeader: string | null, sessionCookieName: string): boolean {
  return (
    cookieValue(cookieHeader, TEST_SIGN_IN_COOKIE) !== undefined &&
    cookieValue(cookieHeader, sessionCookieName) === undefined
  );
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
async function answeredResult(db: Tx, handOff: THandOff, answer: TSignInAnswer): Promise<TTestSignInResult> {
  try {
    const row = await storedConnection(db, handOff.env, handOff.providerId);
    return resultOf(handOff, await completeAdapterTestSignIn(row, handOff, answer));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return refused(handOff, err.message);
  }
}

function resultCookie(handOff: THandOff, result: TTestSignInResult): string {
  const sealed = sealResult(result, handOff.userId, handOff.sessionId);
  return cookie(TEST_RESULT_COOKIE, sealed, resultCookiePath(handOff.env), RESULT_SECONDS);
}

/**
 * GET /verify/callback of a test sign-in: checks the hand-off against the operator's live session,
 * finishes the sign-in with the upstream, and answers where to send the browser (the back-office
 * result page) with the cookies to set (the hand-off cleared, the sealed result). A missing or
 * unreadable hand-off is null (the callback answers 400): there is nothing to show it on.
 */
export async function completeTestSignIn(
  db: Tx,
  cookieHeader: string | null,
  callbackUrl: URL,
): Promise<{ location: string; setCookies: string[] } | null> {
  const handOff = unseal(ZHandOff, cookieValue(cookieHeader, TEST_SIGN_IN_COOKIE));
  if (!handOff) return null;
  const setCookies = [cookie(TEST_SIGN_IN_COOKIE, "", "/verify", 0)];
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

/** Whether a form post's RelayState is a test sign-in's (not a session's). */
export function isTestSignInRelayState(relayState: string | undefined): boolean {
  return relayState?.startsWith(RELAY_PREFIX) === true;
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
  db: Tx,
  at: { env: string; providerId: string },
  form: Record<string, string | undefined>,
): Promise<{ location: string; setCookies: string[] } | null> {
  const relayState = form.RelayState;
  if (!relayState?.startsWith(RELAY_PREFIX)) return null;
  const handOff = await takeHandOff(db, relayState, at);
  if (!handOff) return null;
  const result = await answeredResult(db, handOff, { channel: "form_post", form });
  return {
    location: resultPagePath(handOff.env, handOff.providerId),
    setCookies: [resultCookie(handOff, result)],
  };
}

function sealResult(result: TTestSignInResult, userId: string, sessionId: string): string {
  const seal = (r: TTestSignInResult) =>
    encryptSecret(
      JSON.stringify({
        purpose: PURPOSE_RESULT,
        userId,
        sessionId,
        expiresAt: Date.now() + RESULT_SECONDS * 1000,
        result: r,
      }),
    );
  const sealed = seal(result);
  if (sealed.length <= MAX_RESULT_COOKIE_CHARS) return sealed;
  return seal({ ...result, claims: {}, rawClaims: {}, evidence: {}, truncated: true });
}

/**
 * The result page's read: the sealed result of the last test sign-in of `providerId` in `env`,
 * when it belongs to this session (`cookieHeader` holds both cookies) and has not expired.
 */
export async function readTestSignInResult(
  cookieHeader: string | null,
  env: TEnvironment,
  providerId: string,
): Promise<TTestSignInResult | null> {
  const sealed = unseal(ZSealedResult, cookieValue(cookieHeader, TEST_RESULT_COOKIE));
  if (!sealed || Date.now() > sealed.expiresAt) return null;
  const claims = await readSessionCookie(cookieHeader);
  if (!claims || claims.userId !== sealed.userId || claims.sessionId !== sealed.sessionId) return null;
  if (sealed.result.env !== env || sealed.result.providerId !== providerId) return null;
  return sealed.result;
}
