/**
 * What the OP shows the browser when it does not redirect: the provider picker and the error
 * page. This module decides what a page says; app/oidc/_lib/op-page.ts renders it in the hosted
 * frame (components/verify/op-pages.tsx) with the end-user security headers.
 * Rules:
 * - an error page is never a redirect: its client or redirect_uri is not trusted, or there is
 *   nothing to answer; it keeps its status (400, 404, 429, 413, 405, 500, 503);
 * - a situation the end-user can act on has a `reason`, shown in the page's language; any other
 *   error shows its technical description (English, as sent to clients) under a translated title;
 * - the page's language hint is the request's ui_locales, read as the session would read it (its
 *   first well-formed tag); the app falls back to Accept-Language, as the hosted pages do;
 * - the picker (built by handlers.ts) lists only providers the request can use, each linking back
 *   to /auth with the same parameters plus `provider` (relative, so a custom OIDC domain keeps its
 *   own host), which runs every check again.
 */
import type { TEnvironment } from "../../environments";
import type { ApiError } from "../../errors";
import { AuthorizationError } from "./authorization-error";
import { checkUiLocales } from "./check-prompt";
import type { TAuthorizationParams } from "./params";

/** Situations with an end-user text of their own (lib/hosted/i18n `op.reasons`). */
export type TOpErrorReason =
  "unknown" | "not_here" | "other_browser" | "app_gone" | "answered" | "busy" | "server";

export interface TOpErrorPage {
  kind: "error";
  error: AuthorizationError;
  status: number;
  reason?: TOpErrorReason;
  /** placeholders of the reason's text */
  vars?: Record<string, string>;
  /** a BCP 47 tag the request asked for (ui_locales) */
  locale?: string;
  /** headers of the answer (Retry-After, Allow) */
  headers?: Record<string, string>;
}

export interface TPickerProvider {
  id: string;
  name: string;
  /** data: URL */
  logo?: string;
  countries: string[];
}

export interface TOpPickerPage {
  kind: "picker";
  environment: TEnvironment;
  app: { name: string; logo?: string };
  providers: TPickerProvider[];
  /** the authorization request's parameters, to repeat with `provider` added */
  search: URLSearchParams;
  locale?: string;
}

export type TOpPage = TOpErrorPage | TOpPickerPage;

type TErrorExtras = Omit<TOpErrorPage, "kind" | "error" | "status">;

export function errorPage(error: AuthorizationError, status = 400, extras: TErrorExtras = {}): TOpErrorPage {
  return { kind: "error", error, status, ...extras };
}

/** The language a request asked for: its ui_locales' first well-formed tag, if sent once. */
export function requestedLocale(params: TAuthorizationParams | undefined): string | undefined {
  if (!params || params.repeated.has("ui_locales")) return undefined;
  return checkUiLocales(params).locale;
}

/** The same for a stored request's raw ui_locales. */
export function storedLocale(uiLocales: string | null | undefined): string | undefined {
  return uiLocales ? requestedLocale({ values: { ui_locales: uiLocales }, repeated: new Set() }) : undefined;
}

/**
 * An error the pipeline caught on an OP page route (405, 413, 500, 503 …): the error page with its
 * status and headers; internals never show, a 5xx names the request id for support.
 */
export function pipelineErrorPage(error: ApiError, requestId: string): TOpErrorPage {
  const headers = { ...error.headers };
  if (error.status >= 500) {
    return errorPage(
      new AuthorizationError("server_error", `Something went wrong (${requestId})`, false),
      error.status,
      { reason: "server", vars: { requestId }, headers },
    );
  }
  return errorPage(new AuthorizationError("invalid_request", error.message, false), error.status, {
    headers,
  });
}
