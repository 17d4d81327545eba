/**
 * What is refused before any route handler or page sees a request, on every way into the service:
 * the server of server/production.mjs for every path (`npm start`, and `npm run dev` with Next.js's
 * development server behind it; through the hooks of lib/http/request-shaping.ts, before its fast
 * path and before Next.js) and proxy.ts for the paths Next.js's router serves. Rules:
 * - a method outside GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS (TRACE, CONNECT, PROPFIND …)
 *   → 405 METHOD_NOT_ALLOWED with `Allow`;
 * - a path whose percent-encoding does not decode (`/verify/%FF`, `/api/…/%zz`: not UTF-8, or not
 *   an escape) → 400 VALIDATION_ERROR naming `(path)`;
 * - a declared Content-Length over the limit of the surface the path belongs to → 413
 *   PAYLOAD_TOO_LARGE, before a byte of the body is read;
 * - a body that is not complete within `IDV_BODY_TIMEOUT_MS`, or that passes the limit without
 *   declaring its length (chunked), is cut by the production server: 408 REQUEST_TIMEOUT or 413
 *   (`earlyRefusal`).
 * Each answer is in the shape of the surface the path belongs to (surfaceForPath,
 * lib/http/surfaces.ts: the REST envelope, OAuth bodies, the OP's error page, the hosted pages'
 * envelope), with the security headers and a request id, and is logged like any request.
 *
 * Body limits (bodyLimitFor), the largest body any route of the surface accepts — each route's own
 * reader (lib/http/body.ts) may be stricter:
 * - `/api/{env}/…`, `/api/tls…`, `/oidc/…`, the hosted and simulator pages (the wallet's JSON):
 *   1 MB (MAX_BODY_BYTES);
 * - next-auth (`/api/auth/…`): 16 KB, a sign-in form;
 * - everything else (console and back-office pages, unknown paths): 16 KB; no page takes a body.
 */
import { ApiError } from "../errors";
import { newId } from "../ids";
import { logger } from "../log";
import { HOSTED_PATH } from "../hosted/csp";
import { MAX_BODY_BYTES, payloadTooLarge } from "./body";
import { securityHeaders, type TSurface, withHeaders } from "./pipeline";
import { surfaceForPath } from "./surfaces";

/** The methods any path may be asked with (a route answers 405 for those it does not implement). */
export const SERVED_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"] as const;
const SERVED = new Set<string>(SERVED_METHODS);

/** next-auth's forms: a sign-in is an email, a password and a CSRF token. */
export const AUTH_FORM_MAX_BYTES = 16 * 1024;
/** Pages and paths no route serves: no page takes a body. */
export const PAGE_BODY_MAX_BYTES = 16 * 1024;

/** The largest body a request to `pathname` (after host rewriting) may carry, in bytes. */
export function bodyLimitFor(pathname: string): number {
  if (pathname === "/api/auth" || pathname.startsWith("/api/auth/")) return AUTH_FORM_MAX_BYTES;
  if (pathname.startsWith("/api/") || pathname.startsWith("/oidc/")) return MAX_BODY_BYTES;
  if (HOSTED_PATH.test(pathname)) return MAX_BODY_BYTES;
  return PAGE_BODY_MAX_BYTES;
}

/** True when `pathname` holds a percent-escape that does not decode to UTF-8 text. */
export function hasMalformedEncoding(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** What the early checks look at: no body, no Request object needed. */
export interface TRequestHead {
  /** as received (upper case for every method Node.js parses) */
  method: string;
  /** the path after host rewriting, still percent-encoded */
  pathname: string;
  contentLength?: string | null;
  acceptLanguage?: string | null;
}

export type TEarlyRefusal = "METHOD_NOT_ALLOWED" | "MALFORMED_PATH" | "PAYLOAD_TOO_LARGE" | "REQUEST_TIMEOUT";

const ALLOW = SERVED_METHODS.join(", ");

function errorOf(kind: TEarlyRefusal, head: TRequestHead): ApiError {
  switch (kind) {
    case "METHOD_NOT_ALLOWED":
      return new ApiError(
        "METHOD_NOT_ALLOWED",
        `${head.method.slice(0, 32)} is not allowed. Allowed: ${ALLOW}`,
        { headers: { Allow: ALLOW } },
      );
    case "MALFORMED_PATH":
      return new ApiError("VALIDATION_ERROR", "The request path is not valid percent-encoded UTF-8", {
        details: [{ path: "(path)", message: "invalid percent-encoding" }],
      });
    case "PAYLOAD_TOO_LARGE":
      return payloadTooLarge(bodyLimitFor(head.pathname));
    case "REQUEST_TIMEOUT":
      return new ApiError("REQUEST_TIMEOUT", "The request body did not arrive in time");
  }
}

/** The answer to a request refused before any route: the surface's shape, security headers, logged. */
export function earlyRefusal(kind: TEarlyRefusal, head: TRequestHead, opPage: TSurface): Response {
  const requestId = newId("req");
  const error = errorOf(kind, head);
  const surface = surfaceForPath(head.pathname, opPage);
  const request = new Request("http://localhost/", {
    headers: head.acceptLanguage ? { "accept-language": head.acceptLanguage } : {},
  });
  logger.info(
    {
      requestId,
      surface: surface.name,
      method: head.method.slice(0, 32),
      path: head.pathname.slice(0, 2048),
      status: error.status,
      ms: 0,
    },
    "request",
  );
  return withHeaders(surface.error(error, requestId, request), {
    ...securityHeaders(),
    "X-Request-Id": requestId,
  });
}

/** Which early refusal applies to a request, if any (the order: method, path, declared length). */
export function earlyRefusalOf(head: TRequestHead): TEarlyRefusal | undefined {
  if (!SERVED.has(head.method)) return "METHOD_NOT_ALLOWED";
  if (hasMalformedEncoding(head.pathname)) return "MALFORMED_PATH";
  const declared = head.contentLength;
  if (declared !== null && declared !== undefined && Number(declared) > bodyLimitFor(head.pathname))
    return "PAYLOAD_TOO_LARGE";
  return undefined;
}

/** The early answer for a request, or undefined when it may go on. */
export function refuseEarly(head: TRequestHead, opPage: TSurface): Response | undefined {
  const kind = earlyRefusalOf(head);
  return kind ? earlyRefusal(kind, head, opPage) : undefined;
}
