/**
 * Host-based rewriting (docs/design.md §2): dedicated hosts such as `api.sandbox.example.com` or
 * `auth.example.com` serve one surface each, mapped onto the path prefixes every surface has on
 * PUBLIC_URL (`/api/sandbox`, `/oidc/production`, …). The map is a deployment setting, `IDV_HOSTS`:
 * `{"api.sandbox.example.com":"/api/sandbox","auth.example.com":"/oidc/production"}`.
 *
 * Rules:
 * - Hosts match exactly after normalisation (case, port and a trailing dot do not count); no
 *   wildcards, so a host nobody configured is never re-routed.
 * - The request path goes under the host's prefix: `/v1/apps` → `/api/sandbox/v1/apps`, `/` → the
 *   prefix itself. A path already under the prefix stays as it is (links that carry the full
 *   path keep working); any other path stays inside the surface (`/api/production/…` on a sandbox
 *   host becomes `/api/sandbox/api/production/…`, a 404), so a dedicated host never reaches
 *   another surface.
 * - Framework assets (`/_next/…`) and the service's icon (`/icon.svg`, `/favicon.ico`) are never
 *   rewritten: pages served on a mapped host need them.
 * - A malformed map is a configuration error and throws, rather than silently serving the console
 *   on an API host.
 * - Hosts of the static map come first; an app's active custom domain (lib/domains/routing.ts) is
 *   only looked up for hosts the map does not name.
 * Pure functions only: the proxy (proxy.ts) reads the environment and applies the result.
 */
import { z } from "zod";

/** Normalised host → surface prefix (`/api/sandbox`, no trailing slash). */
export type THostMap = ReadonlyMap<string, string>;

const HOST_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const PREFIX_PATTERN = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

const ZHostMap = z.record(
  z.string(),
  z
    .string()
    .regex(PREFIX_PATTERN, 'must be an absolute path prefix without a trailing slash, like "/api/sandbox"'),
);

/**
 * The host part of a Host header value, lowercased, without port or trailing dot; undefined when
 * missing or not a DNS name (IP literals are never dedicated hosts).
 */
export function normalizeHost(host: string | null | undefined): string | undefined {
  if (!host) return undefined;
  const name = host.trim().toLowerCase().replace(/:\d*$/, "").replace(/\.$/, "");
  return HOST_PATTERN.test(name) ? name : undefined;
}

/** Parses the IDV_HOSTS value; throws an Error naming the offending entry. */
export function parseHostMap(raw: string): THostMap {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new Error(`IDV_HOSTS is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = ZHostMap.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at "${issue.path.join(".")}"` : "";
    throw new Error(
      `IDV_HOSTS must be a JSON object of host → path prefix${where}: ${issue?.message ?? "invalid"}`,
    );
  }
  const map = new Map<string, string>();
  for (const [host, prefix] of Object.entries(parsed.data)) {
    const name = normalizeHost(host);
    if (!name || name !== host.trim().toLowerCase().replace(/\.$/, "")) {
      throw new Error(`IDV_HOSTS: "${host}" is not a host name (no scheme, port or path)`);
    }
    if (map.has(name)) throw new Error(`IDV_HOSTS: host "${name}" is listed twice`);
    map.set(name, prefix);
  }
  return map;
}

/**
 * The pathname a request for `host` + `pathname` is served from, or undefined when it is served
 * as addressed (host not mapped, framework asset, or already under the host's prefix).
 */
export function rewriteHostPath(
  map: THostMap,
  host: string | null | undefined,
  pathname: string,
): string | undefined {
  const name = normalizeHost(host);
  if (!name) return undefined;
  const prefix = map.get(name);
  if (!prefix) return undefined;
  return rewriteUnderPrefix(prefix, pathname);
}

/**
 * The pathname under which a host whose surface is `prefix` serves `pathname`, or undefined when
 * it is served as addressed (framework asset, or already under the prefix). Shared by the static
 * map and by app custom domains (lib/domains/routing.ts).
 */
export function rewriteUnderPrefix(prefix: string, pathname: string): string | undefined {
  if (pathname === "/_next" || pathname.startsWith("/_next/")) return undefined;
  // the service's icon (app/icon.svg, app/favicon.ico) is served on every host, like the assets
  if (pathname === "/icon.svg" || pathname === "/favicon.ico") return undefined;
  if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return undefined;
  const path = pathname.startsWith("/") ? pathname : `/${pathname}`;
  return path === "/" ? prefix : `${prefix}${path}`;
}
