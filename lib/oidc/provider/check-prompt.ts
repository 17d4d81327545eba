/**
 * The authentication request's hints (OIDC Core §3.1.2.1, §5.5).
 * Rules:
 * - prompt is a set of none, login, consent, select_account; `none` alone or not at all. Every
 *   sign-in is a fresh eID verification — there is no OP session to reuse — so `prompt=none`
 *   always answers login_required, and the others need nothing extra (`login` is always honoured);
 * - max_age: a non-negative integer; every sign-in authenticates anew, so any max_age is met, and
 *   auth_time is always in the ID token;
 * - id_token_hint must be an ID token this OP issued to this client: signed by one of the
 *   environment's published keys, `iss` this issuer, `aud` containing the client_id (its expiry
 *   is not checked: a hint names a past sign-in). Anything else, malformed or not ours, is
 *   invalid_request. A good hint changes nothing: with no OP session there is no end-user to match
 *   it against (prompt=none still answers login_required);
 * - login_hint, claims_locales and display are accepted (once each) and not used: the end-user is
 *   identified by the eID, not by an account a hint could name; claims come in the language and
 *   script of the identity document; the OP's pages are one responsive page for every display;
 * - claims (§5.5) must be a JSON object whose `userinfo` and `id_token` members, when present, are
 *   objects, else invalid_request; a well-formed request is then ignored, as §5.5 allows an OP
 *   whose discovery says claims_parameter_supported false: the userinfo holds what the app's
 *   workflow collected, the ID token never holds personal data;
 * - ui_locales: the first well-formed BCP 47 tag is the session's locale.
 */
import { compactVerify, createLocalJWKSet } from "jose";
import type { Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";
import { publicJwks, SIGNING_ALGS } from "../keys";
import { AuthorizationError } from "./authorization-error";
import { single, type TAuthorizationParams } from "./params";

const PROMPTS = new Set(["none", "login", "consent", "select_account"]);

export function checkPrompt(params: TAuthorizationParams): string | undefined {
  const prompt = single(params, "prompt");
  if (prompt === undefined) return undefined;
  const values = prompt.split(" ").filter(Boolean);
  const unknown = values.find((v) => !PROMPTS.has(v));
  if (unknown !== undefined) {
    throw new AuthorizationError("invalid_request", `prompt: "${unknown.slice(0, 32)}" is not supported`);
  }
  if (values.includes("none")) {
    if (values.length > 1)
      throw new AuthorizationError("invalid_request", "prompt: none must not be combined with other values");
    throw new AuthorizationError("login_required", "prompt=none: every sign-in needs a new eID verification");
  }
  return values.join(" ");
}

/** max_age: a non-negative integer of seconds. */
export function checkMaxAge(params: TAuthorizationParams): number | undefined {
  const raw = single(params, "max_age");
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw))
    throw new AuthorizationError("invalid_request", "max_age: must be a non-negative integer");
  return Number(raw);
}

/** ui_locales: a space-separated list of BCP 47 tags; the first well-formed one is the session's locale. */
export function checkUiLocales(params: TAuthorizationParams): { uiLocales?: string; locale?: string } {
  const raw = single(params, "ui_locales");
  if (raw === undefined) return {};
  const locale = raw.split(" ").find((tag) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag));
  return { uiLocales: raw.slice(0, 256), ...(locale ? { locale } : {}) };
}

/** The longest id_token_hint read (our ID tokens are well under 2 KiB). */
const MAX_HINT_LENGTH = 8192;

/**
 * Refuses an id_token_hint that is not an ID token of ours for `clientId` (invalid_request), and
 * the ignored hints sent twice.
 */
export async function checkIdTokenHint(
  db: Db,
  op: { environment: TEnvironment; issuer: string; clientId: string },
  params: TAuthorizationParams,
): Promise<void> {
  single(params, "login_hint");
  single(params, "claims_locales");
  single(params, "display");
  const hint = single(params, "id_token_hint");
  if (hint === undefined) return;
  const refuse = (why: string) => new AuthorizationError("invalid_request", `id_token_hint: ${why}`);
  if (hint.length > MAX_HINT_LENGTH || hint.split(".").length !== 3)
    throw refuse("is not an ID token (a signed JWT) issued by this OpenID Provider");
  // read outside the try: a database out of reach is a 503, not a bad hint
  const jwks = createLocalJWKSet(await publicJwks(db, op.environment));
  let claims: Record<string, unknown>;
  try {
    const { payload } = await compactVerify(hint, jwks, { algorithms: [...SIGNING_ALGS] });
    const parsed: unknown = JSON.parse(new TextDecoder().decode(payload));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error("not a claims set");
    claims = parsed as Record<string, unknown>;
  } catch {
    throw refuse("is not an ID token signed by this OpenID Provider");
  }
  if (claims.iss !== op.issuer) throw refuse("was not issued by this issuer");
  const aud = claims.aud;
  if (!(aud === op.clientId || (Array.isArray(aud) && aud.includes(op.clientId))))
    throw refuse("was not issued to this client");
  if (typeof claims.sub !== "string") throw refuse("has no subject");
}

/** The claims request (§5.5): well-formed or invalid_request; its content is not used. */
export function checkClaims(params: TAuthorizationParams): void {
  const raw = single(params, "claims");
  if (raw === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AuthorizationError("invalid_request", "claims: is not valid JSON");
  }
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(parsed)) throw new AuthorizationError("invalid_request", "claims: must be a JSON object");
  for (const member of ["userinfo", "id_token"]) {
    const value = (parsed as Record<string, unknown>)[member];
    if (value !== undefined && !isObject(value))
      throw new AuthorizationError("invalid_request", `claims: "${member}" must be a JSON object`);
  }
}
