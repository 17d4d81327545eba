/**
 * What the production server (server/operations.mjs) asks of this process for health and
 * shutdown, left on globalThis by instrumentation.ts (the server is plain JavaScript outside the
 * bundle, like the fast path's hooks):
 * - `readiness()`: GET /readyz's answer (lib/health/readiness.ts);
 * - `beginShutdown()`: readiness turns 503 at once (the load balancer stops sending);
 * - `shutdownTimeoutMs()`: how long requests in flight get (IDV_SHUTDOWN_TIMEOUT_MS);
 * - `stop()`: after the requests in flight: the job worker stops (graphile-worker finishes its
 *   jobs; the webhook dispatcher records its attempts in flight and claims nothing more; the expiry
 *   sweeper commits its batch), then the database pool closes, then the tracing SDK (when on)
 *   flushes its spans.
 */
import { config } from "../config";
import { closeDatabase } from "../db/client";
import { logger } from "../log";
import { jobWorkerRunning, stopJobWorker } from "../jobs/worker";
import { processChecks, readinessProbe, type TReadiness } from "./readiness";

export const HEALTH_HOOKS = Symbol.for("idv.health");

export interface THealthHooks {
  readiness(): Promise<TReadiness>;
  beginShutdown(): void;
  stop(): Promise<void>;
  /** IDV_SHUTDOWN_TIMEOUT_MS */
  shutdownTimeoutMs(): number;
}

/** `afterStop`: what else stops last (the tracing SDK flushes its spans). */
export function registerHealthHooks({ afterStop }: { afterStop?: () => Promise<void> } = {}): void {
  const probe = readinessProbe(processChecks(jobWorkerRunning));
  const hooks: THealthHooks = {
    readiness: () => probe.readiness(),
    beginShutdown: () => probe.beginShutdown(),
    shutdownTimeoutMs: () => config().shutdownTimeoutMs,
    async stop() {
      probe.beginShutdown();
      await stopJobWorker().catch((err: unknown) => logger.warn({ err }, "job worker did not stop cleanly"));
      await closeDatabase().catch((err: unknown) =>
        logger.warn({ err }, "database pool did not close cleanly"),
      );
      await afterStop?.().catch((err: unknown) => logger.warn({ err }, "tracing did not stop cleanly"));
    },
  };
  (globalThis as Record<symbol, unknown>)[HEALTH_HOOKS] = hooks;
}
