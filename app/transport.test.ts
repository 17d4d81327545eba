/**
 * What sits in front of every route: proxy.ts refuses a declared oversize body before Next.js
 * buffers it and adds nosniff (and HSTS on https) to pages; next.config.mjs caps the proxy's body
 * buffering and sends nosniff on every path, static files included.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { NextConfig } from "next";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { proxy } from "@/proxy";

describe("transport settings", () => {
  it("proxy.ts: 413 before Next.js buffers a declared 10 MB body; nosniff and HSTS on what it passes", async () => {
    const big = new NextRequest("http://localhost:3000/verify/ver_1/push", {
      method: "POST",
      headers: {
        "content-length": String(10 * 1024 * 1024),
        "content-type": "application/x-www-form-urlencoded",
      },
    });
    const refused = await proxy(big);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });

    const publicUrl = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = "https://idv.example.com";
    try {
      const page = await proxy(new NextRequest("http://localhost:3000/login"));
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      // assigning undefined would store the string "undefined", which lib/config refuses
      if (publicUrl === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = publicUrl;
    }
  });

  it("next.config.mjs: proxy buffering capped just over the largest body limit, nosniff on every path", async () => {
    const configFile = pathToFileURL(path.resolve(import.meta.dirname, "..", "next.config.mjs")).href;
    const nextConfig = ((await import(configFile)) as { default: NextConfig }).default;
    const limit = nextConfig.experimental?.proxyClientMaxBodySize;
    expect(typeof limit).toBe("number");
    // a body cut at the cap is still over the routes' 1 MB limit even if the last network read
    // (at most 64 KB) was dropped whole: refused with 413, never read truncated
    expect(limit as number).toBeGreaterThan(MAX_BODY_BYTES + 64 * 1024);
    expect(limit as number).toBeLessThan(10 * 1024 * 1024);
    const headers = await nextConfig.headers!();
    expect(headers).toContainEqual({
      source: "/:path*",
      headers: [{ key: "X-Content-Type-Options", value: "nosniff" }],
    });
  });
});
