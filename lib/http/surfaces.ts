/**
 * The error shapes of the pipeline's surfaces (lib/http/pipeline.ts). Each renders an ApiError
 * (the pipeline's 405, 413, 415, 400 body errors, 503 and 500 included) the way its clients
 * read errors:
 * - REST: the envelope `{error:{code,message,requestId,details?}}` (lib/errors/index.ts);
 * - OAUTH (REST /token, OP /token, /par, /userinfo, discovery, JWKS): RFC 6749 `{error,
 *   error_description}`, never cached; 500 → server_error, 503 → temporarily_unavailable, 429 →
 *   slow_down, any other status → invalid_request; OAuthErrors thrown by the handler are answered
 *   as they are;
 * - the OP's page surface (/oidc/{env}/auth, /select, /resume: a browser is looking): the OP's
 *   error page in the hosted frame; it renders React, so it lives with the app
 *   (OP_PAGE of app/oidc/_lib/op-page.ts) and is handed to surfaceForPath by the proxy;
 * - HOSTED (hosted pages' and simulator routes, the wallet): the hosted JSON envelope
 *   `{error:{code,message,requestId,details?}}` with the hosted pages' security headers.
 * Headers of the error (Retry-After, Allow, WWW-Authenticate) are kept on every surface.
 */
import { HOSTED_HEADERS } from "../hosted/headers";
import { OAuthError, oauthErrorResponse, oauthJsonResponse } from "../oidc/errors";
import { errorBody } from "../errors";
import type { TSurface } from "./pipeline";

const JSON_TYPE = "application/json; charset=utf-8";

export const REST: TSurface = {
  name: "rest",
  error: (error, requestId) =>
    new Response(JSON.stringify(errorBody(error, requestId)), {
      status: error.status,
      headers: { "Content-Type": JSON_TYPE, "Cache-Control": "no-store", ...error.headers },
    }),
};

function oauthCode(status: number): string {
  if (status === 503) return "temporarily_unavailable";
  if (status === 429) return "slow_down";
  return status >= 500 ? "server_error" : "invalid_request";
}

export const OAUTH: TSurface = {
  name: "oauth",
  own: (err) => (err instanceof OAuthError ? oauthErrorResponse(err) : undefined),
  error: (error, requestId) =>
    oauthJsonResponse(
      error.status,
      {
        error: oauthCode(error.status),
        error_description:
          error.status === 500
            ? `Internal server error. Quote the requestId ${requestId} when contacting support`
            : error.message,
      },
      error.headers,
    ),
};

/** The hosted pages' and simulator's form posts (an identifier, an outcome): far below this. */
export const HOSTED_FORM_MAX_BYTES = 16 * 1024;

export const HOSTED: TSurface = {
  name: "hosted",
  error: (error, requestId) =>
    new Response(JSON.stringify(errorBody(error, requestId)), {
      status: error.status,
      headers: { ...HOSTED_HEADERS, "Content-Type": JSON_TYPE, ...error.headers },
    }),
};

/**
 * The surface that serves a path (after host rewriting): for answers given before any route
 * runs (lib/http/early-refusals.ts). `opPage` is the OP's page surface (app/oidc/_lib/op-page.ts).
 */
export function surfaceForPath(pathname: string, opPage: TSurface): TSurface {
  if (/^\/api\/[^/]+\/token\/?$/.test(pathname)) return OAUTH;
  if (/^\/oidc\/[^/]+\/(token|par|userinfo|jwks|\.well-known\/)/.test(pathname)) return OAUTH;
  if (pathname.startsWith("/oidc/")) return opPage;
  if (/^\/(verify|sandbox)(\/|$)/.test(pathname)) return HOSTED;
  return REST;
}
