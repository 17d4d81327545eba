/**
 * The production server's own plumbing (server/production.mjs, server/web.mjs,
 * server/operations.mjs, server/fast-path.mjs), on a real node:http server: how a route handler's
 * Web Response is written, the forwarded headers every request gets, what its request listener
 * refuses before the fast path or Next.js sees a request (issue 23: malformed paths, TRACE,
 * declared and chunked bodies over the limit, slow bodies), health, metrics, the graceful stop and
 * the fast path's check of a build. The fast path as a whole runs under the end-to-end tests
 * (e2e/fast-path.spec.ts).
 */
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OP_PAGE } from "../app/oidc/_lib/op-page";
import { BufferedResponse } from "../lib/http/buffered-response";
import { fastPathHooks } from "../lib/http/request-shaping";
import { FAST_PATH_HOOKS, fastPath } from "./fast-path.mjs";
import {
  answerHealth,
  coarseRouteLabel,
  gracefulShutdown,
  HEALTH_HOOKS,
  METRICS_HOOKS,
  metricsListener,
} from "./operations.mjs";
import { forwardedHeaders, requestListener, serverOptions } from "./production.mjs";
import { writeResponse } from "./web.mjs";

let server;
afterEach(() => new Promise((resolve) => (server ? server.close(resolve) : resolve())));

async function serve(handler) {
  server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

describe("writeResponse", () => {
  it("writes a one-chunk body at once with its length, every Set-Cookie, and the extra headers", async () => {
    const base = await serve((req, res) => {
      const headers = new Headers({ "content-type": "application/json", "x-content-type-options": "wrong" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      void writeResponse(res, new Response('{"ok":true}', { status: 201, headers }), {
        "X-Content-Type-Options": "nosniff",
      });
    });
    const response = await fetch(base);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-length")).toBe("11");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("writes a BufferedResponse's text without making its stream, its length in bytes", async () => {
    let written;
    const base = await serve((req, res) => {
      written = new BufferedResponse('{"name":"Åsa Öberg"}', {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
      });
      void writeResponse(res, written, { "X-Content-Type-Options": "nosniff" });
    });
    const response = await fetch(base);
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength('{"name":"Åsa Öberg"}')));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual({ name: "Åsa Öberg" });
    // the fast path took the text: the Response's own body was never asked for
    expect(written.bodyUsed).toBe(false);
    expect(await written.text()).toBe('{"name":"Åsa Öberg"}');
  });

  it("streams a body of several chunks in order, and answers a bodiless response", async () => {
    const base = await serve((req, res) => {
      if (req.url === "/empty") return void writeResponse(res, new Response(null, { status: 204 }), {});
      const parts = ["one,", "two,", "three"];
      const body = new ReadableStream({
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      });
      void writeResponse(res, new Response(body), {});
    });
    const streamed = await fetch(base);
    expect(streamed.headers.get("content-length")).toBeNull();
    expect(await streamed.text()).toBe("one,two,three");
    const empty = await fetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
  });
});

describe("forwardedHeaders", () => {
  it("appends the peer's address to X-Forwarded-For, so a client cannot choose its own", async () => {
    const seen = [];
    const base = await serve((req, res) => {
      forwardedHeaders(req, 3000);
      seen.push({ ...req.headers });
      res.end();
    });
    await fetch(base, { headers: { "x-forwarded-for": "203.0.113.9" } });
    await fetch(base);
    expect(seen[0]["x-forwarded-for"]).toBe("203.0.113.9, 127.0.0.1");
    expect(seen[1]["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen[1]["x-forwarded-proto"]).toBe("http");
    expect(seen[1]["x-forwarded-port"]).toBe("3000");
    expect(seen[1]["x-forwarded-host"]).toBe(new URL(base).host);
  });
});

// ---- requestListener: what is refused before the fast path or Next.js sees a request ---------

/**
 * The listener on a real node:http server with the real request-shaping hooks; `handle` stands for
 * Next.js (and `serveFast` for the fast path): each records what it got and echoes the body it reads.
 */
async function serveListener({ bodyTimeoutMs = 30_000, fast = false } = {}) {
  globalThis[FAST_PATH_HOOKS] = { ...fastPathHooks(OP_PAGE), bodyTimeoutMs: () => bodyTimeoutMs };
  const seen = [];
  const handle = (req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ by: "next", method: req.method, url: req.url, body });
      res.end(`next:${body}`);
    });
  };
  const serveFast = async (req, res, { target, body }) => {
    if (!target.startsWith("/api/sandbox/")) return false;
    const text = body ? body.bytes().toString() : "";
    seen.push({ by: "fast", method: req.method, url: req.url, body: text });
    res.end(`fast:${text}`);
    return true;
  };
  server = http.createServer(
    serverOptions(bodyTimeoutMs),
    requestListener({ port: 3000, handle, ...(fast ? { serveFast } : {}) }),
  );
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: server.address().port, seen };
}

