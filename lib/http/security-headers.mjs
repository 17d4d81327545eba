/**
 * The security headers of everything an end-user's browser gets from us: the hosted and simulator
 * pages (Next.js pages, via next.config.mjs and proxy.ts), their route handlers
 * (lib/hosted/headers.ts), and the OpenID Provider's picker and error pages (app/oidc/_lib).
 * One list, so the three cannot drift apart. Plain JavaScript, because next.config.mjs imports it
 * (types: security-headers.d.mts).
 * Rules:
 * - nothing is cached (a page can hold a session's data), framed, sniffed, or given a referrer;
 * - documents also switch off the device features no page uses (Permissions-Policy);
 * - Content-Security-Policy by kind of answer: route handlers' answers (JSON, redirects, SVG,
 *   text) load nothing; Next.js pages run only the scripts carrying the request's nonce (set by
 *   proxy.ts); the OP's pages, rendered without Next.js, load no script at all, only their one
 *   inline stylesheet (by its hash) and data: images (logos).
 */

/** Every end-user answer. */
export const END_USER_HEADERS = Object.freeze({
  "Cache-Control": "no-store, max-age=0",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
});

/** Every end-user document (page), on top of END_USER_HEADERS. */
export const PAGE_HEADERS = Object.freeze({
  ...END_USER_HEADERS,
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
});

/** Route handlers' answers that are no document: nothing may load. */
export const HANDLER_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The Next.js pages (hosted, simulator): scripts only with the per-request nonce (Next.js puts it
 * on its own bootstrap and RSC scripts), 'strict-dynamic' for the chunks they load; styles keep
 * 'unsafe-inline' (Next.js inlines style tags).
 */
export function nextPageCsp(nonce) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The OP's pages: no script, their inline stylesheet by its SHA-256 (base64), data: images. */
export function staticPageCsp(styleSha256) {
  return [
    "default-src 'none'",
    `style-src 'sha256-${styleSha256}'`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** `headers` in the form of next.config.mjs `headers()`. */
export function nextConfigHeaders(headers) {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}
