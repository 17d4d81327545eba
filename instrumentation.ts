/**
 * Next.js start-up hook, once per server process:
 * - parses the configuration (lib/config): a bad environment variable stops the server with a
 *   message naming it (`idv serve` has checked the same environment, adapters' JSON settings
 *   included, before it started Next.js);
 * - leaves the request-shaping hooks (lib/http/request-shaping.ts) where the production server's
 *   fast path finds them (server/fast-path.mjs): the bundled modules of this process, so the
 *   fast path shares the route handlers' configuration and database client;
 * - starts the tracing SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/tracing/sdk.ts);
 * - leaves the health hooks (lib/health/hooks.ts: readiness, shutdown) and the metrics hooks
 *   (lib/metrics/hooks.ts) for the same server;
 * - runs the background job worker (the queue is shared through PostgreSQL, so any number of
 *   instances may run it). IDV_JOBS=off disables it, e.g. for an instance that should only serve
 *   requests.
 * NEXT_RUNTIME is read here, not through lib/config: Next.js inlines it at build time, which keeps
 * the Node.js-only imports out of the edge build.
 */
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- inlined by Next.js at build time, not configuration
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("./lib/config");
  // traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/tracing), before any request; the
  // SDK is not even loaded otherwise (start-up)
  const tracing = config().otlpEndpoint ? (await import("./lib/tracing/sdk")).startTracing() : undefined;
  const { registerFastPathHooks } = await import("./lib/http/request-shaping");
  const { OP_PAGE } = await import("./app/oidc/_lib/op-page");
  registerFastPathHooks(OP_PAGE);
  const { registerHealthHooks } = await import("./lib/health/hooks");
  registerHealthHooks({ afterStop: tracing?.stop });
  const { registerMetricsHooks } = await import("./lib/metrics/hooks");
  registerMetricsHooks();
  if (!config().jobs) return;
  const { startJobWorker } = await import("./lib/jobs/worker");
  await startJobWorker();
}
