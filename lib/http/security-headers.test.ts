/**
 * One list of end-user security headers: next.config.mjs (the hosted pages), the hosted route
 * handlers (lib/hosted/headers.ts) and the proxy's page CSP all take theirs from
 * lib/http/security-headers.mjs (the OP's pages: app/oidc/_lib/op-page.test.ts).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { hostedCsp } from "../hosted/csp";
import { HOSTED_HEADERS } from "../hosted/headers";
import {
  END_USER_HEADERS,
  HANDLER_CSP,
  nextConfigHeaders,
  nextPageCsp,
  PAGE_HEADERS,
  staticPageCsp,
} from "./security-headers.mjs";

describe("end-user security headers", () => {
  it("nothing cached, framed, sniffed or referred; documents switch off device features", () => {
    expect(END_USER_HEADERS).toEqual({
      "Cache-Control": "no-store, max-age=0",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
    });
    expect(PAGE_HEADERS).toEqual({
      ...END_USER_HEADERS,
      "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    });
  });

  it("next.config.mjs sets the page headers on the hosted and simulator pages", async () => {
    const configFile = pathToFileURL(path.resolve(import.meta.dirname, "..", "..", "next.config.mjs")).href;
    const mod: { default: { headers: () => Promise<unknown[]> } } = await import(configFile);
    const headers = await mod.default.headers();
    for (const source of ["/verify/:path*", "/sandbox/:path*"]) {
      expect(headers).toContainEqual({ source, headers: nextConfigHeaders(PAGE_HEADERS) });
    }
  });

  it("the hosted route handlers send the same headers and load nothing", () => {
    expect(HOSTED_HEADERS).toEqual({ ...END_USER_HEADERS, "Content-Security-Policy": HANDLER_CSP });
    expect(HANDLER_CSP.split("; ")).toEqual(
      expect.arrayContaining(["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"]),
    );
  });

  it("Next.js pages run nonced scripts only; the OP's static pages run none", () => {
    expect(hostedCsp("abc")).toBe(nextPageCsp("abc"));
    const page = staticPageCsp("c2hh").split("; ");
    expect(page).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "style-src 'sha256-c2hh'",
        "img-src data:",
        "frame-ancestors 'none'",
      ]),
    );
    expect(page.some((d) => d.startsWith("script-src"))).toBe(false);
    expect(page.join("; ")).not.toContain("unsafe-inline");
  });
});
