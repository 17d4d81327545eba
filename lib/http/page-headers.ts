/**
 * The headers of our Next.js pages that proxy.ts sets per request (the static ones are in
 * next.config.mjs). Rules:
 * - hosted and simulator pages (`/verify/…`, `/sandbox/…`) and the console's pages — sign-in
 *   (`/`), sign-up, invitations, password reset, the console (`/console/…`), the development
 *   mailbox and the back-office (`/operator/…`) —
 *   get the nonce Content-Security-Policy of lib/http/security-headers.mjs (`nextPageCsp`):
 *   scripts only with the request's nonce (Next.js puts it on its own scripts when the request
 *   carries the policy) and what they load ('strict-dynamic'), no plugins, no <base>, never framed
 *   (`frame-ancestors 'none'`); styles keep 'unsafe-inline' (React Flow, recharts and Next.js set
 *   inline styles; docs/decisions.md);
 * - the console's pages also get `X-Frame-Options: DENY` (the hosted pages have it, with the rest
 *   of the end-user headers, from next.config.mjs).
 * Route handlers (`/api/…`, `/oidc/…`) set their own headers; the OP's pages have their own policy.
 */
import { HOSTED_PATH } from "../hosted/csp";
import { nextPageCsp } from "./security-headers.mjs";

/**
 * Every page of the (console) and (operator) route groups, by their first path segment
 * (early-refusals.test.ts fails when a page there is not covered).
 */
export const CONSOLE_PAGE_PATH =
  /^\/(?:(?:console|operator|signup|invite|forgot-password|reset-password|dev)(?:\/.*)?)?$/;

export const CONSOLE_PAGE_HEADERS = Object.freeze({ "X-Frame-Options": "DENY" });

export interface TPageHeaders {
  /** the policy, for the request (Next.js reads the nonce from it) and the response */
  csp: string;
  /** the response's other per-page headers */
  headers: Readonly<Record<string, string>>;
}

/**
 * The per-request headers of the page at `pathname` (after host rewriting), with a nonce from
 * `newNonce`; undefined for no page of ours.
 */
export function pageHeadersFor(pathname: string, newNonce: () => string): TPageHeaders | undefined {
  if (HOSTED_PATH.test(pathname)) return { csp: nextPageCsp(newNonce()), headers: {} };
  if (CONSOLE_PAGE_PATH.test(pathname))
    return { csp: nextPageCsp(newNonce()), headers: CONSOLE_PAGE_HEADERS };
  return undefined;
}
