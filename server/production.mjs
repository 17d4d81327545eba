#!/usr/bin/env node
/**
 * The production server behind `npm start` (`idv serve` runs it; `node server/production.mjs
 * --port N --hostname H [--no-fast-path]` in the project directory after `next build`).
 *
 * Every request is first shaped and checked here, for every path (`requestListener`): the host
 * decides the target (503 when a custom domain cannot be looked up); a method no route serves
 * (TRACE …) is answered 405, a path whose percent-encoding does not decode 400, a declared body over
 * the target surface's limit 413 before a byte of it is read (lib/http/early-refusals.ts, through
 * the request-shaping hooks); a body is then read here, whole, before anyone else sees it: past the
 * limit without a declared length (chunked) 413, not complete within IDV_BODY_TIMEOUT_MS 408. Only
 * then does the request go on, with its body, to the fast path or to Next.js.
 *
 * Pages, build assets, next-auth and anything else go to Next.js's own request handler, proxy.ts
 * included. With the fast path on (the default; IDV_FAST_PATH=off turns it off), a request whose
 * target is a route handler of `/api/…` or `/oidc/…` (server/route-table.mjs) is handed straight
 * to that handler — the same built module Next.js would call — skipping Next.js's router, its
 * proxy invocation and its request/response adapters, which cost about 40 % of a status read
 * (docs/benchmarks.md). The request is shaped exactly as proxy.ts shapes it, by the same code
 * (lib/http/request-shaping.ts, left on globalThis by instrumentation.ts): the host decides the
 * surface and the served app, a client's copy of the served-app header is dropped, and every
 * answer carries the security headers.
 *
 * On every request, either way, the socket's address is appended to X-Forwarded-For (as a reverse
 * proxy does), so that the client address of lib/rate-limit (the entry before
 * IDV_TRUST_PROXY_HOPS trusted proxies) is the real peer and never a value the client made up;
 * Next.js alone keeps a client's X-Forwarded-For as sent.
 */
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { findRoute, loadRoutes } from "./route-table.mjs";

/** lib/http/request-shaping.ts FAST_PATH_HOOKS */
export const FAST_PATH_HOOKS = Symbol.for("idv.fast-path");

const BODYLESS = new Set(["GET", "HEAD"]);

/**
 * Methods node:http passes on that the Fetch API refuses to build a Request for (`new Request(url,
 * { method: "TRACE" })` throws; CONNECT never reaches a request listener, TRACK is not parsed):
 * Next.js turns such a request into a 500 before proxy.ts or a route sees it. Answered 405 here
 * even before the request-shaping hooks exist (the development server's first request).
 */
const FETCH_FORBIDDEN_METHODS = new Set(["TRACE"]);
const SERVED_METHODS_ALLOW = "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT";

function methodNotAllowed(res, method) {
  const body = JSON.stringify({
    error: {
      code: "METHOD_NOT_ALLOWED",
      message: `${method.slice(0, 32)} is not allowed. Allowed: ${SERVED_METHODS_ALLOW}`,
    },
  });
  res.writeHead(405, {
    allow: SERVED_METHODS_ALLOW,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "x-content-type-options": "nosniff",
  });
  res.end(body);
}

/** lib/health/hooks.ts HEALTH_HOOKS: readiness and the stop of the process's background work */
export const HEALTH_HOOKS = Symbol.for("idv.health");

const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

/** The server's own state: a shutdown began (readiness is 503 from then on). */
const serverState = { shuttingDown: false };

function writeJson(res, status, value, extra = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...extra,
  });
  res.end(res.req?.method === "HEAD" ? undefined : body);
}

/**
 * GET (or HEAD) /healthz and /readyz, on any host, before routing, the request log and the rate
 * limits (lib/health/readiness.ts): liveness is 200 while the process serves; readiness is 200
 * when the process's checks pass, else 503 with the first failing one's short reason — 503
 * "starting" until instrumentation.ts left the health hooks, "shutting down" from the signal on.
 * Returns false for any other path.
 */
