/**
 * Serving an app's ACTIVE custom domain (docs/design.md §2), for the proxy (proxy.ts) and the TLS
 * "may a certificate be issued" check.
 * Rules:
 * - only an `active` custom domain of an app that is not deleted is served; anything else is not
 *   ours, so the proxy leaves it alone and no certificate is issued for it;
 * - webDomain serves the hosted pages: `/verify/…` as addressed; any other path is kept inside
 *   `/verify` (`/` → `/verify`, `/login` → `/verify/login`), so a customer's domain never
 *   shows the console, the REST API or another surface;
 * - oidcDomain serves the app environment's OpenID Provider: a path goes under `/oidc/{env}`
 *   (`/.well-known/openid-configuration` → `/oidc/sandbox/.well-known/openid-configuration`);
 * - framework assets (`/_next/…`) are never rewritten;
 * - the route carries the domain's app: the proxy passes it on in the SERVED_APP_HEADER request
 *   header (served-app.ts; any copy a client sends is dropped), and the hosted pages and the OP
 *   answer 404 for another app's verification or client_id on that host;
 * - the lookup is one indexed query (the host indexes; unique among active domains); the proxy's
 *   answers, found or not, are cached per process for CACHE_TTL_MS, so an activation or a delete
 *   reaches other instances within that time (this instance forgets at once);
 * - the service's own hosts (PUBLIC_URL, IDV_HOSTS, the CNAME target), IP addresses and names
 *   without a dot are never looked up.
 */
