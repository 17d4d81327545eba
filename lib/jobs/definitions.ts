/**
 * Every background job of the service, one definition each (name, payload schema, lazily
 * imported handler, job key, schedule): the worker's task list and crontab are built from `JOBS`,
 * and code that queues a job passes its definition to `enqueue` (lib/jobs/registry.ts), which
 * type-checks the payload and computes the key. A handler does its own transaction; throwing
 * makes graphile-worker retry it with backoff. Handlers are imported on first use only, so this
 * module imports no domain code and any module may import it.
 */
import { z } from "zod";
import { crontabOf, defineJob, type TRegisteredJob } from "./registry";

const ZNoPayload = z.object({});

// ---------------------------------------------------------------------------------------------
// Housekeeping (lib/jobs/housekeeping.ts): delete what has expired, in bounded batches

export const idempotencyPurgeJob = defineJob({
  name: "idempotency_purge",
  payload: ZNoPayload,
  handler: async () => (await import("./housekeeping")).purgeIdempotencyRecords,
  schedule: "0 * * * *",
});

export const oidcPurgeJob = defineJob({
  name: "oidc_purge",
  payload: ZNoPayload,
  handler: async () => (await import("./housekeeping")).purgeOidcRowsTask,
  schedule: "5 * * * *",
});

export const rateLimitPurgeJob = defineJob({
  name: "rate_limit_purge",
  payload: ZNoPayload,
  handler: async () => (await import("./housekeeping")).purgeRateLimitsTask,
  schedule: "10 * * * *",
});

export const verificationPurgeJob = defineJob({
  name: "verification_purge",
  payload: ZNoPayload,
  handler: async () => (await import("./housekeeping")).purgeEndedSessionsTask,
  schedule: "50 3 * * *",
});

export const requestLogPurgeJob = defineJob({
  name: "request_log_purge",
  payload: ZNoPayload,
  handler: async () => (await import("../request-log/purge")).purgeRequestLogsTask,
  schedule: "45 * * * *",
});

/**
 * The SAML replay cache's assertion IDs past their assertion's expiry (saml-replay.ts), and the
 * SAML test sign-ins' hand-offs that expired unanswered (lib/connections/test-sign-in.ts).
 */
export const samlAssertionPurgeJob = defineJob({
  name: "saml_assertion_purge",
  payload: ZNoPayload,
  handler: async () => (await import("./housekeeping")).purgeSamlRowsTask,
  schedule: "40 * * * *",
});

// ---------------------------------------------------------------------------------------------
// Verification sessions

export const ZExpireVerificationPayload = z.object({ verificationId: z.string() });
export type TExpireVerificationPayload = z.output<typeof ZExpireVerificationPayload>;

/**
 * Ended one session at its TTL: earlier versions queued one at each session's creation, to run at
 * its `expiresAt`. Sessions are now expired by the sweep (`expirySweepJob`) and queue no job; the
 * task stays registered for the jobs still queued by an earlier version: a no-op when the session
 * already ended (the sweep was first), is not due or is gone.
 */
export const expireVerificationJob = defineJob({
  name: "verification_expire",
  payload: ZExpireVerificationPayload,
  handler: async () => (await import("../verifications/jobs")).expireVerificationTask,
  key: ({ verificationId }) => `expire:${verificationId}`,
});

/**
 * Expires every open session past its `expiresAt` (lib/verifications/expiry-sweep.ts): each job
 * worker also runs the sweep on its own timer, every IDV_EXPIRY_SWEEP_MS; this once-a-minute run
 * is the backstop.
 */
export const expirySweepJob = defineJob({
  name: "verification_expiry_sweep",
  payload: ZNoPayload,
  handler: async () => (await import("../verifications/jobs")).expirySweepTask,
  schedule: "* * * * *",
});

export const verificationRetentionJob = defineJob({
  name: "verification_retention",
  payload: ZNoPayload,
  handler: async () => (await import("../verifications/jobs")).retentionTask,
  schedule: "30 * * * *",
});

export const verificationStatsRollupJob = defineJob({
  name: "verification_stats_rollup",
  payload: ZNoPayload,
  handler: async () => (await import("../stats/rollup")).verificationStatsRollupTask,
  // the follow-up run queued while a backlog of days is left (the scheduled runs have no key)
  key: () => "verification_stats_rollup:backlog",
  schedule: "20 * * * *",
});

// ---------------------------------------------------------------------------------------------
// Activation, signing keys, custom domains

export const ZCompleteDemoActivationPayload = z.object({ ticketId: z.string() });
export type TCompleteDemoActivationPayload = z.output<typeof ZCompleteDemoActivationPayload>;

