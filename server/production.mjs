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
 * target is a route handler of `/api/…` or `/oidc/…` is handed straight to that handler
 * (server/fast-path.mjs). /healthz, /readyz and /metrics are answered before all of that, and the
 * server stops gracefully on a signal (server/operations.mjs); Web Responses are written to the
 * Node response by server/web.mjs.
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
import { FAST_PATH_HOOKS, fastPath } from "./fast-path.mjs";
import {
  answerHealth,
  answerMetrics,
  gracefulShutdown,
  HEALTH_HOOKS,
  HEALTH_PATHS,
  METRICS_HOOKS,
  metricsListener,
  observer,
} from "./operations.mjs";
import { writeResponse } from "./web.mjs";

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
