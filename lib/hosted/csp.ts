/**
 * Content-Security-Policy of the hosted and simulator pages. Scripts run only with the per-request
 * nonce the proxy generates (Next.js reads it from the request's CSP header and puts it on its own
 * bootstrap and RSC scripts), so no inline script can be injected; 'strict-dynamic' lets those
 * nonced scripts load the page's chunks. Styles keep 'unsafe-inline' (Next inlines style tags).
 * The policy itself is in the one list of end-user headers (lib/http/security-headers.mjs).
 */
import { nextPageCsp } from "../http/security-headers.mjs";

export const HOSTED_PATH = /^\/(verify|sandbox)(\/|$)/;

export function hostedCsp(nonce: string): string {
  return nextPageCsp(nonce);
}

export function newNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
