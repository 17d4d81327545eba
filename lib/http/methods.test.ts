/**
 * Every route file answers every method: the ones it does not implement with 405 in its
 * surface's error shape, with the request id and an `Allow` header naming what it does implement
 * (Next.js alone would answer an empty 405), and OPTIONS with the same `Allow`.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS, isMethodNotAllowed } from "./pipeline";

const appDir = path.resolve(import.meta.dirname, "..", "..", "app");

function routeFiles(dir: string, segments: string[] = []): { file: string; url: string }[] {
  const out: { file: string; url: string }[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const segment = /^\(.*\)$/.test(entry.name)
        ? []
        : [entry.name.startsWith("[...") ? "x" : entry.name.replace(/^\[(.+)\]$/, "ver_0000000000")];
      out.push(...routeFiles(full, [...segments, ...segment]));
    } else if (entry.name === "route.ts") {
      out.push({ file: full, url: `http://localhost:3000/${segments.join("/")}` });
    }
  }
  return out;
}

type Handler = (request: Request, context: unknown) => Promise<Response>;

describe("methods a route does not implement", () => {
  // the REST catch-all answers every method with 404 (no route there)
  const files = routeFiles(appDir).filter((f) => !f.file.includes("[...rest]"));

  it("finds the route files", () => {
    expect(files.length).toBeGreaterThan(80);
  });

  it.each(files.map((f) => [path.relative(appDir, f.file), f] as const))(
    "%s: 405 with Allow, request id and the surface's error shape",
    async (_name, { file, url }) => {
      const mod = (await import(pathToFileURL(file).href)) as Record<string, Handler | undefined>;
      for (const method of [...HTTP_METHODS, "OPTIONS"]) {
        expect(typeof mod[method], `${method} is exported`).toBe("function");
      }
      const implemented = HTTP_METHODS.filter((m) => !isMethodNotAllowed(mod[m]));
      expect(implemented.length).toBeGreaterThan(0);
      const allow = [...implemented, ...(implemented.includes("GET") ? ["HEAD"] : []), "OPTIONS"]
        .sort()
        .join(", ");

      const options = await mod.OPTIONS!(new Request(url, { method: "OPTIONS" }), {});
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")).toBe(allow);

      for (const method of HTTP_METHODS.filter((m) => !implemented.includes(m))) {
        const res = await mod[method]!(new Request(url, { method }), {});
        expect(res.status, method).toBe(405);
        expect(res.headers.get("allow")).toBe(allow);
        const requestId = res.headers.get("x-request-id");
        expect(requestId).toMatch(/^req_/);
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        const text = await res.text();
        if (url.includes("/oidc/") && !/\/(token|par|userinfo|jwks|\.well-known)/.test(url)) {
          expect(res.headers.get("content-type")).toContain("text/html");
          expect(text).toContain('data-error="invalid_request"');
        } else if (/\/token$|\/oidc\//.test(url)) {
          expect(JSON.parse(text)).toMatchObject({ error: "invalid_request" });
        } else {
          expect(JSON.parse(text)).toEqual({
            error: { code: "METHOD_NOT_ALLOWED", message: expect.stringContaining(allow), requestId },
          });
        }
      }
    },
  );
});
