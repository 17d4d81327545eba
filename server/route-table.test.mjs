/**
 * The fast path's route table (server/route-table.mjs) against the app's own route files: the
 * manifest Next.js writes is rebuilt from app/ the way Next.js names its entries, so this runs
 * without a build.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findRoute, isFastRoute, routesFromManifest } from "./route-table.mjs";

const appDir = path.resolve(import.meta.dirname, "..", "app");

/** app-paths-manifest.json as `next build` writes it: "/api/[env]/token/route" → "app/api/[env]/token/route.js". */
function sourceManifest() {
  const manifest = {};
  const walk = (dir, segments) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), [...segments, entry.name]);
      else if (entry.name === "route.ts") {
        const key = `/${[...segments, "route"].join("/")}`;
        manifest[key] = `app${key}.js`;
      } else if (entry.name === "page.tsx") manifest[`/${[...segments, "page"].join("/")}`] = "page.js";
    }
  };
  walk(appDir, []);
  return manifest;
}

const manifest = sourceManifest();
const routes = routesFromManifest(manifest);
const file = (route) => route?.route.file;

describe("routesFromManifest", () => {
  it("holds the route handlers of /api/… (not next-auth) and /oidc/…, and no pages", () => {
    const keys = Object.keys(manifest).filter((k) => k.endsWith("/route"));
    const expected = keys.filter(
      (k) => (k.startsWith("/api/") && !k.startsWith("/api/auth/")) || k.startsWith("/oidc/"),
    );
    expect(expected.length).toBeGreaterThan(50);
    expect(routes.map((r) => r.file).sort()).toEqual(expected.map((k) => `app${k}.js`).sort());
  });

  it("finds every one of them at its own path (dynamic segments filled in)", () => {
    for (const route of routes) {
      const parts = route.segments.map((s) => (s.startsWith("[...") ? "x/y" : s.startsWith("[") ? "x1" : s));
      expect(file(findRoute(routes, `/${parts.join("/")}`)), parts.join("/")).toBe(route.file);
    }
  });
});

describe("findRoute", () => {
  it("gives the params as Next.js does", () => {
    const found = findRoute(routes, "/api/sandbox/v1/verifications/ver_01ABC");
    expect(found?.route.file).toBe("app/api/[env]/v1/verifications/[verificationId]/route.js");
    expect(found?.params).toEqual({ env: "sandbox", verificationId: "ver_01ABC" });
    expect(findRoute(routes, "/api/production/v2/anything/else")?.params).toEqual({
      env: "production",
      rest: ["v2", "anything", "else"],
    });
  });

  it("prefers static segments to dynamic ones, and both to catch-alls", () => {
    expect(file(findRoute(routes, "/api/sandbox/v1/apps/batch"))).toBe(
      "app/api/[env]/v1/apps/batch/route.js",
    );
    expect(file(findRoute(routes, "/api/sandbox/v1/apps/app_1"))).toBe(
      "app/api/[env]/v1/apps/[clientId]/route.js",
    );
    expect(file(findRoute(routes, "/api/sandbox/v1/apps/app_1/workflows/node-types"))).toBe(
      "app/api/[env]/v1/apps/[clientId]/workflows/node-types/route.js",
    );
    expect(file(findRoute(routes, "/api/sandbox/v1/apps/app_1/nothing"))).toBe(
      "app/api/[env]/[...rest]/route.js",
    );
  });

  it("leaves to Next.js what it would first normalise or what is not a route handler of the fast path", () => {
    for (const pathname of [
      "/api/sandbox/v1/apps/", // trailing slash: Next.js redirects
      "/api/sandbox//v1/apps",
      "/api/sandbox/v1/apps/a%2Fb", // percent-encoding: Next.js decodes
      "/api/sandbox/v1/../v1/apps",
      "/api/auth/session", // next-auth needs Next.js's request context
      "/api/tls", // no route there
      "/console",
      "/verify/ver_1",
      "/",
      "api/sandbox/v1/apps",
    ]) {
      expect(findRoute(routes, pathname), pathname).toBeUndefined();
    }
    expect(isFastRoute("/oidc/sandbox/jwks")).toBe(true);
    expect(isFastRoute("/api/auth/callback/idv")).toBe(false);
  });
});
