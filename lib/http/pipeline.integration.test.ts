/**
 * The one request pipeline on every surface, through the real route handlers: request id and
 * nosniff on every response, one access log line (path without the query), bodies read with the
 * shared limits (413 in the surface's shape, never truncated), JSON depth refused before any
 * schema, and a database that cannot be reached answered with 503 and Retry-After.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { sql } from "kysely";
import { createDb, kysely, type Db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { makeOperator, makeWorkspace } from "@/lib/testing/factories";
import { requestProductionTest } from "@/lib/testing/production-tests";
import { basic, bearer, call, type CallResult } from "@/lib/testing/router";
import { pipeline } from "./pipeline";
import { REST } from "./surfaces";

const VER = `ver_${"0".repeat(26)}`;
const FORM = "application/x-www-form-urlencoded";
const sameSite = { "sec-fetch-site": "same-origin" };
const formOf = (bytes: number) => `a=${"x".repeat(bytes)}`;
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The access log lines written while `run` ran. */
async function accessLog(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const spy = vi.spyOn(logger, "info");
  await run();
  const lines = spy.mock.calls
    .filter((args) => args[1] === "request")
    .map((args) => args[0] as unknown as Record<string, unknown>);
  spy.mockRestore();
  return lines;
}

describe("every surface: request id, nosniff, one access log line", () => {
  const cases: [string, string, string, Parameters<typeof call>[2]?][] = [
    ["REST", "GET", "/api/sandbox/v1/apps?name=secret"],
    ["REST catch-all", "GET", "/api/sandbox/v1/no-such-thing?x=1"],
    ["REST /token", "POST", "/api/sandbox/token", { headers: { "content-type": FORM }, rawBody: "code=x" }],
    ["TLS ask", "GET", "/api/tls/allowed?domain=shop.example"],
    ["OP discovery", "GET", "/oidc/sandbox/.well-known/openid-configuration"],
    ["OP JWKS", "GET", "/oidc/sandbox/jwks"],
    ["OP /auth", "GET", "/oidc/sandbox/auth?client_id=app_nope&login_hint=anna%40example.com"],
    ["OP /select", "GET", "/oidc/sandbox/select?client_id=app_nope"],
    ["OP /resume", "GET", `/oidc/sandbox/resume/${VER}`],
    ["OP /token", "POST", "/oidc/sandbox/token", { headers: { "content-type": FORM }, rawBody: "code=x" }],
    ["OP /userinfo", "GET", "/oidc/sandbox/userinfo"],
    ["hosted status", "GET", `/verify/${VER}/status`],
    ["hosted qr", "GET", `/verify/${VER}/qr?f=1`],
    ["hosted start", "GET", `/verify/${VER}/start`],
    ["hosted cancel", "POST", `/verify/${VER}/cancel`, { headers: sameSite }],
    [
      "hosted push",
      "POST",
      `/verify/${VER}/push`,
      { headers: { ...sameSite, "content-type": FORM }, rawBody: "identifier=1" },
    ],
    ["hosted wallet", "GET", `/verify/${VER}/wallet`, { headers: sameSite }],
    ["hosted callback", "GET", "/verify/callback?code=secret&state=s"],
    ["SAML SP metadata", "GET", "/verify/saml/production/it_cie/metadata"],
    [
      "SAML ACS",
      "POST",
      "/verify/saml/production/it_cie/acs",
      { headers: { "content-type": FORM }, rawBody: "SAMLResponse=PHg%2B&RelayState=secret" },
    ],
    [
      "simulator",
      "POST",
      `/sandbox/verify/${VER}/act`,
      { headers: { ...sameSite, "content-type": FORM }, rawBody: "outcome=success" },
    ],
  ];

  it.each(cases)("%s", async (_name, method, path, options) => {
    let res!: CallResult;
    const lines = await accessLog(async () => {
      res = await call(method, path, options);
    });
    expect(res.status).toBeLessThan(500);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    if (res.body?.error?.requestId !== undefined) expect(res.body.error.requestId).toBe(requestId);
    expect(lines).toEqual([
      {
        requestId,
        surface: expect.any(String),
        method,
        path: path.split("?")[0],
        status: res.status,
        ms: expect.any(Number),
      },
    ]);
  });

  it("sends HSTS when PUBLIC_URL is https", async () => {
    const publicUrl = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = "https://idv.example.com";
    try {
      for (const path of ["/api/sandbox/v1/apps", `/verify/${VER}/status`, "/oidc/sandbox/jwks"]) {
        const res = await call("GET", path);
        expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      }
    } finally {
      process.env.PUBLIC_URL = publicUrl;
    }
  });
});