/**
 * A raw HTTP/1.1 exchange: writes `head` (the request line and headers, CRLF-joined), then each
 * of `parts` after `gapMs`; resolves with the answer's status, headers, body and when it came.
 */
function raw(port, head, { parts = [], gapMs = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let text = "";
    let at;
    const socket = net.connect(port, "127.0.0.1", async () => {
      socket.write(`${head.join("\r\n")}\r\n\r\n`);
      for (const part of parts) {
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        if (socket.destroyed) return;
        socket.write(part);
      }
    });
    const done = () => {
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: text.slice(end + 4),
        ms: at - started,
      });
    };
    socket.on("data", (chunk) => {
      at ??= Date.now();
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      if (length && text.length - end - 4 >= Number(length[1])) {
        socket.destroy();
        done();
      }
    });
    socket.on("close", () => (text ? done() : reject(new Error("closed without an answer"))));
    socket.on("error", () => undefined);
    setTimeout(() => socket.destroy(), 10_000);
  });
}

const get = (path, extra = []) => [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1", ...extra];

describe("requestListener", () => {
  afterEach(() => {
    delete globalThis[FAST_PATH_HOOKS];
  });

  it("answers a path whose percent-encoding does not decode with 400 in its surface's shape, before anything", async () => {
    const { port, seen } = await serveListener({ fast: true });
    for (const path of [
      "/verify/%FF",
      "/api/sandbox/v1/apps/%FF",
      "/console/%FF",
      "/invite/%FF",
      "/api/auth/%FF",
      "/api/sandbox/v1/apps/%zz",
    ]) {
      const res = await raw(port, get(path));
      expect(res.status, path).toBe(400);
      expect(res.headers["x-content-type-options"], path).toBe("nosniff");
      expect(res.headers["x-request-id"], path).toMatch(/^req_/);
      const body = JSON.parse(res.body);
      expect(body.error, path).toMatchObject({
        code: "VALIDATION_ERROR",
        requestId: res.headers["x-request-id"],
      });
      expect(body.error.details, path).toEqual([{ path: "(path)", message: "invalid percent-encoding" }]);
    }
    // the OP's pages answer with their error page
    const op = await raw(port, get("/oidc/sandbox/resume/%FF"));
    expect(op.status).toBe(400);
    expect(op.headers["content-type"]).toContain("text/html");
    expect(op.headers["x-content-type-options"]).toBe("nosniff");
    expect(op.body).toContain("data-error=");
    // well-formed escapes go on
    expect((await raw(port, get("/verify/caf%C3%A9"))).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(["/verify/caf%C3%A9"]);
  });

  it("answers TRACE and other methods no route serves with 405 and Allow", async () => {
    const { port, seen } = await serveListener({ fast: true });
    for (const [method, path] of [
      ["TRACE", "/"],
      ["TRACE", "/api/sandbox/v1/apps"],
      ["TRACE", "/api/auth/session"],
      ["PROPFIND", "/console/sandbox/dashboard"],
    ]) {
      const res = await raw(port, [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1"]);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toBe("DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(res.body).error.code).toBe("METHOD_NOT_ALLOWED");
    }
    expect(seen).toEqual([]);
  });

  it("answers TRACE 405 even before the hooks exist (development's first request), never handing it to Next.js", async () => {
    // Next.js builds a Fetch Request for its proxy; for TRACE the constructor throws, and Next.js
    // answers 500 (what `next dev` did). `handle` does the same here.
    const seen = [];
    const handle = (req, res) => {
      try {
        new Request(`http://localhost${req.url}`, { method: req.method });
        seen.push(req.method);
        res.end("next");
      } catch {
        res.statusCode = 500;
        res.end("Internal Server Error");
      }
    };
    server = http.createServer(serverOptions(30_000), requestListener({ port: 3000, handle }));
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = server.address().port;
    const res = await raw(port, ["TRACE /api/sandbox/v1/apps HTTP/1.1", "Host: 127.0.0.1"]);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(res.body).error.code).toBe("METHOD_NOT_ALLOWED");
    expect((await raw(port, get("/api/sandbox/v1/apps"))).status).toBe(200);
    expect(seen).toEqual(["GET"]);
  });

  it("refuses a declared body over the path's limit at once, before a byte of it is sent", async () => {
    const { port, seen } = await serveListener({ fast: true });
    const eightMb = String(8 * 1024 * 1024);
    for (const path of [
      "/api/auth/callback/credentials",
      "/verify/x",
      "/no/such/page",
      "/api/sandbox/v1/apps",
    ]) {
      const res = await raw(port, [
        `POST ${path} HTTP/1.1`,
        "Host: 127.0.0.1",
        "Content-Type: application/x-www-form-urlencoded",
        `Content-Length: ${eightMb}`,
      ]);
      expect(res.status, path).toBe(413);
      expect(res.headers["x-content-type-options"], path).toBe("nosniff");
      expect(JSON.parse(res.body).error.code, path).toBe("PAYLOAD_TOO_LARGE");
    }
    // the limits are per surface: 16 KB for next-auth and pages, 1 MB for the API and hosted pages
    const at = (path, bytes) =>
      raw(port, [`POST ${path} HTTP/1.1`, "Host: 127.0.0.1", `Content-Length: ${bytes}`], {
        parts: [Buffer.alloc(bytes, 0x61)],
      });
    expect((await at("/api/auth/callback/credentials", 16 * 1024 + 1)).status).toBe(413);
    expect((await at("/api/auth/callback/credentials", 16 * 1024)).status).toBe(200);
    expect((await at("/verify/x", 1024 * 1024)).status).toBe(200);
    expect(seen.map((s) => [s.by, s.url, s.body.length])).toEqual([
      ["next", "/api/auth/callback/credentials", 16 * 1024],
      ["next", "/verify/x", 1024 * 1024],
    ]);
  });

  it("cuts a chunked body at the limit; a chunked body within it reaches Next.js and the fast path whole", async () => {
    const { port, seen } = await serveListener({ fast: true });
    const chunked = (path, parts) =>
      raw(port, [`POST ${path} HTTP/1.1`, "Host: 127.0.0.1", "Transfer-Encoding: chunked"], {
        parts: [...parts.map((p) => `${p.length.toString(16)}\r\n${p}\r\n`), "0\r\n\r\n"],
        gapMs: 5,
      });
    const kb = "k".repeat(1024);
    const over = await chunked("/api/auth/signin", Array(20).fill(kb));
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(seen).toEqual([]);

    const toNext = await chunked("/api/auth/signin", ["email=a", "&password=b"]);
    expect(toNext.status).toBe(200);
    expect(toNext.body).toBe("next:email=a&password=b");
    const toFast = await chunked("/api/sandbox/v1/apps", ['{"name":', '"x"}']);
    expect(toFast.body).toBe('fast:{"name":"x"}');
  });

  it("answers 408 when a body does not arrive within the body timeout", async () => {
    const { port, seen } = await serveListener({ bodyTimeoutMs: 400 });
    const res = await raw(port, [`POST /verify/x/push HTTP/1.1`, "Host: 127.0.0.1", "Content-Length: 5000"], {
      parts: ["a", "b", "c"],
      gapMs: 50,
    });
    expect(res.status).toBe(408);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(res.body).error.code).toBe("REQUEST_TIMEOUT");
    // answered within the bound, not after the rest of the body
    expect(res.ms).toBeLessThan(3_000);
    expect(seen).toEqual([]);
  });

  it("hands nothing on when the client goes away mid-body", async () => {
    const { port, seen } = await serveListener();
    await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write("POST /verify/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc");
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    // the server is still there
    const res = await raw(port, [`POST /verify/x HTTP/1.1`, "Host: 127.0.0.1", "Content-Length: 2"], {
      parts: ["ok"],
    });
    expect(res.body).toBe("next:ok");
    expect(seen.map((s) => s.body)).toEqual(["ok"]);
  });
});

describe("health", () => {
  afterEach(() => {
    delete globalThis[FAST_PATH_HOOKS];
    delete globalThis[HEALTH_HOOKS];
  });

  it("answers /healthz 200 and /readyz from the health hooks, on any host, before anything else sees them", async () => {
    const { port, seen } = await serveListener({ fast: true });
    const live = await raw(port, get("/healthz", ["Host: shop.example.com"]));
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toEqual({ status: "ok" });
    expect(live.headers["cache-control"]).toBe("no-store");
    // no health hooks yet (instrumentation.ts has not run): starting
    const starting = await raw(port, get("/readyz?probe=1"));
    expect(starting.status).toBe(503);
    expect(JSON.parse(starting.body)).toEqual({ status: "not_ready", reason: "starting" });
    let answer = { ready: false, reason: "database: unreachable" };
    globalThis[HEALTH_HOOKS] = { readiness: async () => answer };
    const down = await raw(port, get("/readyz"));
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: "not_ready", reason: "database: unreachable" });
    answer = { ready: true };
    const up = await raw(port, get("/readyz"));
    expect(up.status).toBe(200);
    expect(JSON.parse(up.body)).toEqual({ status: "ready" });
    const head = await fetch(`http://127.0.0.1:${port}/readyz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await raw(port, [`POST /healthz HTTP/1.1`, "Host: 127.0.0.1", "Content-Length: 0"]);
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    // neither Next.js nor the fast path saw any of them; a longer path is not a health path
    expect(seen).toEqual([]);
    expect((await raw(port, get("/healthz/x"))).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(["/healthz/x"]);
  });

  it("on shutdown: readiness 503 at once, no new connection, the request in flight finishes, then the background work stops", async () => {
    const events = [];
    const health = {
      readiness: async () => ({ ready: true }),
      beginShutdown: () => events.push("not ready"),
      stop: async () => events.push("stopped"),
    };
    const state = { shuttingDown: false };
    const slow = http.createServer(async (req, res) => {
      if (await answerHealth(req, res, req.url, state)) return;
      setTimeout(() => {
        events.push("answered");
        res.end("slow done");
      }, 300);
    });
    server = slow;
    await new Promise((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const port = slow.address().port;
    const agent = new http.Agent({ keepAlive: true });
    const inFlight = new Promise((resolve, reject) =>
      http
        .get({ port, host: "127.0.0.1", path: "/slow", agent }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode, body }));
        })
        .on("error", reject),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const shutdown = gracefulShutdown({ server: slow, timeoutMs: 5_000, state, health: () => health });
    const done = shutdown();
    expect(shutdown()).toBe(done);
    expect(events).toEqual(["not ready"]);
    await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();
    expect(await inFlight).toEqual({ status: 200, body: "slow done" });
    await done;
    expect(events).toEqual(["not ready", "answered", "stopped"]);
    agent.destroy();
    server = undefined;
  });

  it("cuts what is still running at the deadline, and still stops the background work", async () => {
    const events = [];
    const hanging = http.createServer(() => undefined);
    await new Promise((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const port = hanging.address().port;
    const request = new Promise((resolve) =>
      http.get({ port, host: "127.0.0.1", path: "/never" }).on("error", (err) => resolve(err.code)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await gracefulShutdown({
      server: hanging,
      timeoutMs: 200,
      state: { shuttingDown: false },
      health: () => ({ beginShutdown: () => undefined, stop: async () => events.push("stopped") }),
    })();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await request).toBe("ECONNRESET");
    expect(events).toEqual(["stopped"]);
  });
});

describe("metrics", () => {
  afterEach(() => {
    delete globalThis[FAST_PATH_HOOKS];
    delete globalThis[METRICS_HOOKS];
  });

  function metricsHooks({ token }) {
    const observed = [];
    globalThis[METRICS_HOOKS] = {
      observeRequest: (method, route, status) => observed.push(`${method} ${route} ${status}`),
      exposition: async () => ({ contentType: "text/plain; version=0.0.4", text: "idv_up 1\n" }),
      carriesToken: (authorization) => token !== undefined && authorization === `Bearer ${token}`,
      tokenSet: () => token !== undefined,
      port: () => undefined,
    };
    return observed;
  }

  it("serves /metrics on the service's port only to the bearer of the token, and counts every other request", async () => {
    const { port, seen } = await serveListener({ fast: true });
    expect((await raw(port, get("/metrics"))).status).toBe(404);
    metricsHooks({ token: undefined });
    // no token set: never served on the service's port
    expect((await raw(port, get("/metrics"))).status).toBe(404);
    const observed = metricsHooks({ token: "0123456789abcdef0123" });
    const none = await raw(port, get("/metrics"));
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
    expect((await raw(port, get("/metrics", ["Authorization: Bearer wrong-token-0000000"]))).status).toBe(
      401,
    );
    const scraped = await raw(port, get("/metrics", ["Authorization: Bearer 0123456789abcdef0123"]));
    expect(scraped.status).toBe(200);
    expect(scraped.body).toBe("idv_up 1\n");
    expect(seen).toEqual([]);
    // other requests are observed with a bounded route label; /metrics and health are not
    await raw(port, get("/verify/abc"));
    await raw(port, get("/no-such-thing/123"));
    await raw(port, get("/healthz"));
    // the fast path's answers and the listener's own refusals too
    await raw(port, get("/api/sandbox/v1/apps"));
    await raw(port, [`TRACE /console/x HTTP/1.1`, "Host: 127.0.0.1"]);
    expect(observed).toEqual([
      "GET /verify/… 200",
      "GET (other) 200",
      "GET /api/… 200",
      "TRACE /console/… 405",
    ]);
  });

  it("serves /metrics without a token on the metrics port when none is set, and nothing else there", async () => {
    metricsHooks({ token: undefined });
    const base = await serve(metricsListener());
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("idv_up 1\n");
    expect((await fetch(`${base}/api/sandbox/v1/apps`)).status).toBe(404);
    metricsHooks({ token: "0123456789abcdef0123" });
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
  });

  it("labels requests by route template or a fixed prefix, never by the path sent", () => {
    expect(coarseRouteLabel("/")).toBe("/");
    expect(coarseRouteLabel("/console/sandbox/apps/app_01")).toBe("/console/…");
    expect(coarseRouteLabel("/api/auth/session")).toBe("/api/auth/…");
    expect(coarseRouteLabel("/api/sandbox/v1/x")).toBe("/api/…");
    expect(coarseRouteLabel("/wp-admin/login.php")).toBe("(other)");
  });
});

describe("fast path check", () => {
  /** A build directory with `routes` (manifest key → module source) in its app-paths manifest. */
  function fakeBuild(routes) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fast-path-"));
    const manifest = {};
    for (const [key, source] of Object.entries(routes)) {
      const file = `app${key}.js`;
      manifest[key] = file;
      fs.mkdirSync(path.dirname(path.join(dir, "server", file)), { recursive: true });
      fs.writeFileSync(path.join(dir, "server", file), source);
    }
    fs.writeFileSync(path.join(dir, "server", "app-paths-manifest.json"), JSON.stringify(manifest));
    return dir;
  }

  it("refuses a build whose route modules lack the internals it dispatches through, naming each", async () => {
    const good = "exports.routeModule = { userland: { GET() {} } };";
    const distDir = fakeBuild({
      "/api/[env]/v1/apps/route": good,
      "/api/[env]/v1/apps/[clientId]/route": "exports.routeModule = { handlers: { GET() {} } };",
      "/oidc/[env]/token/route": "exports.somethingElse = {};",
      "/console/page": "exports.notARoute = true;",
    });
    const error = await fastPath({ distDir, origin: "http://localhost:3000" })
      .check()
      .then(
        () => undefined,
        (err) => err,
      );
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("IDV_FAST_PATH=off");
    expect(error.message).toContain(
      "app/api/[env]/v1/apps/[clientId]/route.js: `routeModule.userland` has no HTTP method handler",
    );
    expect(error.message).toContain("app/oidc/[env]/token/route.js: no `routeModule` export");
    expect(error.message).not.toContain("app/api/[env]/v1/apps/route.js");
    // a build with the internals passes
    const fine = fakeBuild({ "/api/[env]/v1/apps/route": good });
    await expect(
      fastPath({ distDir: fine, origin: "http://localhost:3000" }).check(),
    ).resolves.toBeUndefined();
    // and one with no route handler at all is refused too
    const empty = fakeBuild({ "/console/page": "exports.x = 1;" });
    await expect(fastPath({ distDir: empty, origin: "http://localhost:3000" }).check()).rejects.toThrow(
      "names no route handler",
    );
  });
});
