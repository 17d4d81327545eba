/**
 * The production server's fast path (IDV_FAST_PATH, on by default): a request whose target is a
 * route handler of `/api/…` or `/oidc/…` (server/route-table.mjs) is handed straight to that
 * handler — the same built module Next.js would call — skipping Next.js's router, its proxy
 * invocation and its request/response adapters, which cost about 40 % of a status read
 * (docs/benchmarks.md). The request is shaped exactly as proxy.ts shapes it, by the same code
 * (lib/http/request-shaping.ts, left on globalThis by instrumentation.ts): the host decides the
 * surface and the served app, a client's copy of the served-app header is dropped, and every
 * answer carries the security headers. server/production.mjs's request listener calls it once the
 * request passed its checks and its body was read.
 */
import path from "node:path";
import { createRequire } from "node:module";
import { ROUTE_LABEL } from "./operations.mjs";
import { findRoute, loadRoutes } from "./route-table.mjs";
import { BODYLESS, webHeaders, writeResponse } from "./web.mjs";

/** lib/http/request-shaping.ts FAST_PATH_HOOKS */
export const FAST_PATH_HOOKS = Symbol.for("idv.fast-path");

const ROUTE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The version of the Next.js installed beside the server (the one that made the build), or "?". */
function nextVersion(require) {
  try {
    return String(require("next/package.json").version);
  } catch {
    return "?";
  }
}

/**
 * The fast path's request handler, called by requestListener with the request's host route, its
 * target path and its body (read whole, or undefined when it has none). It answers `false` when
 * Next.js should serve the request: a target that is no route handler of /api/… or /oidc/…, a
 * method the route does not export, or no request-shaping hooks (yet).
 */
export function fastPath({ distDir, origin }) {
  const require = createRequire(import.meta.url);
  const routes = loadRoutes(distDir);
  const handlers = new Map();

  /** The exports of a built route module (its GET, POST, …), loaded once. */
  function handlersOf(file) {
    let loaded = handlers.get(file);
    if (!loaded) {
      loaded = (async () => {
        const { routeModule } = require(path.join(distDir, "server", file));
        if (typeof routeModule?.ensureUserland === "function") await routeModule.ensureUserland();
        return routeModule?.userland ?? null;
      })().catch((err) => {
        console.error(`fast path: cannot load ${file}; Next.js serves it`, err);
        return null;
      });
      handlers.set(file, loaded);
    }
    return loaded;
  }

  /**
   * Loads every route module of the table and checks the Next.js internals the fast path relies
   * on (the app-paths manifest, `routeModule.userland` with the route's HTTP methods): throws,
   * naming each route that does not have them, rather than let a Next.js upgrade turn the fast
   * path silently off. The modules it loads are the ones requests then use.
   */
  async function check() {
    if (routes.length === 0)
      throw new Error(
        "fast path: the build's app-paths-manifest.json names no route handler of /api/… or /oidc/…",
      );
    const broken = [];
    for (const route of routes) {
      try {
        const { routeModule } = require(path.join(distDir, "server", route.file));
        if (typeof routeModule?.ensureUserland === "function") await routeModule.ensureUserland();
        const userland = routeModule?.userland;
        if (!routeModule) broken.push(`${route.file}: no \`routeModule\` export`);
        else if (!userland || !ROUTE_METHODS.some((m) => typeof userland[m] === "function"))
          broken.push(`${route.file}: \`routeModule.userland\` has no HTTP method handler`);
        else handlers.set(route.file, Promise.resolve(userland));
      } catch (err) {
        broken.push(`${route.file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (broken.length > 0) {
      const next = nextVersion(require);
      throw new Error(
        `fast path: the built route modules are not what it expects (Next.js ${next}); ` +
          `start with IDV_FAST_PATH=off, or adapt server/fast-path.mjs to this Next.js:\n  ` +
          broken.join("\n  "),
      );
    }
  }

  async function serve(req, res, { route, target, body }) {
    const hooks = globalThis[FAST_PATH_HOOKS];
    if (!hooks) return false;
    const url = req.url ?? "/";
    const found = findRoute(routes, target);
    if (!found) return false;
    const userland = await handlersOf(found.route.file);
    const handler = userland?.[req.method ?? "GET"];
    // HEAD and OPTIONS without their own export, 405s: as Next.js answers them
    if (typeof handler !== "function") return false;

    const headers = webHeaders(req);
    hooks.applyServedApp(headers, route.servedApp);
    const method = req.method;
    // its URL is the one addressed, as Next.js gives it to a rewritten route (the params are the target's)
    const request = new Request(origin + url, {
      method,
      headers,
      ...(BODYLESS.has(method) || !body ? {} : { body: body.bytes() }),
    });
    res[ROUTE_LABEL] = `/${found.route.segments.join("/")}`;
    const response = await handler(request, { params: Promise.resolve(found.params) });
    await writeResponse(res, response, hooks.securityHeaders());
    return true;
  }

  serve.check = check;
  return serve;
}
