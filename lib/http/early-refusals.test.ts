/**
 * What is refused before any route (lib/http/early-refusals.ts) and the console pages' headers
 * (lib/http/page-headers.ts): the rules themselves; the production server's listener runs them in
 * server/production.test.mjs, proxy.ts in proxy.integration.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OP_PAGE } from "@/app/oidc/_lib/op-page";
import { MAX_BODY_BYTES } from "./body";
import {
  AUTH_FORM_MAX_BYTES,
  bodyLimitFor,
  earlyRefusalOf,
  hasMalformedEncoding,
  PAGE_BODY_MAX_BYTES,
  refuseEarly,
} from "./early-refusals";
import { CONSOLE_PAGE_PATH, pageHeadersFor } from "./page-headers";
import { fastPathHooks } from "./request-shaping";

describe("early refusals", () => {
  it("knows a body limit per surface, none above the production server's provisional one", () => {
    const hooks = fastPathHooks(OP_PAGE);
    const cases: [string, number][] = [
      ["/api/sandbox/v1/verifications", MAX_BODY_BYTES],
      ["/api/tls/ask", MAX_BODY_BYTES],
      ["/oidc/sandbox/token", MAX_BODY_BYTES],
      ["/verify/ver_1/wallet", MAX_BODY_BYTES],
      ["/sandbox/verify/ver_1/act", MAX_BODY_BYTES],
      ["/api/auth/callback/credentials", AUTH_FORM_MAX_BYTES],
      ["/", PAGE_BODY_MAX_BYTES],
      ["/console/sandbox/dashboard", PAGE_BODY_MAX_BYTES],
      ["/no/such/path", PAGE_BODY_MAX_BYTES],
    ];
    for (const [path, limit] of cases) {
      expect(bodyLimitFor(path), path).toBe(limit);
      expect(hooks.bodyLimit(path)).toBeLessThanOrEqual(hooks.maxBodyLimit);
    }
  });

  it("tells a percent-encoding that does not decode from one that does", () => {
    for (const bad of ["/verify/%FF", "/a/%zz", "/a/%", "/a/%C3", "/a/%ED%A0%80"])
      expect(hasMalformedEncoding(bad), bad).toBe(true);
    for (const good of ["/verify/ver_1", "/a/caf%C3%A9", "/a/%2F%20", "/a/100%25"])
      expect(hasMalformedEncoding(good), good).toBe(false);
  });

  it("checks the method first, then the path, then the declared length", () => {
    const head = { method: "GET", pathname: "/console/sandbox/dashboard" };
    expect(earlyRefusalOf(head)).toBeUndefined();
    for (const method of ["TRACE", "TRACK", "CONNECT", "PROPFIND", "get"])
      expect(earlyRefusalOf({ ...head, method }), method).toBe("METHOD_NOT_ALLOWED");
    expect(earlyRefusalOf({ method: "TRACE", pathname: "/%FF" })).toBe("METHOD_NOT_ALLOWED");
    expect(earlyRefusalOf({ method: "POST", pathname: "/%FF", contentLength: "99999999" })).toBe(
      "MALFORMED_PATH",
    );
    expect(
      earlyRefusalOf({
        method: "POST",
        pathname: "/api/auth/signin",
        contentLength: String(AUTH_FORM_MAX_BYTES),
      }),
    ).toBeUndefined();
    expect(
      earlyRefusalOf({
        method: "POST",
        pathname: "/api/auth/signin",
        contentLength: String(AUTH_FORM_MAX_BYTES + 1),
      }),
    ).toBe("PAYLOAD_TOO_LARGE");
  });

  it("answers in the surface's shape with Allow, nosniff and a request id", async () => {
    const rest = refuseEarly({ method: "TRACE", pathname: "/api/sandbox/v1/apps" }, OP_PAGE)!;
    expect(rest.status).toBe(405);
    expect(rest.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
    expect(rest.headers.get("x-content-type-options")).toBe("nosniff");
    const requestId = rest.headers.get("x-request-id");
    expect(await rest.json()).toEqual({
      error: { code: "METHOD_NOT_ALLOWED", message: expect.stringContaining("TRACE"), requestId },
    });
    const oauth = refuseEarly({ method: "GET", pathname: "/oidc/sandbox/token/%FF" }, OP_PAGE)!;
    expect(oauth.status).toBe(400);
    expect(await oauth.json()).toMatchObject({ error: "invalid_request" });
    const hosted = refuseEarly({ method: "GET", pathname: "/verify/%FF" }, OP_PAGE)!;
    expect(hosted.headers.get("x-frame-options")).toBe("DENY");
    expect((await hosted.json()).error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "(path)" }],
    });
    const page = refuseEarly(
      { method: "GET", pathname: "/oidc/sandbox/resume/%FF", acceptLanguage: "en" },
      OP_PAGE,
    )!;
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("data-error=");
  });
});

describe("page headers", () => {
  it("names every console, back-office, sign-in, sign-up and invitation page, and nothing else", () => {
    for (const path of [
      "/",
      "/signup",
      "/invite/inv_abc",
      "/console",
      "/console/sandbox/dashboard",
      "/console/production/apps/app_1/workflows/wf_1",
      "/operator",
      "/operator/sandbox/activations",
    ])
      expect(CONSOLE_PAGE_PATH.test(path), path).toBe(true);
    for (const path of [
      "/api/auth/session",
      "/api/sandbox/v1/apps",
      "/oidc/sandbox/auth",
      "/consoles",
      "/verify/ver_1",
      "/favicon.ico",
      "/nothing",
    ])
      expect(CONSOLE_PAGE_PATH.test(path), path).toBe(false);
  });

  it("covers every page file of the (console) and (operator) route groups", () => {
    const app = path.resolve(import.meta.dirname, "..", "..", "app");
    const urls: string[] = [];
    const walk = (dir: string, segments: string[]) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory())
          walk(path.join(dir, entry.name), [...segments, entry.name.replace(/^\[+\.*|\]+$/g, "")]);
        else if (entry.name === "page.tsx") urls.push(`/${segments.join("/")}`);
      }
    };
    walk(path.join(app, "(console)"), []);
    walk(path.join(app, "(operator)"), []);
    expect(urls).toContain("/");
    expect(urls).toContain("/console/env/dashboard");
    for (const url of urls)
      expect(CONSOLE_PAGE_PATH.test(url), `${url}: add its first segment to CONSOLE_PAGE_PATH`).toBe(true);
  });

  it("gives console pages a nonce policy that forbids framing, and X-Frame-Options", () => {
    const console = pageHeadersFor("/console/sandbox/dashboard", () => "n0nce")!;
    expect(console.csp).toContain("script-src 'self' 'nonce-n0nce' 'strict-dynamic'");
    expect(console.csp).toContain("frame-ancestors 'none'");
    expect(console.csp).toContain("object-src 'none'");
    expect(console.csp).toContain("base-uri 'none'");
    expect(console.headers).toEqual({ "X-Frame-Options": "DENY" });
    expect(pageHeadersFor("/verify/ver_1", () => "n")!.csp).toContain("'nonce-n'");
    expect(pageHeadersFor("/api/sandbox/v1/apps", () => "n")).toBeUndefined();
  });
});
