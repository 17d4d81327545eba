/**
 * The production server's fast path (server/production.mjs) enforces the same host isolation as
 * Next.js's router with proxy.ts: the same requests — the service's own host, the dedicated hosts
 * of IDV_HOSTS, an app's active custom domain (web and OIDC), a client's forged served-app header,
 * a declared oversized body — get the same answers from the e2e server (fast path on) and from a
 * second server on the same build and database with IDV_FAST_PATH=off. Both refuse malformed
 * paths, TRACE and bodies over their surface's limit or time before any handler (issue 23). Response headers show
 * which way each request went: Next.js's router adds its `Vary: rsc, …` to route handlers' answers
 * and `x-middleware-rewrite` to rewritten ones; the fast path adds neither.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { createWorkspace } from "./support/cli";
import { E2E_ENV, E2E_HOSTS, E2E_PORT } from "./support/env";

const root = path.resolve(import.meta.dirname, "..");
const SLOW_PORT = E2E_PORT + 1;
const FAST = `http://127.0.0.1:${E2E_PORT}`;
const SLOW = `http://127.0.0.1:${SLOW_PORT}`;

test.describe.configure({ mode: "serial" });

let slowServer: ChildProcess | undefined;
let slowLog = "";
let key: string;
let clientId: string;
let otherClientId: string;
let web: string;
let oidc: string;

async function untilAnswers(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer:\n${slowLog}`);
}

/** The e2e database (its embedded server's port and password: .data/e2e-pg.json). */
async function withDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const file = path.join(root, ".data", `${E2E_ENV.IDV_EMBEDDED_PG_NAME}.json`);
  const { port, password } = JSON.parse(fs.readFileSync(file, "utf8")) as { port: number; password: string };
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database: "idv" });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  // the second server: same build, same database, every request through Next.js's router
  slowServer = spawn(
    process.execPath,
    [path.join(root, "bin", "idv.mjs"), "serve", "--port", String(SLOW_PORT)],
    {
      cwd: root,
      env: {
        ...process.env,
        ...E2E_ENV,
        IDV_HOSTS: JSON.stringify(E2E_HOSTS),
        IDV_FAST_PATH: "off",
        IDV_JOBS: "off",
        IDV_BODY_TIMEOUT_MS: "2000",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  slowServer.stdout?.on("data", (d: Buffer) => (slowLog += d.toString()));
  slowServer.stderr?.on("data", (d: Buffer) => (slowLog += d.toString()));

  const workspace = await createWorkspace("fast-path");
  key = workspace.keys.sandbox;
  const ids: string[] = [];
  for (const name of ["Fast shop", "Other shop"]) {
    const created = await request.post("/api/sandbox/v1/apps", {
      headers: { authorization: `Bearer ${key}` },
      data: { name },
    });
    expect(created.status(), await created.text()).toBe(201);
    ids.push(((await created.json()) as { clientId: string }).clientId);
  }
  [clientId, otherClientId] = ids as [string, string];
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  web = `verify.fast-${unique}.co.uk`;
  oidc = `auth.fast-${unique}.co.uk`;
  const put = await request.put(`/api/sandbox/v1/apps/${clientId}/custom-domain`, {
    headers: { authorization: `Bearer ${key}` },
    data: { webDomain: web, oidcDomain: oidc },
  });
  expect(put.status(), await put.text()).toBe(200);
  // activation needs DNS (e2e/console/domain.spec.ts covers it); here the domain is made active
  // directly, as a verification would leave it
  const updated = await withDatabase((db) =>
    db.query(
      "UPDATE custom_domains SET status = 'active', required_action = 'none', activated_at = now(), claim_expires_at = NULL WHERE app_id = $1",
      [clientId],
    ),
  );
  expect(updated.rowCount).toBe(1);
  await untilAnswers(`${SLOW}/`, Date.now() + 90_000);
});

test.afterAll(async () => {
  if (!slowServer || slowServer.exitCode !== null) return;
  const exited = new Promise((resolve) => slowServer!.once("exit", resolve));
  slowServer.kill("SIGTERM");
  await exited;
});

interface TCase {
  name: string;
  host?: string;
  method?: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  data?: unknown;
  /** the status both servers must answer */
  status: number;
  /** whether the fast path serves it (else both go through Next.js) */
  fast: boolean;
}

function cases(): TCase[] {
  const auth = (client: string) =>
    `/auth?client_id=${client}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent("https://rp.example/cb")}&state=s`;
  const bearer = { authorization: `Bearer ${key}` };
  return [
    { name: "own host: REST without a key", path: "/api/sandbox/v1/apps", status: 401, fast: true },
    {
      name: "own host: REST with a key",
      path: `/api/sandbox/v1/apps/${clientId}`,
      headers: bearer,
      status: 200,
      fast: true,
    },
    {
      name: "own host: OP discovery",
      path: "/oidc/sandbox/.well-known/openid-configuration",
      status: 200,
      fast: true,
    },
    { name: "own host: OP JWKS", path: "/oidc/sandbox/jwks", status: 200, fast: true },
    { name: "own host: an unknown API path", path: "/api/sandbox/v9/nothing", status: 404, fast: true },
    { name: "own host: a page", path: "/v1/apps", status: 404, fast: false },
    { name: "own host: next-auth", path: "/api/auth/providers", status: 200, fast: false },
    {
      name: "own host: a forged served-app header is dropped",
      path: `/oidc/sandbox${auth(otherClientId)}`,
      headers: { "x-idv-served-app": clientId },
      status: 400,
      fast: true,
    },
    {
      name: "API host: the REST base at its root",
      host: "api.sandbox.e2e.test",
      path: "/v1/apps",
      status: 401,
      fast: true,
    },
    {
      name: "API host: stays inside its surface",
      host: "api.sandbox.e2e.test",
      path: "/api/production/v1/apps",
      headers: bearer,
      status: 404,
      fast: true,
    },
    {
      name: "auth host: production discovery",
      host: "auth.e2e.test",
      path: "/.well-known/openid-configuration",
      status: 200,
      fast: true,
    },
    {
      name: "custom OIDC domain: discovery",
      host: "@oidc",
      path: "/.well-known/openid-configuration",
      status: 200,
      fast: true,
    },
    {
      name: "custom OIDC domain: its own app signs in",
      host: "@oidc",
      path: auth(clientId),
      status: 400,
      fast: true,
    },
    {
      name: "custom OIDC domain: another app is no client here",
      host: "@oidc",
      path: auth(otherClientId),
      status: 404,
      fast: true,
    },
    {
      name: "custom OIDC domain: the REST API is not served",
      host: "@oidc",
      path: `/api/sandbox/v1/apps/${clientId}`,
      headers: bearer,
      status: 404,
      fast: false,
    },
    {
      name: "custom web domain: the REST API is not served",
      host: "@web",
      path: `/api/sandbox/v1/apps/${clientId}`,
      headers: bearer,
      status: 404,
      fast: false,
    },
    {
      name: "own host: a POST with a body",
      method: "POST",
      path: "/api/sandbox/v1/apps",
      headers: bearer,
      data: { name: "" },
      status: 400,
      fast: true,
    },
  ];
}

function hostOf(c: TCase): string | undefined {
  if (c.host === "@oidc") return oidc;
  if (c.host === "@web") return web;
  return c.host;
}

async function send(request: APIRequestContext, base: string, c: TCase): Promise<APIResponse> {
  const host = hostOf(c);
  return request.fetch(`${base}${c.path}`, {
    method: c.method ?? "GET",
    headers: { ...c.headers, ...(host ? { host } : {}) },
    ...(c.data === undefined ? {} : { data: c.data }),
    maxRedirects: 0,
  });
}

/** What a client can tell apart: status, type, the headers that matter and the body, ids and nonces aside. */
async function seen(response: APIResponse) {
  const h = response.headers();
  const type = h["content-type"] ?? "";
  const text = await response.text();
  const body = type.includes("json")
    ? text.replace(/req_[0-9A-Z]+/g, "req_…")
    : type.includes("html")
      ? (/<title>([^<]*)<\/title>/.exec(text)?.[1] ?? "")
      : text;
  return {
    status: response.status(),
    type,
    body,
    headers: Object.fromEntries(
      [
        "cache-control",
        "www-authenticate",
        "x-content-type-options",
        "access-control-allow-origin",
        "location",
      ].map((name) => [name, h[name]]),
    ),
  };
}

const viaNext = (response: APIResponse) => /\brsc\b/.test(response.headers()["vary"] ?? "");

test("the fast path answers every host exactly as Next.js's router does", async ({ request }) => {
  for (const c of cases()) {
    const fast = await send(request, FAST, c);
    const slow = await send(request, SLOW, c);
    const fastSeen = await seen(fast);
    expect(fastSeen, c.name).toEqual(await seen(slow));
    expect(fastSeen.status, c.name).toBe(c.status);
    // which way each request went
    expect(viaNext(slow), `${c.name}: through Next.js on the second server`).toBe(true);
    expect(viaNext(fast), `${c.name}: ${c.fast ? "fast path" : "Next.js"} on the e2e server`).toBe(!c.fast);
  }
});

/** A raw request declaring a body of `declared` bytes and sending `sent` of them; the answer's head. */
function oversized(
  port: number,
  requestPath: string,
  host: string,
  declared: number,
  sent: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let head = "";
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(head);
    };
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `POST ${requestPath} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
      );
      if (sent > 0) socket.write(Buffer.alloc(sent, 0x20));
    });
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (head.includes("\r\n\r\n")) finish();
    });
    // the server may close the connection while the body is still being written
    socket.on("error", (err) => (head.includes("\r\n\r\n") ? finish() : finish(err)));
    const timer = setTimeout(() => finish(new Error(`no answer to the oversized request: ${head}`)), 20_000);
  });
}

const TWO_MB = 2 * 1024 * 1024;

test("a body over every limit is refused with 413 on both paths; the fast path refuses before reading it", async () => {
  for (const [host, requestPath] of [
    [`127.0.0.1`, "/api/sandbox/v1/verifications"],
    ["api.sandbox.e2e.test", "/v1/verifications"],
    [oidc, "/token"],
  ] as const) {
    for (const port of [E2E_PORT, SLOW_PORT]) {
      const head = await oversized(port, requestPath, host, TWO_MB, TWO_MB);
      expect(head, `${host}${requestPath} on ${port}`).toMatch(/^HTTP\/1\.1 413 /);
      expect(head.toLowerCase()).toContain("x-content-type-options: nosniff");
    }
    // 50 MB declared, nothing sent: the fast path answers at once (Next.js's router would first
    // wait for the body it buffers for proxy.ts)
    const head = await oversized(E2E_PORT, requestPath, host, 50_000_000, 0);
    expect(head, `${host}${requestPath}: at once`).toMatch(/^HTTP\/1\.1 413 /);
  }
});

/** A raw exchange: the request's head (lines), then `body` in pieces `gapMs` apart; the answer's status, head and body text. */
function exchange(
  port: number,
  head: string[],
  { body = [], gapMs = 0 }: { body?: string[]; gapMs?: number } = {},
): Promise<{ status: number; head: string; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let text = "";
    let answeredAt = 0;
    const socket = net.connect(port, "127.0.0.1", async () => {
      socket.write(`${head.join("\r\n")}\r\n\r\n`);
      for (const part of body) {
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        if (socket.destroyed || answeredAt) return;
        socket.write(part);
      }
    });
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no answer to ${head[0]}: ${text}`));
      resolve({
        status: Number(text.slice(9, 12)),
        head: text.slice(0, end).toLowerCase(),
        body: text.slice(end + 4),
        ms: answeredAt - started,
      });
    };
    socket.on("data", (chunk: Buffer) => {
      answeredAt ||= Date.now();
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      if (end >= 0 && length && text.length - end - 4 >= Number(length[1])) done();
      else if (end >= 0 && /\r\n0\r\n\r\n$/.test(text)) done();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => (text ? done() : reject(new Error(`closed without an answer to ${head[0]}`))));
    const timer = setTimeout(() => socket.destroy(), 20_000);
  });
}