/** Moves a sandbox demo activation to `activated` shortly after its submission. */
export const completeDemoActivationJob = defineJob({
  name: "activation.complete_demo",
  payload: ZCompleteDemoActivationPayload,
  handler: async () => (await import("../activation/demo")).completeDemoActivation,
  key: ({ ticketId }) => `activation.complete_demo:${ticketId}`,
});

export const rotateSigningKeysJob = defineJob({
  name: "signing_keys_rotate",
  payload: ZNoPayload,
  handler: async () => (await import("../oidc/jobs")).rotateSigningKeysTask,
  schedule: "15 3 * * *",
});

export const recheckCustomDomainsJob = defineJob({
  name: "custom_domain_recheck",
  payload: ZNoPayload,
  handler: async () => (await import("../domains/recheck")).recheckCustomDomainsTask,
  schedule: "* * * * *",
});

// ---------------------------------------------------------------------------------------------
// Provider connections (lib/connections/recheck.ts)

/**
 * Re-checks every failing connection (a failing one gets no sign-ins that could clear it), so a
 * recovered upstream comes back on its own; then deletes old health buckets.
 */
export const connectionRecheckJob = defineJob({
  name: "connection_recheck",
  payload: ZNoPayload,
  handler: async () => (await import("../connections/recheck")).recheckFailingConnectionsTask,
  schedule: "*/5 * * * *",
});

// ---------------------------------------------------------------------------------------------
// Webhooks (lib/webhooks/delivery.ts, delivery-sweep.ts)

export const ZDeliverWebhookPayload = z.object({
  deliveryId: z.string().min(1),
  trigger: z.enum(["automatic", "manual"]).optional(),
});
export type TDeliverWebhookPayload = z.output<typeof ZDeliverWebhookPayload>;

/**
 * Puts a webhook delivery back on its queue (lib/webhooks/delivery-queue.ts: the delivery rows are
 * the queue, sent by the dispatcher, not by graphile-worker). Kept for the jobs earlier versions
 * queued, one per attempt (nothing adds one any more): a no-op when the delivery is queued, being
 * sent or finished. Keyed `deliver:<id>`; one attempt.
 */
export const deliverWebhookJob = defineJob({
  name: "webhook_deliver",
  payload: ZDeliverWebhookPayload,
  handler: async () => (await import("../webhooks/delivery")).deliverWebhookTask,
  key: ({ deliveryId }) => `deliver:${deliveryId}`,
  maxAttempts: 1,
});

export const sweepWebhookDeliveriesJob = defineJob({
  name: "webhook_sweep",
  payload: ZNoPayload,
  handler: async () => (await import("../webhooks/delivery-sweep")).sweepWebhookDeliveriesTask,
  schedule: "* * * * *",
});

// ---------------------------------------------------------------------------------------------
// Mail (lib/mail/queue.ts)

export const ZSendMailPayload = z.object({
  /** the template, for logs */
  kind: z.string(),
  /** the rendered mail, sealed with the master key: it holds single-use links */
  sealed: z.string().min(1),
});
export type TSendMailPayload = z.output<typeof ZSendMailPayload>;

/** Sends one queued mail over SMTP_URL; an SMTP failure is retried with graphile-worker's backoff. */
export const sendMailJob = defineJob({
  name: "mail_send",
  payload: ZSendMailPayload,
  handler: async () => (await import("../mail/queue")).sendMailTask,
  maxAttempts: 12,
});

/** Deletes password-reset links and pending sign-ups a day after they expired (lib/team/link-purge.ts). */
export const mailLinkPurgeJob = defineJob({
  name: "mail_link_purge",
  payload: ZNoPayload,
  handler: async () => (await import("../team/link-purge")).purgeExpiredMailLinksTask,
  schedule: "25 * * * *",
});

/** All jobs: the worker registers exactly these. */
export const JOBS: readonly TRegisteredJob[] = [
  idempotencyPurgeJob,
  oidcPurgeJob,
  rateLimitPurgeJob,
  verificationPurgeJob,
  requestLogPurgeJob,
  samlAssertionPurgeJob,
  expireVerificationJob,
  expirySweepJob,
  verificationRetentionJob,
  verificationStatsRollupJob,
  completeDemoActivationJob,
  rotateSigningKeysJob,
  recheckCustomDomainsJob,
  connectionRecheckJob,
  deliverWebhookJob,
  sweepWebhookDeliveriesJob,
  sendMailJob,
  mailLinkPurgeJob,
];

/** The periodic jobs (graphile-worker crontab lines: minute hour day month weekday task). */
export const CRONTAB: readonly string[] = crontabOf(JOBS);

/** The job named `name`, if there is one (tests run scheduled jobs by name). */
export function jobNamed(name: string): TRegisteredJob | undefined {
  return JOBS.find((job) => job.name === name);
}
