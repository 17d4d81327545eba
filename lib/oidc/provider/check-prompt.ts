/**
 * Rules (OIDC Core §3.1.2.1): prompt is a set of none, login, consent, select_account; `none`
 * alone or not at all. Every sign-in is a fresh eID verification — there is no OP session to
 * reuse — so `prompt=none` always answers login_required, and the others need nothing extra.
 */
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

/** Rule: max_age is a non-negative integer of seconds; auth_time is always in the ID token. */
export function checkMaxAge(params: TAuthorizationParams): number | undefined {
  const raw = single(params, "max_age");
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw))
    throw new AuthorizationError("invalid_request", "max_age: must be a non-negative integer");
  return Number(raw);
}

/** Rule: ui_locales is a space-separated list of BCP 47 tags; the first well-formed one is the session's locale. */
export function checkUiLocales(params: TAuthorizationParams): { uiLocales?: string; locale?: string } {
  const raw = single(params, "ui_locales");
  if (raw === undefined) return {};
  const locale = raw.split(" ").find((tag) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag));
  return { uiLocales: raw.slice(0, 256), ...(locale ? { locale } : {}) };
}