test("malformed paths, TRACE and oversized bodies on any path are refused before any handler, on both paths", async () => {
  for (const port of [E2E_PORT, SLOW_PORT]) {
    for (const path of [
      "/verify/%FF",
      "/api/sandbox/v1/apps/%FF",
      "/oidc/sandbox/resume/%FF",
      "/console/%FF",
      "/invite/%FF",
      "/api/auth/%FF",
    ]) {
      const res = await exchange(port, [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1"]);
      expect(res.status, `${path} on ${port}`).toBe(400);
      expect(res.head, path).toContain("x-content-type-options: nosniff");
      if (path.startsWith("/oidc/")) expect(res.body, path).toContain("data-error=");
      else expect(JSON.parse(res.body).error, path).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    for (const path of ["/", "/api/sandbox/v1/apps", "/api/auth/session", "/console/sandbox/dashboard"]) {
      const res = await exchange(port, [`TRACE ${path} HTTP/1.1`, "Host: 127.0.0.1"]);
      expect(res.status, `TRACE ${path} on ${port}`).toBe(405);
      expect(res.head).toContain("allow: delete, get, head, options, patch, post, put");
      expect(res.head).toContain("x-content-type-options: nosniff");
    }
    // 8 MB declared, nothing sent: answered at once, whatever the path
    for (const path of ["/api/auth/callback/credentials", "/verify/x", "/no/such/page"]) {
      const head = await oversized(port, path, "127.0.0.1", 8 * 1024 * 1024, 0);
      expect(head, `${path} on ${port}`).toMatch(/^HTTP\/1\.1 413 /);
      expect(head.toLowerCase()).toContain("x-content-type-options: nosniff");
    }
  }
});

test("next-auth answers a malformed callbackUrl with 400, never 500", async ({ request }) => {
  for (const base of [FAST, SLOW]) {
    for (const action of ["csrf", "session", "providers"]) {
      const res = await request.get(
        `${base}/api/auth/${action}?callbackUrl=${encodeURIComponent("http://x:y")}`,
      );
      expect(res.status(), `${action} on ${base}`).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
    }
    const cookie = await request.get(`${base}/api/auth/session`, {
      headers: { cookie: "next-auth.callback-url=http%3A%2F%2Fx%3Ay" },
    });
    expect(cookie.status(), `cookie on ${base}`).toBe(200);
    const csrf = await request.get(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await request.post(`${base}/api/auth/callback/credentials`, {
      form: {
        email: "nobody@example.test",
        password: "x",
        csrfToken,
        callbackUrl: "http://127.0.0.1:3917.evil.example/",
        json: "true",
      },
    });
    expect(signIn.status(), `sign-in on ${base}`).toBe(400);
  }
});

test("a body that does not arrive within IDV_BODY_TIMEOUT_MS is answered 408 within the bound", async () => {
  // the second server runs with IDV_BODY_TIMEOUT_MS=2000
  const res = await exchange(
    SLOW_PORT,
    [
      "POST /api/auth/callback/credentials HTTP/1.1",
      "Host: 127.0.0.1",
      "Content-Type: application/x-www-form-urlencoded",
      "Content-Length: 5000",
    ],
    { body: Array(40).fill("a=b&"), gapMs: 250 },
  );
  expect(res.status).toBe(408);
  expect(res.head).toContain("x-content-type-options: nosniff");
  expect(res.ms).toBeLessThan(6_000);
  // a chunked body over the limit is cut there, not read to its end
  const chunk = "x".repeat(4096);
  const cut = await exchange(
    E2E_PORT,
    ["POST /verify/x HTTP/1.1", "Host: 127.0.0.1", "Transfer-Encoding: chunked"],
    { body: Array(400).fill(`1000\r\n${chunk}\r\n`), gapMs: 1 },
  );
  expect(cut.status).toBe(413);
});