export async function answerHealth(req, res, pathname, state = serverState) {
  if (!HEALTH_PATHS.has(pathname)) return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    writeJson(
      res,
      405,
      {
        error: {
          code: "METHOD_NOT_ALLOWED",
          message: `${String(req.method).slice(0, 32)} is not allowed. Allowed: GET, HEAD`,
        },
      },
      { allow: "GET, HEAD" },
    );
    return true;
  }
  if (pathname === "/healthz") {
    writeJson(res, 200, { status: "ok" });
    return true;
  }
  const hooks = globalThis[HEALTH_HOOKS];
  const answer = state.shuttingDown
    ? { ready: false, reason: "shutting down" }
    : hooks
      ? await hooks.readiness()
      : { ready: false, reason: "starting" };
  if (answer.ready) writeJson(res, 200, { status: "ready" });
  else writeJson(res, 503, { status: "not_ready", reason: answer.reason });
  return true;
}

/** lib/metrics/hooks.ts METRICS_HOOKS: request observations and the exposition */
export const METRICS_HOOKS = Symbol.for("idv.metrics");

/** Where a route handler's template is left on the response, for the request's metrics label. */
const ROUTE_LABEL = Symbol("idv.route-label");

// the first path segments of the app's pages and routes: a request not served by a route of the
// fast path is labelled by one of these (bounded), anything else is "(other)"
const KNOWN_SEGMENTS = new Set([
  "api",
  "oidc",
  "console",
  "operator",
  "verify",
  "sandbox",
  "signup",
  "invite",
  "forgot-password",
  "reset-password",
  "connections",
  "dev",
  "_next",
]);

/** The metrics label of a request not served by the fast path: "/" or "/<segment>/…" or "(other)". */
export function coarseRouteLabel(pathname) {
  if (pathname === "/") return "/";
  const end = pathname.indexOf("/", 1);
  const first = pathname.slice(1, end < 0 ? undefined : end);
  if (!KNOWN_SEGMENTS.has(first)) return "(other)";
  if (first === "api" && pathname.startsWith("/api/auth/")) return "/api/auth/…";
  return `/${first}/…`;
}

/**
 * The observation of the request's answer in the metrics (route template, method, status,
 * duration), to call once it is written; undefined without the metrics hooks. Called directly
 * where this listener writes the answer (a listener on "finish" costs the fast path about 5 % of
 * its throughput), on "finish" where Next.js does.
 */
function observer(req, res, pathname) {
  const hooks = globalThis[METRICS_HOOKS];
  if (!hooks) return undefined;
  const started = performance.now();
  return () =>
    hooks.observeRequest(
      req.method ?? "GET",
      res[ROUTE_LABEL] ?? coarseRouteLabel(pathname),
      res.statusCode,
      (performance.now() - started) / 1000,
    );
}

/**
 * GET /metrics (lib/metrics): the exposition to the bearer of IDV_METRICS_TOKEN (401 otherwise);
 * without a token set, not served here (404) unless `open` (the metrics port without a token).
 */