describe("bodies over the surface's limit: 413 in its shape, before the rest is read", () => {
  const over = (limit: number) => formOf(limit);

  it("REST: the error envelope", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps", {
      headers: { ...bearer(ws.keys.sandbox), "content-type": "application/json" },
      rawBody: JSON.stringify({ name: "x".repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      requestId: res.headers.get("x-request-id"),
    });
  });

  it.each([["/api/sandbox/token"], ["/oidc/sandbox/token"]])("%s: an OAuth error", async (path) => {
    const res = await call("POST", path, { headers: { "content-type": FORM }, rawBody: over(64 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "invalid_request" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("OP /userinfo: 413, where a form over 16 KB used to be cut short", async () => {
    const res = await call("POST", "/oidc/sandbox/userinfo", {
      headers: { "content-type": FORM },
      rawBody: `access_token=abc&${over(16 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "invalid_request" });
  });

  it("OP /auth (POST form): the error page with 413", async () => {
    const res = await call("POST", "/oidc/sandbox/auth", {
      headers: { "content-type": FORM },
      rawBody: `client_id=app_x&${over(64 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain('data-error="invalid_request"');
  });

  it.each([[`/verify/${VER}/push`], [`/sandbox/verify/${VER}/act`]])(
    "%s: the hosted JSON envelope, streamed or declared",
    async (path) => {
      const streamed = await call("POST", path, {
        headers: { ...sameSite, "content-type": FORM },
        rawBody: over(16 * 1024),
      });
      expect(streamed.status).toBe(413);
      expect(streamed.headers.get("cache-control")).toContain("no-store");
      expect(streamed.body.error).toMatchObject({
        code: "PAYLOAD_TOO_LARGE",
        requestId: streamed.headers.get("x-request-id"),
      });
      // a declared Content-Length over the limit is refused without reading the body
      const declared = await call("POST", path, {
        headers: { ...sameSite, "content-type": FORM, "content-length": String(10 * 1024 * 1024) },
        rawBody: "identifier=1",
      });
      expect(declared.status).toBe(413);
    },
  );

  it("console sign-in (next-auth): the error envelope, before next-auth reads the body", async () => {
    const res = await call("POST", "/api/auth/callback/credentials", {
      headers: { "content-type": FORM },
      rawBody: `email=a%40example.com&password=${"x".repeat(16 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      requestId: res.headers.get("x-request-id"),
    });
  });

  it("wallet: the hosted JSON envelope", async () => {
    const res = await call("POST", `/verify/${VER}/wallet`, {
      headers: { ...sameSite, "content-type": "application/json" },
      rawBody: JSON.stringify({ vp_token: "x".repeat(256 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      requestId: res.headers.get("x-request-id"),
    });
  });
});

describe("JSON nested 5,000 levels deep: 400 before any schema runs", () => {
  it("on the operator's production-test schedule (sponsor, sources)", async () => {
    const operator = await makeOperator();
    const ws = await makeWorkspace();
    const app = await call("POST", "/api/sandbox/v1/apps", {
      headers: bearer(ws.keys.sandbox),
      body: { name: "A" },
    });
    const req = await requestProductionTest(ws.keys.sandbox, app.body.clientId);
    const path = `/api/sandbox/v1/operator/production-tests/${req.request.id}/schedule`;
    for (const [field, value] of [
      ["sponsor", nested(5000)],
      ["sources", `${"[".repeat(5000)}${"]".repeat(5000)}`],
    ] as const) {
      const res = await call("POST", path, {
        headers: { ...bearer(operator.operatorKey), "content-type": "application/json" },
        rawBody: `{"${field}":${value}}`,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("JSON_TOO_COMPLEX");
      expect(res.body.error.details[0].path.startsWith(field)).toBe(true);
      expect(res.body.error.details[0].message).toBe("must not nest deeper than 32 levels");
    }
    // nothing was scheduled
    const after = await call("GET", path.replace(/\/schedule$/, ""), {
      headers: bearer(operator.operatorKey),
    });
    expect(after.body.request.status).toBe("pending");
  });

  it("on a workspace endpoint (create app) and the wallet", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps", {
      headers: { ...bearer(ws.keys.sandbox), "content-type": "application/json" },
      rawBody: `{"name":${nested(5000)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "JSON_TOO_COMPLEX",
      details: [{ path: expect.stringMatching(/^name\.a\.a/) }],
    });
    const wallet = await call("POST", `/verify/${VER}/wallet`, {
      headers: { ...sameSite, "content-type": "application/json" },
      rawBody: `{"vp_token":${nested(5000)}}`,
    });
    expect(wallet.status).toBe(400);
    expect(wallet.body.error.code).toBe("JSON_TOO_COMPLEX");
  });

  it("on the REST /token JSON body: an OAuth invalid_request", async () => {
    const res = await call("POST", "/api/sandbox/token", {
      headers: { "content-type": "application/json" },
      rawBody: `{"grant_type":"authorization_code","code":${nested(5000)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });
});

describe("database unavailable: 503 with Retry-After in each surface's shape", () => {
  // the process's handle (lib/db/client.ts keeps it on globalThis)
  const store = globalThis as unknown as { idvDb?: { db: Db } };

  /** Runs `fn` with the application's handle pointed at a port where nothing listens. */
  async function withDatabaseDown(fn: () => Promise<void>) {
    kysely();
    const live = store.idvDb!;
    const dead = createDb("postgresql://idv:idv@127.0.0.1:1/idv", 2);
    store.idvDb = { ...live, db: dead };
    try {
      await fn();
    } finally {
      store.idvDb = live;
      await dead.destroy().catch(() => undefined);
    }
  }

  it("connection refused, on REST, the token endpoints, the OP and the hosted routes", async () => {
    const ws = await makeWorkspace();
    const app = await call("POST", "/api/sandbox/v1/apps", {
      headers: bearer(ws.keys.sandbox),
      body: { name: "A" },
    });
    await withDatabaseDown(async () => {
      const rest = await call("GET", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox) });
      expect(rest.status).toBe(503);
      expect(rest.headers.get("retry-after")).toBe("5");
      expect(rest.body.error).toMatchObject({
        code: "SERVICE_UNAVAILABLE",
        requestId: rest.headers.get("x-request-id"),
      });

      for (const path of ["/api/sandbox/token", "/oidc/sandbox/token"]) {
        const token = await call("POST", path, {
          headers: { ...basic(app.body.clientId, app.body.clientSecret), "content-type": FORM },
          rawBody: "grant_type=authorization_code&code=abc",
        });
        expect(token.status).toBe(503);
        expect(token.headers.get("retry-after")).toBe("5");
        expect(token.body.error).toBe("temporarily_unavailable");
      }

      const page = await call("GET", `/oidc/sandbox/auth?client_id=${app.body.clientId}&response_type=code`);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(page.text).toContain('data-error="server_error"');

      const hosted = await call("GET", `/verify/${VER}/status`);
      expect(hosted.status).toBe(503);
      expect(hosted.body.error.code).toBe("SERVICE_UNAVAILABLE");
    });
    // and the service recovers by itself
    expect((await call("GET", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox) })).status).toBe(
      200,
    );
  });

  it("a connection ended by the server (57P01 admin shutdown) mid-query", async () => {
    const marker = `pipeline_${Date.now()}`;
    const handler = pipeline(REST, async () => {
      await sql`SELECT pg_sleep(20) AS ${sql.raw(marker)}`.execute(kysely());
      return new Response(null, { status: 204 });
    });
    const pending = handler(new Request("http://localhost/api/sandbox/v1/x"), {});
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      let terminated = 0;
      for (let i = 0; i < 100 && terminated === 0; i++) {
        const r = await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()",
          [`%AS ${marker}%`],
        );
        terminated = r.rowCount ?? 0;
        if (terminated === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(terminated).toBe(1);
    } finally {
      await admin.end();
    }
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("SERVICE_UNAVAILABLE");
  });
});
