/**
 * Host-based rewriting (docs/design.md §2), for requests that go through Next.js's router (pages, and
 * everything when the production server's fast path is off): the shaping is the one of
 * lib/http/request-shaping.ts, shared with that fast path (server/production.mjs). The decision is lib/http/host-routing.ts (a dedicated host
 * of IDV_HOSTS → its surface prefix; an app's ACTIVE custom domain → the hosted pages or the app
 * environment's OpenID Provider, for that app only; anything else as addressed). Here it becomes
 * a Next.js rewrite: the app a custom domain serves travels in SERVED_APP_HEADER
 * (lib/domains/served-app.ts), which is dropped from every incoming request so that no client can
 * set it; hosted, console and back-office pages get their CSP nonce and frame headers
 * (lib/http/page-headers.ts); a method no route serves, a path that does not decode and a declared
 * body over its surface's limit are refused early (lib/http/early-refusals.ts).
 *
 * Runs on the Node.js runtime (the Next 16 default for proxy), so the database is reachable; the
 * host map is lib/config's (IDV_HOSTS, checked when the server starts).
 */
import { NextResponse, type NextRequest } from "next/server";
import { newNonce } from "@/lib/hosted/csp";
import { refuseEarly } from "@/lib/http/early-refusals";
import { routeByHost } from "@/lib/http/host-routing";
import { pageHeadersFor } from "@/lib/http/page-headers";
import { securityHeaders } from "@/lib/http/pipeline";
import { applyServedApp, unavailableResponse } from "@/lib/http/request-shaping";
import { OP_PAGE } from "@/app/oidc/_lib/op-page";

/**
 * Continues (or rewrites to `pathname`); our pages get a per-request CSP nonce, passed to Next.js
 * on the request (it nonces its own scripts) and sent to the browser. A custom
 * domain's requests carry its app (`servedApp`); a client's own copy of that header never passes.
 */
function rewrite(request: NextRequest, pathname: string | undefined, servedApp?: string) {
  const target = pathname ?? request.nextUrl.pathname;
  // TRACE, a path that does not decode, a declared body over its surface's limit: 405 / 400 / 413
  // without handing it to a route (lib/http/early-refusals.ts). Next.js's router has read the body
  // (up to its proxy limit) before the proxy runs; the production server answers all three before
  // reading any of it, and before Next.js (server/production.mjs).
  const early = refuseEarly(
    {
      method: request.method,
      pathname: target,
      contentLength: request.headers.get("content-length"),
      acceptLanguage: request.headers.get("accept-language"),
    },
    OP_PAGE,
  );
  if (early) return early;
  let init: { request: { headers: Headers } } | undefined;
  const page = pageHeadersFor(target, newNonce);
  const headers = new Headers(request.headers);
  if (applyServedApp(headers, servedApp) || page) {
    if (page) headers.set("content-security-policy", page.csp);
    init = { request: { headers } };
  }
  let response: NextResponse;
  if (pathname) {
    const url = request.nextUrl.clone();
    url.pathname = pathname;
    response = NextResponse.rewrite(url, init);
  } else {
    response = NextResponse.next(init);
  }
  if (page) {
    response.headers.set("Content-Security-Policy", page.csp);
    for (const [name, value] of Object.entries(page.headers)) response.headers.set(name, value);
  }
  // nosniff, and HSTS when PUBLIC_URL is https: on pages too (lib/http/pipeline.ts)
  for (const [name, value] of Object.entries(securityHeaders())) response.headers.set(name, value);
  return response;
}

export async function proxy(request: NextRequest) {
  // The Host header as received: a TLS-terminating reverse proxy in front must preserve it.
  const route = await routeByHost(request.headers.get("host"), request.nextUrl.pathname);
  if (route.kind === "unavailable") return unavailableResponse();
  return rewrite(request, route.pathname, route.servedApp);
}

export const config = {
  // Everything except build assets, image optimisation and the favicon; the rest of the
  // narrowing (other `_next/` paths, unmapped hosts) happens in rewriteHostPath.
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico).*)"],
};
