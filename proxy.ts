/**
 * Host-based rewriting (DESIGN.md §2): requests for a dedicated host named in IDV_HOSTS are served
 * from that host's surface prefix (lib/http/hosts.ts holds the rules). Without IDV_HOSTS this does
 * nothing, so the default single-host deployment is routed purely by path.
 *
 * Runs on the Node.js runtime (the Next 16 default for proxy), so IDV_HOSTS is read at request
 * time from the server's environment, not baked in at build time.
 */
import { NextResponse, type NextRequest } from "next/server";
import { parseHostMap, rewriteHostPath, type THostMap } from "@/lib/http/hosts";

let cached: { raw: string; map: THostMap } | undefined;

function hostMap(raw: string): THostMap {
  // a malformed IDV_HOSTS throws here on every request (500 + the reason in the log) rather than
  // quietly serving the console on an API host
  if (cached?.raw !== raw) cached = { raw, map: parseHostMap(raw) };
  return cached.map;
}

export function proxy(request: NextRequest) {
  const raw = process.env.IDV_HOSTS;
  if (!raw) return NextResponse.next();

  // The Host header as received: a TLS-terminating reverse proxy in front must preserve it.
  const host = request.headers.get("host");
  const rewritten = rewriteHostPath(hostMap(raw), host, request.nextUrl.pathname);
  // Custom app domains (an app's active webDomain / oidcDomain) plug in here, in a later issue:
  // when the static map has no entry, look the host up among active custom domains and rewrite
  // to `/verify/…` (webDomain) or the app environment's `/oidc/{env}` (oidcDomain). That lookup
  // must then also run when IDV_HOSTS is unset.
  if (!rewritten) return NextResponse.next();

  const url = request.nextUrl.clone();
  url.pathname = rewritten;
  return NextResponse.rewrite(url);
}

export const config = {
  // Everything except build assets, image optimisation and the favicon; the rest of the
  // narrowing (other `_next/` paths, unmapped hosts) happens in rewriteHostPath.
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico).*)"],
};
