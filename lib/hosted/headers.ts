/**
 * Response headers and request checks of the hosted and simulator pages' route handlers.
 * Rules:
 * - nothing with session data is cached (Cache-Control no-store), nothing is framed, no referrer
 *   leaves the page, nothing loads: the one list of end-user headers (lib/http/security-headers.mjs,
 *   which next.config.mjs sets on the pages themselves);
 * - state-changing form posts must come from the page itself: Sec-Fetch-Site cross-site/same-site,
 *   or (older browsers) an Origin of another host, is refused (the pages carry no cookie, so
 *   SameSite cannot do this for us).
 */
import { END_USER_HEADERS, HANDLER_CSP } from "../http/security-headers.mjs";

export const HOSTED_HEADERS: Readonly<Record<string, string>> = {
  ...END_USER_HEADERS,
  "Content-Security-Policy": HANDLER_CSP,
};

export function seeOther(location: string, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { ...HOSTED_HEADERS, Location: location, ...extra } });
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...HOSTED_HEADERS, "Content-Type": "application/json; charset=utf-8" },
  });
}

export function textResponse(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...HOSTED_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** The hosted actions' answer for a session that does not exist or is not served here. */
export function verificationNotFound(): Response {
  return textResponse(404, "Verification not found");
}

/** False for a cross-site form post (its Origin names none of the hosts this request reached). */
export function isSameOrigin(request: Request): boolean {
  // Fetch metadata first: with Referrer-Policy no-referrer browsers send `Origin: null` on form
  // posts, but Sec-Fetch-Site still tells a same-origin post from a cross-site one
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const hosts = new Set<string>();
  for (const name of ["host", "x-forwarded-host"]) {
    const value = request.headers.get(name);
    if (value) hosts.add(value.split(",")[0]!.trim());
  }
  try {
    hosts.add(new URL(request.url).host);
  } catch {
    // a relative request URL names no host
  }
  return hosts.has(originHost);
}

export const VERIFICATION_ID = /^ver_[0-9A-Za-z]{1,64}$/;
