/**
 * What operators' tools ask of the production server (server/production.mjs), answered by the
 * process itself before the host routing: GET /healthz and /readyz (lib/health), GET /metrics and
 * the metrics port's listener (lib/metrics), each request's observation in the metrics, and the
 * graceful stop on SIGTERM/SIGINT. The TypeScript side is reached through the hooks
 * instrumentation.ts leaves on globalThis.
 */

/** lib/health/hooks.ts HEALTH_HOOKS: readiness and the stop of the process's background work */
export const HEALTH_HOOKS = Symbol.for("idv.health");

export const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

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
export const ROUTE_LABEL = Symbol("idv.route-label");

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
export function observer(req, res, pathname) {
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
