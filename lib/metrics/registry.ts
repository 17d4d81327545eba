/**
 * The process's metrics in the Prometheus exposition format (issue 27), with prom-client: one
 * registry per process — on globalThis, since Next.js bundles route modules apart and this
 * module may load more than once — holding:
 * - process metrics (prom-client's defaults: CPU, memory, event-loop lag, handles), prefixed
 *   `idv_`;
 * - the HTTP requests the production server answers (server/operations.mjs observes each one):
 *   `idv_http_requests_total` and `idv_http_request_duration_seconds` by surface route template,
 *   method and status;
 * - the counters domain code increments (lib/metrics/count.ts: sessions, webhook attempts,
 *   upstream calls; rate-limit rejections are the 429s among the requests);
 * - gauges read when scraped (lib/metrics/collect.ts): the webhook queue, the job queue, the pool.
 * Rules: no personal data and no unbounded label values — no ids, no hosts, no paths beyond the
 * route templates of the build; a provider label is a catalog id, an outcome one of the spec's.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "idv_" });
  const metric = { registers: [registry] };
  return {
    registry,
    httpRequests: new Counter({
      name: "idv_http_requests_total",
      help: "HTTP requests answered, by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      ...metric,
    }),
    httpDuration: new Histogram({
      name: "idv_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its response, by route template, method and status class",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: LATENCY_BUCKETS,
      ...metric,
    }),
    sessionsCreated: new Counter({
      name: "idv_verification_sessions_created_total",
      help: "Verification sessions created, by provider (or workflow) and environment",
      labelNames: ["provider", "environment"] as const,
      ...metric,
    }),
    sessionsEnded: new Counter({
      name: "idv_verification_sessions_ended_total",
      help: "Verification sessions ended, by outcome, provider and environment",
      labelNames: ["outcome", "provider", "environment"] as const,
      ...metric,
    }),
    webhookDeliveries: new Counter({
      name: "idv_webhook_delivery_attempts_total",
      help: "Webhook delivery attempts, by outcome (succeeded, retrying, failed, dead) and trigger",
      labelNames: ["outcome", "trigger"] as const,
      ...metric,
    }),
    webhookQueueDepth: new Gauge({
      name: "idv_webhook_queue_depth",
      help: "Webhook deliveries waiting for an attempt (due now or later), read when scraped",
      ...metric,
    }),
    webhookOldestDue: new Gauge({
      name: "idv_webhook_oldest_due_age_seconds",
      help: "Age of the oldest webhook delivery that is due and not being sent (0: none), read when scraped",
      ...metric,
    }),
    jobQueueLag: new Gauge({
      name: "idv_job_queue_lag_seconds",
      help: "How long the oldest runnable job has waited past its run time (0: none), read when scraped",
      ...metric,
    }),
    poolConnections: new Gauge({
      name: "idv_db_pool_connections",
      help: "Connections of this process's database pool, by state (in_use, idle)",
      labelNames: ["state"] as const,
      ...metric,
    }),
    poolWaiting: new Gauge({
      name: "idv_db_pool_waiting",
      help: "Requests of this process waiting for a database connection",
      ...metric,
    }),
    rateLimited: new Counter({
      name: "idv_rate_limit_rejections_total",
      help: "Requests refused by a rate limit (answered 429), by surface",
      labelNames: ["surface"] as const,
      ...metric,
    }),
    upstreamRequests: new Counter({
      name: "idv_upstream_requests_total",
      help: "Calls to upstream identity providers, by provider and outcome (ok, error)",
      labelNames: ["provider", "outcome"] as const,
      ...metric,
    }),
    upstreamDuration: new Histogram({
      name: "idv_upstream_request_duration_seconds",
      help: "Duration of calls to upstream identity providers, by provider",
      labelNames: ["provider"] as const,
      buckets: LATENCY_BUCKETS,
      ...metric,
    }),
  };
}

export type TMetrics = ReturnType<typeof createMetrics>;

const shared = globalThis as unknown as { idvMetrics?: TMetrics };

/** The process's metrics (created on first use). */
export function metrics(): TMetrics {
  shared.idvMetrics ??= createMetrics();
  return shared.idvMetrics;
}