export async function answerMetrics(req, res, { open = false } = {}) {
  const hooks = globalThis[METRICS_HOOKS];
  if (!hooks || (!hooks.tokenSet() && !open)) {
    writeJson(res, 404, { error: { code: "ROUTE_NOT_FOUND", message: "No route for /metrics" } });
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    writeJson(
      res,
      405,
      { error: { code: "METHOD_NOT_ALLOWED", message: "Allowed: GET, HEAD" } },
      { allow: "GET, HEAD" },
    );
    return;
  }
  if (hooks.tokenSet() && !hooks.carriesToken(req.headers.authorization)) {
    writeJson(
      res,
      401,
      {
        error: {
          code: "INVALID_TOKEN",
          message: "GET /metrics needs Authorization: Bearer <IDV_METRICS_TOKEN>",
        },
      },
      { "www-authenticate": 'Bearer realm="metrics"' },
    );
    return;
  }
  const { contentType, text } = await hooks.exposition();
  res.writeHead(200, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(req.method === "HEAD" ? undefined : text);
}

/** The metrics port's listener: /metrics (and /healthz), nothing else. */
export function metricsListener() {
  return async (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    try {
      if (pathname === "/metrics") return await answerMetrics(req, res, { open: true });
      if (pathname === "/healthz") return void (await answerHealth(req, res, pathname));
      writeJson(res, 404, {
        error: { code: "ROUTE_NOT_FOUND", message: `No route for ${pathname.slice(0, 64)}` },
      });
    } catch (err) {
      console.error("metrics server: unhandled error", err);
      if (!res.headersSent)
        writeJson(res, 500, { error: { code: "INTERNAL_ERROR", message: "Internal error" } });
    }
  };
}

/**
 * The stop of the server on SIGTERM/SIGINT (once, whatever the signals): readiness turns 503 at
 * once, the server accepts no more connections and closes each keep-alive connection as soon as it
 * is idle, requests in flight finish — those still running after `timeoutMs` lose their
 * connection —, then the process's background work stops and its pool closes (`health.stop()`).
 * Resolves when all of that is done.
 */
export function gracefulShutdown({
  server,
  metricsServer,
  timeoutMs,
  state = serverState,
  health = () => globalThis[HEALTH_HOOKS],
}) {
  let stopping;
  return () =>
    (stopping ??= (async () => {
      state.shuttingDown = true;
      health()?.beginShutdown();
      const closed = new Promise((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // a connection becomes idle when its response ends: close it then, not at its keep-alive timeout
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
      try {
        await closed;
      } finally {
        clearInterval(idle);
        clearTimeout(deadline);
      }
      await health()?.stop();
      // scraped until the end: the metrics port closes last
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise((resolve) => metricsServer.close(() => resolve()));
      }
    })());
}

/** lib/config IDV_BODY_TIMEOUT_MS's default, for a server started without the hooks */
const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** lib/config IDV_SHUTDOWN_TIMEOUT_MS's default */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;

/**
 * node:http's own time bounds, behind the listener's body timeout: a request (headers and body)
 * still arriving 5 s after the body timeout, or headers after 20 s, end the connection (checked
 * every second, not node's default 30 s).
 */
export function serverOptions(bodyTimeoutMs) {
  const requestTimeout = bodyTimeoutMs + 5_000;
  return {
    requestTimeout,
    headersTimeout: Math.min(20_000, requestTimeout),
    connectionsCheckingInterval: 1_000,
  };
}

/** X-Forwarded-For gets the peer's address; the other forwarded headers as Next.js sets them. */
export function forwardedHeaders(req, port) {
  const headers = req.headers;
  const peer = req.socket.remoteAddress;
  if (peer) {
    const sent = headers["x-forwarded-for"];
    headers["x-forwarded-for"] = sent ? `${sent}, ${peer}` : peer;
  }
  headers["x-forwarded-host"] ??= headers.host ?? "localhost";
  headers["x-forwarded-port"] ??= String(port);
  headers["x-forwarded-proto"] ??= req.socket.encrypted ? "https" : "http";
}

function webHeaders(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.append(name, value);
  }
  return headers;
}

/** lib/http/buffered-response.ts BUFFERED_BODY */
export const BUFFERED_BODY = Symbol.for("idv.buffered-body");

/**
 * Writes a Web Response to the Node response: a BufferedResponse's text (JSON answers,
 * lib/http/buffered-response.ts) or a body of one chunk in one write with its Content-Length,
 * longer ones streamed.
 */
export async function writeResponse(res, response, extraHeaders) {
  const headers = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  for (const [name, value] of Object.entries(extraHeaders)) headers[name.toLowerCase()] = value;
  const text = response[BUFFERED_BODY];
  if (typeof text === "string") {
    headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  if (!response.body) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  if (second.done) {
    const body = first.done ? undefined : first.value;
    headers["content-length"] = String(body?.byteLength ?? 0);
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  res.once("close", () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  res.write(first.value);
  let chunk = second;
  while (!chunk.done) {
    if (!res.write(chunk.value)) await new Promise((resolve) => res.once("drain", resolve));
    chunk = await reader.read();
  }
  res.end();
}

/**
 * The fast path's request handler, called by requestListener with the request's host route, its
 * target path and its body (read whole, or undefined when it has none). It answers `false` when
 * Next.js should serve the request: a target that is no route handler of /api/… or /oidc/…, a
 * method the route does not export, or no request-shaping hooks (yet).
 */
const ROUTE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The version of the Next.js installed beside the server (the one that made the build), or "?". */
function nextVersion(require) {
  try {
    return String(require("next/package.json").version);
  } catch {
    return "?";
  }
}

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
          `start with IDV_FAST_PATH=off, or adapt server/production.mjs to this Next.js:\n  ` +
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

/** Whether the request carries a body (a declared length over 0, or a transfer coding). */
function hasBody(req) {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/**
 * Holds the body of `req` back from anyone else until all of it has arrived: Node.js's parser hands
 * every chunk to `req.push`, which keeps it here instead. Call it before the first `await` of the
 * listener, or chunks that came with the headers are already in the stream. `outcome` resolves with
 * - `{ bytes(), release() }` once the body is complete: its bytes (the fast path's Request body),
 *   and `release()`, which gives the stream its chunks and its end (for Next.js to read);
 * - `{ refused: "PAYLOAD_TOO_LARGE" }` as soon as more than the limit arrived, or
 *   `{ refused: "REQUEST_TIMEOUT" }` when it is not complete `timeoutMs` after the call (the rest
 *   of the body is then discarded as it arrives, and the server's requestTimeout ends a connection
 *   that keeps sending);
 * - `{ aborted: true }` when the client went away first.
 * `limitTo(bytes)` lowers the limit once the target is known; `drop()` discards the body (the
 * request was answered without it).
 */
export function holdBody(req, limit, timeoutMs) {
  const push = req.push;
  const chunks = [];
  let size = 0;
  let complete = false;
  let settled = false;
  let resolve;
  const outcome = new Promise((r) => (resolve = r));
  const settle = (value) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    req.off("close", onClose);
    resolve(value);
  };
  // nothing more is kept; the end still ends the stream
  const discard = (chunk) => (chunk === null ? push.call(req, null) : true);
  const stop = (value) => {
    chunks.length = 0;
    if (complete) push.call(req, null);
    else req.push = discard;
    settle(value);
  };
  const onClose = () => settle({ aborted: true });
  const timer = setTimeout(() => stop({ refused: "REQUEST_TIMEOUT" }), timeoutMs);
  req.once("close", onClose);
  req.push = (chunk, encoding) => {
    if (chunk === null) {
      complete = true;
      req.push = push;
      settle({
        bytes: () => Buffer.concat(chunks),
        release: () => {
          for (const c of chunks) push.call(req, c);
          push.call(req, null);
        },
      });
      return true;
    }
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk;
    size += bytes.byteLength;
    if (size > limit) stop({ refused: "PAYLOAD_TOO_LARGE" });
    else chunks.push(bytes);
    return true;
  };
  return {
    outcome,
    limitTo(bytes) {
      limit = bytes;
      if (!settled && size > limit) stop({ refused: "PAYLOAD_TOO_LARGE" });
    },
    drop: () => stop({ dropped: true }),
  };
}

/**
 * The production server's request listener (see the module doc): forwarded headers, host route,
 * early refusals, the body read whole within its limit and time, then the fast path (`serveFast`,
 * optional) or Next.js (`handle`). Without the request-shaping hooks (instrumentation.ts has not
 * run) everything goes to Next.js as it comes.
 */
export function requestListener({ port, serveFast, handle }) {
  return async (req, res) => {
    const rawUrl = req.url ?? "/";
    const query = rawUrl.indexOf("?");
    const rawPath = query < 0 ? rawUrl : rawUrl.slice(0, query);
    // checked without an await: a body must be held before the first one (holdBody)
    if (HEALTH_PATHS.has(rawPath)) return void (await answerHealth(req, res, rawPath));
    if (rawPath === "/metrics") return void (await answerMetrics(req, res));
    const observe = observer(req, res, rawPath);
    forwardedHeaders(req, port);
    const hooks = globalThis[FAST_PATH_HOOKS];
    if (!hooks) {
      if (FETCH_FORBIDDEN_METHODS.has(req.method ?? "")) return methodNotAllowed(res, req.method);
      if (observe) res.once("finish", observe);
      return handle(req, res);
    }
    // at once: a body that came with the headers is already being pushed (limited to the largest
    // limit of any surface until the target is known)
    const hold = hasBody(req) ? holdBody(req, hooks.maxBodyLimit, hooks.bodyTimeoutMs()) : undefined;
    try {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      const pathname = q < 0 ? url : url.slice(0, q);
      const route = await hooks.route(req.headers.host ?? null, pathname);
      if (route.kind === "unavailable") {
        hold?.drop();
        await writeResponse(res, hooks.unavailableResponse(), {});
        return observe?.();
      }
      const target = route.pathname ?? pathname;
      const head = {
        method: req.method ?? "GET",
        pathname: target,
        contentLength: req.headers["content-length"] ?? null,
        acceptLanguage: req.headers["accept-language"] ?? null,
      };
      const early = hooks.refuseEarly(head);
      if (early) {
        hold?.drop();
        await writeResponse(res, early, {});
        return observe?.();
      }
      let body;
      if (hold) {
        hold.limitTo(hooks.bodyLimit(target));
        const held = await hold.outcome;
        if (held.aborted) return;
        if (held.refused) {
          await writeResponse(res, hooks.earlyRefusal(held.refused, head), {});
          return observe?.();
        }
        body = held;
      }
      if (serveFast && (await serveFast(req, res, { route, target, body }))) return observe?.();
      body?.release();
    } catch (err) {
      hold?.drop();
      console.error("production server: unhandled error", err);
      if (!res.headersSent) {
        res.writeHead(500, {
          "content-type": "text/plain; charset=utf-8",
          "x-content-type-options": "nosniff",
        });
        res.end("Internal Server Error");
        observe?.();
      } else res.destroy();
      return;
    }
    if (observe) res.once("finish", observe);
    handle(req, res);
  };
}

/**
 * Starts the server; resolves once it listens. `dev`: Next.js's development server (`idv serve
 * --dev`, `npm run dev`: compiled on demand, hot reload) behind the same listener, so that
 * development refuses what production refuses (TRACE is 405, not Next.js's 500); no fast path.
 */
export async function startServer({ dir, port, hostname, fast, dev = false }) {
  const requireFromApp = createRequire(path.join(dir, "package.json"));
  const next = requireFromApp("next");
  // Next.js's host name is only used to build URLs, never to listen: "localhost" whatever we
  // listen on. With another name (say 127.0.0.1) its router and its proxy invocation build their
  // URLs from different names (`opts.hostname` vs its server's `fetchHostname || "localhost"`), so
  // every rewrite of proxy.ts looks like one to another origin and is proxied over HTTP back to
  // this server, losing the Host header the OP's issuer depends on (e2e/fast-path.spec.ts).
  const app = next({ dev, dir, hostname: "localhost", port });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Next.js prepares its server — and runs instrumentation.ts: the job worker, the request-shaping
  // hooks — at the first request; here at once (until then the fast path hands everything over)
  const nextServer = await app.server?.getServer?.();
  await nextServer?.prepare?.();
  if (fast && !globalThis[FAST_PATH_HOOKS])
    console.error("fast path: no request-shaping hooks yet (instrumentation.ts)");
  // request.url of a route handler, as Next.js builds it
  const origin = `http://localhost:${port}`;
  const serveFast = fast && !dev ? fastPath({ distDir: path.join(dir, ".next"), origin }) : undefined;
  // refuse to start on internals that changed (a Next.js upgrade), before listening
  await serveFast?.check();

  const server = http.createServer(
    serverOptions(globalThis[FAST_PATH_HOOKS]?.bodyTimeoutMs() ?? DEFAULT_BODY_TIMEOUT_MS),
    requestListener({ port, serveFast, handle }),
  );
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });
  const metricsPort = globalThis[METRICS_HOOKS]?.port();
  let metricsServer;
  if (metricsPort !== undefined) {
    metricsServer = http.createServer(metricsListener());
    await new Promise((resolve, reject) => {
      metricsServer.once("error", reject);
      metricsServer.listen(metricsPort, hostname, resolve);
    });
  }
  return { server, metricsServer, app, fast: !!serveFast };
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string", short: "p", default: "3000" },
      hostname: { type: "string", short: "H", default: "127.0.0.1" },
      "no-fast-path": { type: "boolean", default: false },
      dev: { type: "boolean", default: false },
    },
  });
  const port = Number(values.port);
  const { fast, server, metricsServer } = await startServer({
    dir: process.cwd(),
    port,
    hostname: values.hostname,
    fast: !values["no-fast-path"],
    dev: values.dev,
  });
  const mode = values.dev ? " (development)" : fast ? "" : " (fast path off)";
  console.log(`  ✓ Ready on http://${values.hostname}:${port}${mode}`);
  if (metricsServer)
    console.log(`  ✓ Metrics on http://${values.hostname}:${metricsServer.address().port}/metrics`);
  const shutdown = gracefulShutdown({
    server,
    metricsServer,
    timeoutMs: globalThis[HEALTH_HOOKS]?.shutdownTimeoutMs() ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
  });
  const stop = (signal) => () => {
    console.log(`  ${signal}: finishing the requests in flight, then stopping`);
    shutdown().then(
      () => process.exit(0),
      (err) => {
        console.error("shutdown failed", err);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop("SIGTERM"));
  process.on("SIGINT", stop("SIGINT"));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
