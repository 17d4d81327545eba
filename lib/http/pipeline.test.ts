/**
 * The request pipeline's core (lib/http/pipeline.ts) and the surfaces' error shapes
 * (lib/http/surfaces.ts), with handlers that fail the way real ones do (proxy.ts and
 * next.config.mjs: app/transport.test.ts).
 */
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../db/client";
import { logger } from "../log";
import { OAuthError } from "../oidc/errors";
import { MAX_BODY_BYTES } from "./body";
import { ApiError } from "../errors";
import { currentRequestId, pipeline, type TOutcome, type TSurface } from "./pipeline";
import { HOSTED, OAUTH, REST, surfaceForPath } from "./surfaces";
import { refuseEarly } from "./early-refusals";
// the OP's page surface renders React, so it lives with the app
import { OP_PAGE } from "@/app/oidc/_lib/op-page";
import { isDatabaseUnavailable } from "./unavailable";

const request = (path = "/api/sandbox/v1/apps?secret=1", init: RequestInit = {}) =>
  new Request(`http://localhost:3000${path}`, init);

const run = (surface: TSurface, handler: () => Promise<Response>, req = request()) =>
  pipeline(surface, handler)(req, {});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("pipeline core", () => {
  it("assigns one request id: X-Request-Id, and currentRequestId() inside the handler only", async () => {
    let inside: string | undefined;
    const res = await run(REST, async () => {
      inside = currentRequestId();
      return Response.json({ ok: true });
    });
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(inside).toBe(res.headers.get("x-request-id"));
    expect(currentRequestId()).toBeUndefined();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("sets the headers on responses whose headers are immutable (redirects)", async () => {
    const res = await run(HOSTED, async () => Response.redirect("http://localhost:3000/verify/x", 303));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("http://localhost:3000/verify/x");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("sends HSTS only when PUBLIC_URL is https", async () => {
    const publicUrl = process.env.PUBLIC_URL;
    try {
      process.env.PUBLIC_URL = "http://localhost:3000";
      expect(
        (await run(REST, async () => new Response("x"))).headers.get("strict-transport-security"),
      ).toBeNull();
      process.env.PUBLIC_URL = "https://idv.example.com";
      expect((await run(REST, async () => new Response("x"))).headers.get("strict-transport-security")).toBe(
        "max-age=31536000; includeSubDomains",
      );
    } finally {
      // assigning undefined would store the string "undefined", which lib/config refuses
      if (publicUrl === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = publicUrl;
    }
  });

  it("writes one access log line: path without the query string, status, ms", async () => {
    const info = vi.spyOn(logger, "info");
    const res = await run(REST, async () => new Response(null, { status: 204 }));
    const lines = info.mock.calls.filter((c) => c[1] === "request");
    expect(lines).toHaveLength(1);
    expect(lines[0]![0]).toEqual({
      requestId: res.headers.get("x-request-id"),
      surface: "rest",
      method: "GET",
      path: "/api/sandbox/v1/apps",
      status: 204,
      ms: expect.any(Number),
    });
    expect(JSON.stringify(lines[0]![0])).not.toContain("secret");
  });

  it("answers ApiErrors in the surface's shape and tells listeners the code", async () => {
    const outcomes: TOutcome[] = [];
    const res = await pipeline(REST, async (_req, _ctx, scope) => {
      scope.onDone((o) => outcomes.push(o));
      throw new ApiError("RATE_LIMITED", "Too many", { headers: { "Retry-After": "7" } });
    })(request(), {});
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toEqual({
      error: { code: "RATE_LIMITED", message: "Too many", requestId: res.headers.get("x-request-id") },
    });
    expect(outcomes).toEqual([{ status: 429, errorCode: "RATE_LIMITED", ms: expect.any(Number) }]);
  });

  it("answers a surface's own errors as they are (OAuthError on the OAuth surface)", async () => {
    const res = await run(OAUTH, async () => {
      throw new OAuthError("invalid_grant", "The code has expired", 400);
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_grant", error_description: "The code has expired" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  describe("an unexpected error: one 500 in the surface's shape, logged once", () => {
    const boom = async (): Promise<Response> => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    };

    it.each([
      ["REST", REST],
      ["OAUTH", OAUTH],
      ["OP_PAGE", OP_PAGE],
      ["HOSTED", HOSTED],
    ] as const)("%s", async (name, surface) => {
      const error = vi.spyOn(logger, "error");
      const res = await run(surface, boom);
      expect(res.status).toBe(500);
      const requestId = res.headers.get("x-request-id")!;
      expect(error).toHaveBeenCalledTimes(1);
      expect(error.mock.calls[0]![0]).toMatchObject({ requestId, path: "/api/sandbox/v1/apps" });
      const text = await res.text();
      expect(text).not.toContain("Cannot read properties");
      if (name === "OAUTH") {
        expect(JSON.parse(text)).toEqual({
          error: "server_error",
          error_description: `Internal server error. Quote the requestId ${requestId} when contacting support`,
        });
        expect(res.headers.get("cache-control")).toBe("no-store");
      } else if (name === "OP_PAGE") {
        expect(res.headers.get("content-type")).toContain("text/html");
        expect(text).toContain('data-error="server_error"');
        expect(text).toContain(requestId);
      } else {
        expect(JSON.parse(text)).toEqual({
          error: {
            code: "INTERNAL_ERROR",
            message: "Internal server error. Quote the requestId when contacting support",
            requestId,
          },
        });
      }
      if (name === "HOSTED") expect(res.headers.get("x-frame-options")).toBe("DENY");
    });
  });
});

describe("database unavailable → 503 SERVICE_UNAVAILABLE with Retry-After", () => {
  it("a query against a server that refuses connections", async () => {
    const db = createDb("postgresql://idv:idv@127.0.0.1:1/idv", 1);
    let thrown: unknown;
    const res = await run(REST, async () => {
      try {
        await db.selectFrom("apps").select("id").executeTakeFirst();
      } catch (err) {
        thrown = err;
        throw err;
      }
      return new Response(null);
    });
    await db.destroy();
    expect(isDatabaseUnavailable(thrown)).toBe(true);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
  });

  it("the pg driver's own connection errors (as the rate limiter and the job queue meet them)", async () => {
    const client = new pg.Client({ connectionString: "postgresql://idv:idv@127.0.0.1:1/idv" });
    const err = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(err)).toBe(true);
    for (const surface of [OAUTH, OP_PAGE, HOSTED]) {
      const res = await run(surface, async () => {
        throw err;
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
    }
    const oauth = await run(OAUTH, async () => {
      throw err;
    });
    expect(await oauth.json()).toMatchObject({ error: "temporarily_unavailable" });
  });

  it("is not claimed for other errors", () => {
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(new ApiError("VALIDATION_ERROR", "x"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("surfaces by path and the proxy's early 413", () => {
  it("picks the surface a path is served by", () => {
    expect(surfaceForPath("/api/sandbox/v1/apps", OP_PAGE)).toBe(REST);
    expect(surfaceForPath("/api/production/token", OP_PAGE)).toBe(OAUTH);
    expect(surfaceForPath("/oidc/sandbox/token", OP_PAGE)).toBe(OAUTH);
    expect(surfaceForPath("/oidc/sandbox/userinfo", OP_PAGE)).toBe(OAUTH);
    expect(surfaceForPath("/oidc/sandbox/.well-known/openid-configuration", OP_PAGE)).toBe(OAUTH);
    expect(surfaceForPath("/oidc/sandbox/auth", OP_PAGE)).toBe(OP_PAGE);
    expect(surfaceForPath("/verify/ver_1/push", OP_PAGE)).toBe(HOSTED);
    expect(surfaceForPath("/sandbox/verify/ver_1/act", OP_PAGE)).toBe(HOSTED);
    expect(surfaceForPath("/api/auth/callback/credentials", OP_PAGE)).toBe(REST);
  });

  it("refuses a declared body over 1 MB in the target's shape, accepts one at the limit", async () => {
    const head = (bytes: number) => ({
      method: "POST",
      pathname: "/api/sandbox/token",
      contentLength: String(bytes),
    });
    expect(refuseEarly(head(MAX_BODY_BYTES), OP_PAGE)).toBeUndefined();
    const res = refuseEarly(head(10 * 1024 * 1024), OP_PAGE)!;
    expect(res.status).toBe(413);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });
});
