/**
 * Host-based rewriting (DESIGN.md §2), for requests that go through Next.js's router (pages, and
 * everything when the production server's fast path is off): the shaping is the one of
 * lib/http/request-shaping.ts, shared with that fast path (server/production.mjs). The decision is lib/http/host-routing.ts (a dedicated host
 * of IDV_HOSTS → its surface prefix; an app's ACTIVE custom domain → the hosted pages or the app
 * environment's OpenID Provider, for that app only; anything else as addressed). Here it becomes
 * a Next.js rewrite: the app a custom domain serves travels in SERVED_APP_HEADER
 * (lib/domains/served-app.ts), which is dropped from every incoming request so that no client can
 * set it; hosted pages get their CSP nonce; a declared body over every limit is refused early.
 *
 * Runs on the Node.js runtime (the Next 16 default for proxy), so the database is reachable; the
 * host map is lib/config's (IDV_HOSTS, checked when the server starts).
 */
import { NextResponse, type NextRequest } from "next/server";
import { HOSTED_PATH, hostedCsp, newNonce } from "@/lib/hosted/csp";
import { routeByHost } from "@/lib/http/host-routing";
import { securityHeaders } from "@/lib/http/pipeline";
import { applyServedApp, unavailableResponse } from "@/lib/http/request-shaping";
import { refuseOversizedBody } from "@/lib/http/surfaces";
import { OP_PAGE } from "@/app/oidc/_lib/op-page";

/**
 * Continues (or rewrites to `pathname`); hosted and simulator pages get a per-request CSP nonce,
 * passed to Next.js on the request (it nonces its own scripts) and sent to the browser. A custom
 * domain's requests carry its app (`servedApp`); a client's own copy of that header never passes.
 */
function rewrite(request: NextRequest, pathname: string | undefined, servedApp?: string) {
  const target = pathname ?? request.nextUrl.pathname;
  // a declared body over every limit: 413 without handing it to a route (lib/http/surfaces.ts).
  // Next.js's router has read the body (up to its proxy limit) before the proxy runs; the
  // production server's fast path answers before reading any of it (server/production.mjs).
  const oversized = refuseOversizedBody(request, target, OP_PAGE);
  if (oversized) return oversized;
  let init: { request: { headers: Headers } } | undefined;
  let csp: string | undefined;
  const hosted = HOSTED_PATH.test(target);
  const headers = new Headers(request.headers);
  if (applyServedApp(headers, servedApp) || hosted) {
    if (hosted) {
      csp = hostedCsp(newNonce());
      headers.set("content-security-policy", csp);
    }
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
  if (csp) response.headers.set("Content-Security-Policy", csp);
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
