/**
 * Every background task of the service, by name. A task receives its JSON payload and does its
 * own transaction; throwing makes graphile-worker retry it with backoff.
 */
export type TaskHandler = (payload: unknown) => Promise<void>;

export const TASKS: Record<string, () => Promise<TaskHandler>> = {
  idempotency_purge: async () => (await import("./housekeeping")).purgeIdempotencyRecords,
  oidc_purge: async () => (await import("./housekeeping")).purgeOidcRowsTask,
  rate_limit_purge: async () => (await import("./housekeeping")).purgeRateLimitsTask,
  verification_purge: async () => (await import("./housekeeping")).purgeEndedSessionsTask,
  "activation.complete_demo": async () => (await import("../activation/demo")).completeDemoActivation,
  verification_expire: async () => (await import("../verifications/jobs")).expireVerificationTask,
  verification_retention: async () => (await import("../verifications/jobs")).retentionTask,
  signing_keys_rotate: async () => (await import("../oidc/jobs")).rotateSigningKeysTask,
  webhook_deliver: async () => (await import("../webhooks/delivery")).deliverWebhookTask,
  webhook_sweep: async () => (await import("../webhooks/delivery")).sweepWebhookDeliveriesTask,
  request_log_purge: async () => (await import("../request-log/purge")).purgeRequestLogsTask,
  verification_stats_rollup: async () => (await import("../stats/rollup")).verificationStatsRollupTask,
  custom_domain_recheck: async () => (await import("../domains/recheck")).recheckCustomDomainsTask,
};
