/**
 * Host-based rewriting (DESIGN.md §2), in this order:
 * 1. a dedicated host named in IDV_HOSTS is served from that host's surface prefix
 *    (lib/http/hosts.ts holds the rules);
 * 2. a host that is an app's ACTIVE custom domain is served from the hosted pages (webDomain,
 *    `/verify/…`) or the app environment's OpenID Provider (oidcDomain, `/oidc/{env}/…`)
 *    (lib/domains/routing.ts: one indexed query behind a 30 s per-process cache), for that app
 *    only: the request carries the app in SERVED_APP_HEADER (lib/domains/served-app.ts), which is
 *    dropped from every incoming request so that no client can set it;
 * 3. anything else is routed purely by path, as in the default single-host deployment.
 *
 * Runs on the Node.js runtime (the Next 16 default for proxy), so the database is reachable; the
 * host map is lib/config's (IDV_HOSTS, checked when the server starts).
 */
import { NextResponse, type NextRequest } from "next/server";
// `config` is the name of Next's matcher export below
import { config as settings } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { customDomainPath, mayBeCustomDomain, resolveCustomDomainHost } from "@/lib/domains/routing";
import { SERVED_APP_HEADER } from "@/lib/domains/served-app";
import { HOSTED_PATH, hostedCsp, newNonce } from "@/lib/hosted/csp";
import { normalizeHost, rewriteHostPath } from "@/lib/http/hosts";
import { RETRY_AFTER_SECONDS, securityHeaders } from "@/lib/http/pipeline";
import { refuseOversizedBody } from "@/lib/http/surfaces";
import { OP_PAGE } from "@/app/oidc/_lib/op-page";
import { logger } from "@/lib/log";

/**
 * Continues (or rewrites to `pathname`); hosted and simulator pages get a per-request CSP nonce,
 * passed to Next.js on the request (it nonces its own scripts) and sent to the browser. A custom
 * domain's requests carry its app (`servedApp`); a client's own copy of that header never passes.
 */
function rewrite(request: NextRequest, pathname: string | undefined, servedApp?: string) {
  const target = pathname ?? request.nextUrl.pathname;
  // a declared body over every limit: 413 before Next.js buffers it (lib/http/surfaces.ts)
  const oversized = refuseOversizedBody(request, target, OP_PAGE);
  if (oversized) return oversized;
  let init: { request: { headers: Headers } } | undefined;
  let csp: string | undefined;
  const hosted = HOSTED_PATH.test(target);
  if (hosted || servedApp || request.headers.has(SERVED_APP_HEADER)) {
    const headers = new Headers(request.headers);
    headers.delete(SERVED_APP_HEADER);
    if (servedApp) headers.set(SERVED_APP_HEADER, servedApp);
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
  const host = request.headers.get("host");
  const pathname = request.nextUrl.pathname;

  // a malformed IDV_HOSTS is a ConfigError: the server does not start, and were it read only
  // here, every request would fail (500 + the reason) rather than serve the console on an API host
  const map = settings().hosts;
  if (map.size > 0) {
    const name = normalizeHost(host);
    if (name && map.has(name)) return rewrite(request, rewriteHostPath(map, name, pathname));
  }

  const candidate = mayBeCustomDomain(host);
  if (!candidate) return rewrite(request, undefined);
  let route;
  try {
    route = await resolveCustomDomainHost(getDb(), candidate);
  } catch (err) {
    // without the database we cannot tell a customer's domain from ours: serve neither, rather
    // than show the console on someone's domain
    logger.error({ err, host: candidate }, "custom domain lookup failed");
    return new NextResponse("Service temporarily unavailable", {
      status: 503,
      headers: { ...securityHeaders(), "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  }
  if (!route) return rewrite(request, undefined);
  return rewrite(request, customDomainPath(route, pathname), route.appId);
}

export const config = {
  // Everything except build assets, image optimisation and the favicon; the rest of the
  // narrowing (other `_next/` paths, unmapped hosts) happens in rewriteHostPath.
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico).*)"],
};
