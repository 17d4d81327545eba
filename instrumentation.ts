/**
 * Next.js start-up hook, once per server process:
 * - parses the configuration (lib/config): a bad environment variable stops the server with a
 *   message naming it (`idv serve` has checked the same environment, adapters' JSON settings
 *   included, before it started Next.js);
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
  if (!config().jobs) return;
  const { startJobWorker } = await import("./lib/jobs/worker");
  await startJobWorker();
}
