/**
 * next-auth's `callbackUrl` (a query parameter, a form field, and the `next-auth.callback-url`
 * cookie it sets itself): where a browser goes after signing in or out. next-auth parses it with
 * `new URL()` and answers a value that does not parse (`http://x:y`,
 * `http://127.0.0.1:3917.evil.example/`) with a 500. Rules, checked before next-auth sees the
 * request (app/api/auth/[...nextauth]/route.ts):
 * - acceptable: a path on this service (`/console/…`; resolved against PUBLIC_URL it stays on
 *   PUBLIC_URL's origin, so `//evil.example` and `/\evil.example` are not) or an absolute URL of
 *   PUBLIC_URL's origin;
 * - a query parameter or form field that is not: 400 VALIDATION_ERROR naming `callbackUrl`;
 * - a cookie that is not (planted, or left by another configuration): dropped and cleared, so a
 *   bad cookie cannot lock anyone out of signing in.
 */
import { ApiError } from "../errors";

/** The cookies next-auth keeps the callback URL in (`__Secure-` on https). */
export const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"] as const;

export function isAcceptableCallbackUrl(value: string, publicUrl: string): boolean {
  const origin = new URL(publicUrl).origin;
  try {
    const url = value.startsWith("/") ? new URL(value, origin) : new URL(value);
    return url.origin === origin;
  } catch {
    return false;
  }
}

/** Throws 400 VALIDATION_ERROR when `value` (a query parameter or form field) is given and not acceptable. */
export function checkCallbackUrl(value: string | null | undefined, publicUrl: string): void {
  if (value === null || value === undefined || value === "") return;
  if (isAcceptableCallbackUrl(value, publicUrl)) return;
  throw new ApiError("VALIDATION_ERROR", "callbackUrl must be a path or a URL of this service", {
    details: [{ path: "callbackUrl", message: "must be a path or a URL of this service" }],
  });
}

/** The cookies of a Cookie header, as next-auth's own parser reads them: the first of a name wins, values URL-decoded. */
export function parseCookieHeader(header: string | null): Record<string, string> {
  const cookies = Object.create(null) as Record<string, string>;
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || Object.hasOwn(cookies, name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      cookies[name] = value.includes("%") ? decodeURIComponent(value) : value;
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}
