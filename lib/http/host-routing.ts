/**
 * Which surface a request is served from, by its Host header (docs/design.md §2) — the decision of
 * proxy.ts, as a function of its own so that any entry point applies the same host isolation:
 * 1. a dedicated host named in IDV_HOSTS is served from that host's surface prefix
 *    (lib/http/hosts.ts holds the rules);
 * 2. a host that is an app's ACTIVE custom domain is served from the hosted pages (webDomain) or
 *    the app environment's OpenID Provider (oidcDomain), for that app only (`servedApp`, which the
 *    caller sets as SERVED_APP_HEADER after dropping any copy the client sent);
 * 3. anything else is served as addressed.
 * When the custom-domain lookup fails, the answer is "unavailable": without the database a
 * customer's domain cannot be told from ours, so neither is served.
 */
import { config } from "../config";
import { kysely, type Db } from "../db/client";
import { customDomainPath, mayBeCustomDomain, resolveCustomDomainHost } from "../domains/routing";
import { logger } from "../log";
import { normalizeHost, rewriteHostPath } from "./hosts";

export type THostRoute =
  | {
      kind: "serve";
      /** the path to serve instead, when not as addressed */ pathname?: string;
      servedApp?: string;
    }
  | { kind: "unavailable" };

/** `db` is asked for only when a custom domain must be looked up (the service's own host needs none). */
export async function routeByHost(
  host: string | null,
  pathname: string,
  db: () => Db = kysely,
): Promise<THostRoute> {
  const map = config().hosts;
  if (map.size > 0) {
    const name = normalizeHost(host);
    if (name && map.has(name)) return { kind: "serve", pathname: rewriteHostPath(map, name, pathname) };
  }
  const candidate = mayBeCustomDomain(host);
  if (!candidate) return { kind: "serve" };
  let route;
  try {
    route = await resolveCustomDomainHost(db(), candidate);
  } catch (err) {
    logger.error({ err, host: candidate }, "custom domain lookup failed");
    return { kind: "unavailable" };
  }
  if (!route) return { kind: "serve" };
  return { kind: "serve", pathname: customDomainPath(route, pathname), servedApp: route.appId };
}
