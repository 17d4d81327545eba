/**
 * What happens to a request before any route sees it, on both ways into the service: proxy.ts
 * (Next.js's router) and the fast path of the production server (server/fast-path.mjs, which
 * hands `/api/…` and `/oidc/…` straight to their route handlers). One implementation, so the two
 * cannot drift apart:
 * - the host decides the surface (routeByHost, lib/http/host-routing.ts); when a custom domain
 *   cannot be looked up, 503 (`unavailableResponse`);
 * - SERVED_APP_HEADER is dropped from every request and set only for an active custom domain's
 *   app (`applyServedApp`; lib/domains/served-app.ts);
 * - a method no route serves (TRACE …), a path whose percent-encoding does not decode, and a
 *   declared body over its surface's limit are refused (405, 400, 413) before anything reads it
 *   (refuseEarly, lib/http/early-refusals.ts); the production server also cuts a body that passes
 *   the limit unannounced or does not arrive in time (IDV_BODY_TIMEOUT_MS);
 * - every answer carries the security headers (securityHeaders, lib/http/pipeline.ts).
 * Hosted pages' CSP nonces stay with proxy.ts: the fast path never serves a page.
 */
import { config } from "../config";
import { SERVED_APP_HEADER } from "../domains/served-app";
import {
  bodyLimitFor,
  earlyRefusal,
  refuseEarly,
  type TEarlyRefusal,
  type TRequestHead,
} from "./early-refusals";
import { MAX_BODY_BYTES } from "./body";
import { RETRY_AFTER_SECONDS, securityHeaders, type TSurface } from "./pipeline";
import { routeByHost, type THostRoute } from "./host-routing";

/**
 * Drops any copy of SERVED_APP_HEADER the client sent and sets the served app (a custom domain's
 * requests). Returns whether `headers` changed.
 */
export function applyServedApp(headers: Headers, servedApp: string | undefined): boolean {
  const present = headers.has(SERVED_APP_HEADER);
  if (present) headers.delete(SERVED_APP_HEADER);
  if (servedApp) headers.set(SERVED_APP_HEADER, servedApp);
  return present || servedApp !== undefined;
}

/** The answer when the host cannot be told apart from a customer's domain (database down). */
export function unavailableResponse(): Response {
  return new Response("Service temporarily unavailable", {
    status: 503,
    headers: { ...securityHeaders(), "Retry-After": String(RETRY_AFTER_SECONDS) },
  });
}

/** The pieces of request shaping the production server's fast path calls (see the module doc). */
export interface TFastPathHooks {
  route(host: string | null, pathname: string): Promise<THostRoute>;
  applyServedApp(headers: Headers, servedApp: string | undefined): boolean;
  /** 405 / 400 / 413 before anything is read (lib/http/early-refusals.ts) */
  refuseEarly(head: TRequestHead): Response | undefined;
  /** a body cut while it is read: too large unannounced, or too slow */
  earlyRefusal(kind: TEarlyRefusal, head: TRequestHead): Response;
  bodyLimit(pathname: string): number;
  /** the largest bodyLimit of any path */
  maxBodyLimit: number;
  bodyTimeoutMs(): number;
  unavailableResponse(): Response;
  securityHeaders(): Record<string, string>;
}

/**
 * Where instrumentation.ts leaves the hooks for the production server (server/production.mjs, server/fast-path.mjs) (same process, same bundled
 * modules and database client as the route handlers). The server holds the same key.
 */
export const FAST_PATH_HOOKS = Symbol.for("idv.fast-path");

/** `opPage`: the OP's page surface (app/oidc/_lib/op-page.ts), for its early answers. */
export function fastPathHooks(opPage: TSurface): TFastPathHooks {
  return {
    route: (host, pathname) => routeByHost(host, pathname),
    applyServedApp,
    refuseEarly: (head) => refuseEarly(head, opPage),
    earlyRefusal: (kind, head) => earlyRefusal(kind, head, opPage),
    bodyLimit: bodyLimitFor,
    maxBodyLimit: MAX_BODY_BYTES,
    bodyTimeoutMs: () => config().bodyTimeoutMs,
    unavailableResponse,
    securityHeaders,
  };
}

export function registerFastPathHooks(opPage: TSurface): void {
  (globalThis as Record<symbol, unknown>)[FAST_PATH_HOOKS] = fastPathHooks(opPage);
}