import { isIP } from "node:net";
import { config, type TConfig } from "../config";
import type { Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { normalizeHost, rewriteUnderPrefix } from "../http/hosts";
import { reservedHosts } from "./settings";
import { readActiveHost, readTlsHost } from "./store/routing";

export const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

export interface TCustomDomainRoute {
  kind: "web" | "oidc";
  environment: TEnvironment;
  /** the app (client_id) the domain belongs to: the only app served on it */
  appId: string;
}

/** The surface path prefix a custom domain host serves. */
export function customDomainPrefix(route: Pick<TCustomDomainRoute, "kind" | "environment">): string {
  return route.kind === "web" ? "/verify" : `/oidc/${route.environment}`;
}

/** The pathname to serve for `pathname` on a custom domain, or undefined to serve it as addressed. */
export function customDomainPath(
  route: Pick<TCustomDomainRoute, "kind" | "environment">,
  pathname: string,
): string | undefined {
  // a sandbox app's web domain also serves the simulator (the sandbox provider's pages), which
  // the hosted pages link to; production web domains never do
  if (
    route.kind === "web" &&
    route.environment === "sandbox" &&
    (pathname === "/sandbox/verify" || pathname.startsWith("/sandbox/verify/"))
  )
    return undefined;
  return rewriteUnderPrefix(customDomainPrefix(route), pathname);
}

/** One indexed query: the route of `host` when it is a host of an active custom domain. */
export async function findActiveCustomDomainHost(
  db: Db,
  host: string,
): Promise<TCustomDomainRoute | undefined> {
  const row = await readActiveHost(db, host);
  if (!row) return undefined;
  return { kind: row.webDomain === host ? "web" : "oidc", environment: row.environment, appId: row.appId };
}

interface CacheEntry {
  route: TCustomDomainRoute | undefined;
  expires: number;
}

// on globalThis: the proxy and the route handlers may be bundled apart yet share the process
const globalCache = globalThis as unknown as {
  idvCustomDomainCache?: Map<string, CacheEntry>;
  idvServiceHosts?: { settings: TConfig; hosts: Set<string> };
};
function cache(): Map<string, CacheEntry> {
  return (globalCache.idvCustomDomainCache ??= new Map());
}

/** Drops cached answers for these hosts (after a change made by this process). */
export function forgetCustomDomainHosts(hosts: readonly string[]): void {
  for (const host of hosts) cache().delete(host);
}

/** reservedHosts(), worked out again only when the configuration was read again. */
function serviceHosts(): Set<string> {
  const settings = config();
  if (globalCache.idvServiceHosts?.settings !== settings)
    globalCache.idvServiceHosts = { settings, hosts: reservedHosts() };
  return globalCache.idvServiceHosts.hosts;
}

/** Whether a Host header could name a custom domain at all (so whether to look it up). */
export function mayBeCustomDomain(host: string | null | undefined): string | undefined {
  const name = normalizeHost(host);
  if (!name || !name.includes(".") || isIP(name) || serviceHosts().has(name)) return undefined;
  return name;
}

/** The proxy's lookup: findActiveCustomDomainHost behind the per-process cache. */
export async function resolveCustomDomainHost(
  db: Db,
  host: string,
  now = Date.now(),
): Promise<TCustomDomainRoute | undefined> {
  const entries = cache();
  const hit = entries.get(host);
  if (hit && hit.expires > now) return hit.route;
  const route = await findActiveCustomDomainHost(db, host);
  entries.delete(host);
  if (entries.size >= CACHE_MAX_ENTRIES) {
    // Maps iterate in insertion order: drop the oldest entry
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(host, { route, expires: now + CACHE_TTL_MS });
  return route;
}

/** The custom domain a host belongs to (either role, any state, deleted app or not). */
export interface TTlsDomainRow {
  domainId: string;
  role: "web" | "oidc";
  webDomain: string;
  oidcDomain: string;
  status: string;
  requiredAction: string;
  statusMessage: string | null;
  lastCheckedAt: Date | null;
  appId: string;
  appName: string;
  appDeleted: boolean;
  environment: TEnvironment;
  workspaceId: string;
}

export type TTlsDecision =
  | { allowed: true; code: "active_custom_domain"; host: string; domain: TTlsDomainRow }
  | { allowed: false; code: "domain_not_active" | "app_deleted"; host: string; domain: TTlsDomainRow }
  | { allowed: false; code: "unknown_host"; host: string; domain: null }
  | { allowed: false; code: "invalid_host"; host: null; domain: null };

/**
 * The TLS on-demand decision for `domain`, with what it rests on: a certificate is issued only
 * for a host of an `active` custom domain of an app that is not deleted. One query on the host
 * indexes; when several apps claim the host, the active domain is the one shown, else the oldest
 * claim. The operators' explanation (GET /v1/operator/custom-domains/tls-check) and the
 * edge's check (isTlsHostAllowed) both come from here, so they cannot disagree.
 */
export async function decideTlsHost(db: Db, domain: string): Promise<TTlsDecision> {
  const host = normalizeHost(domain);
  if (!host) return { allowed: false, code: "invalid_host", host: null, domain: null };
  const row = await readTlsHost(db, host);
  if (!row) return { allowed: false, code: "unknown_host", host, domain: null };
  const found: TTlsDomainRow = {
    domainId: row.id,
    role: row.webDomain === host ? "web" : "oidc",
    webDomain: row.webDomain,
    oidcDomain: row.oidcDomain,
    status: row.status,
    requiredAction: row.requiredAction,
    statusMessage: row.statusMessage,
    lastCheckedAt: row.lastCheckedAt,
    appId: row.appId,
    appName: row.appName,
    appDeleted: row.deletedAt !== null,
    environment: row.environment,
    workspaceId: row.workspaceId,
  };
  if (found.appDeleted) return { allowed: false, code: "app_deleted", host, domain: found };
  if (found.status !== "active") return { allowed: false, code: "domain_not_active", host, domain: found };
  return { allowed: true, code: "active_custom_domain", host, domain: found };
}

/**
 * The TLS on-demand check (Caddy's `ask`): may a certificate be issued for `domain`? Only for a
 * host of an active custom domain. Uncached — it runs once per new certificate, and an answer
 * cached from before an activation would delay the first certificate.
 */
export async function isTlsHostAllowed(db: Db, domain: string): Promise<boolean> {
  return (await decideTlsHost(db, domain)).allowed;
}
