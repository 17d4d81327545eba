/**
 * The route handlers the production server's fast path may call directly (server/production.mjs):
 * every built `route.js` of `/api/…` (except `/api/auth/…`, next-auth, which relies on Next.js's
 * request context) and of `/oidc/…`, read from the build's app-paths-manifest.json, matched the
 * way Next.js matches them: static segments before dynamic ones, catch-alls last, route groups
 * "(x)" not part of the URL. Paths Next.js would first normalise (percent-encoding, a trailing or
 * doubled slash) match nothing here, so Next.js answers them as before.
 */
import fs from "node:fs";
import path from "node:path";

/** Whether a route of this URL path is served by the fast path. */
export function isFastRoute(urlPath) {
  return (urlPath.startsWith("/api/") && !urlPath.startsWith("/api/auth/")) || urlPath.startsWith("/oidc/");
}

const score = (segment) => (segment.startsWith("[...") ? 2 : segment.startsWith("[") ? 1 : 0);

/**
 * `manifest`: app-paths-manifest.json's entries ("/api/[env]/v1/apps/route" →
 * "app/api/[env]/v1/apps/route.js"). Returns the routes in matching order.
 */
export function routesFromManifest(manifest) {
  const routes = [];
  for (const [key, file] of Object.entries(manifest)) {
    if (!key.endsWith("/route") || typeof file !== "string") continue;
    const segments = key
      .slice(0, -"/route".length)
      .split("/")
      .filter((s) => s && !/^\(.*\)$/.test(s));
    if (segments.some((s) => s.startsWith("[[") || s.startsWith("@"))) continue;
    if (!isFastRoute("/" + segments.join("/") + "/")) continue;
    routes.push({ file, segments });
  }
  routes.sort((a, b) => {
    for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
      const d =
        (a.segments[i] === undefined ? -1 : score(a.segments[i])) -
        (b.segments[i] === undefined ? -1 : score(b.segments[i]));
      if (d !== 0) return d;
    }
    return b.segments.length - a.segments.length;
  });
  return routes;
}

function match(route, parts) {
  const params = {};
  for (let i = 0; i < route.segments.length; i++) {
    const segment = route.segments[i];
    if (segment.startsWith("[...")) {
      if (i >= parts.length) return undefined;
      params[segment.slice(4, -1)] = parts.slice(i);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return undefined;
    if (segment.startsWith("[")) params[segment.slice(1, -1)] = part;
    else if (segment !== part) return undefined;
  }
  return parts.length === route.segments.length ? params : undefined;
}

/**
 * The route serving `pathname` with its params, or undefined (then Next.js serves the request).
 * Only plain paths: no percent-encoding, no empty segment, no trailing slash.
 */
export function findRoute(routes, pathname) {
  if (!pathname.startsWith("/") || pathname.includes("%") || pathname.includes("//")) return undefined;
  if (pathname.length > 1 && pathname.endsWith("/")) return undefined;
  if (!isFastRoute(pathname)) return undefined;
  const parts = pathname.slice(1).split("/");
  if (parts.some((p) => p === "." || p === "..")) return undefined;
  for (const route of routes) {
    const params = match(route, parts);
    if (params) return { route, params };
  }
  return undefined;
}

/** The routes of a build (`distDir`: the `.next` directory). */
export function loadRoutes(distDir) {
  const file = path.join(distDir, "server", "app-paths-manifest.json");
  return routesFromManifest(JSON.parse(fs.readFileSync(file, "utf8")));
}
