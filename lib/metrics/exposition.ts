/**
 * GET /metrics (issue 27): the exposition of lib/metrics/registry.ts, its scrape-time gauges read
 * first, for the production server (server/operations.mjs), which serves it on the service's port
 * to a bearer of IDV_METRICS_TOKEN only, or on IDV_METRICS_PORT (docs/deployment.md, "Metrics").
 * A gauge whose statement fails (the database is down) keeps its last value; the failure is
 * logged at most once a minute. The token is compared in constant time.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { config } from "../config";
import { kysely, poolStats } from "../db/client";
import { logger } from "../log";
import { metrics } from "./registry";
import { jobQueueLagSeconds, webhookQueue } from "./store";

let lastFailureLogged = 0;

async function refreshGauges(): Promise<void> {
  const m = metrics();
  const pool = poolStats();
  m.poolConnections.set({ state: "in_use" }, pool.total - pool.idle);
  m.poolConnections.set({ state: "idle" }, pool.idle);
  m.poolWaiting.set(pool.waiting);
  try {
    const [queue, lag] = await Promise.all([webhookQueue(kysely()), jobQueueLagSeconds(kysely())]);
    m.webhookQueueDepth.set(queue.depth);
    m.webhookOldestDue.set(queue.oldestDueSeconds);
    m.jobQueueLag.set(lag);
  } catch (err) {
    if (Date.now() - lastFailureLogged > 60_000) {
      lastFailureLogged = Date.now();
      logger.warn({ err }, "metrics: the queue gauges could not be read");
    }
  }
}

/** The exposition text and its content type. */
export async function exposition(): Promise<{ contentType: string; text: string }> {
  await refreshGauges();
  const { registry } = metrics();
  return { contentType: registry.contentType, text: await registry.metrics() };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Whether `authorization` (the request's header) carries the metrics token: `Bearer <token>`.
 * Without IDV_METRICS_TOKEN no request carries it.
 */
export function carriesMetricsToken(authorization: string | undefined): boolean {
  const token = config().metricsToken;
  if (!token || !authorization) return false;
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}
