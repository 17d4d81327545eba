/**
 * What the production server (server/operations.mjs) asks of this process for metrics, left on
 * globalThis by instrumentation.ts: observe each answered request, serve the exposition to the
 * bearer of the metrics token, and the metrics port.
 */
import { config } from "../config";
import { observeRequest } from "./count";
import { carriesMetricsToken, exposition } from "./exposition";

export const METRICS_HOOKS = Symbol.for("idv.metrics");

export interface TMetricsHooks {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  exposition(): Promise<{ contentType: string; text: string }>;
  /** Whether the Authorization header carries IDV_METRICS_TOKEN (false when none is set). */
  carriesToken(authorization: string | undefined): boolean;
  /** Whether IDV_METRICS_TOKEN is set. */
  tokenSet(): boolean;
  /** IDV_METRICS_PORT */
  port(): number | undefined;
}

export function registerMetricsHooks(): void {
  const hooks: TMetricsHooks = {
    observeRequest,
    exposition,
    carriesToken: carriesMetricsToken,
    tokenSet: () => config().metricsToken !== undefined,
    port: () => config().metricsPort,
  };
  (globalThis as Record<symbol, unknown>)[METRICS_HOOKS] = hooks;
}
