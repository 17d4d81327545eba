/**
 * Every background job of the service, one definition each (name, payload schema, job key,
 * attempts, schedule): code that queues a job passes its definition to `enqueue`
 * (lib/jobs/registry.ts), which type-checks the payload and computes the key. Which handler runs
 * each job is in lib/jobs/handlers.ts, which builds the worker's task list and crontab; this
 * module imports no domain code, so any module may import it. A handler does its own
 * transaction; throwing makes graphile-worker retry it with backoff.
 */
import { z } from "zod";
import { defineJob } from "./registry";

const ZNoPayload = z.object({});

// ---------------------------------------------------------------------------------------------
// Housekeeping (lib/jobs/housekeeping.ts): delete what has expired, in bounded batches

export const idempotencyPurgeJob = defineJob({
  name: "idempotency_purge",
  payload: ZNoPayload,
  schedule: "0 * * * *",
});

export const oidcPurgeJob = defineJob({
  name: "oidc_purge",
  payload: ZNoPayload,
  schedule: "5 * * * *",
});

export const rateLimitPurgeJob = defineJob({
  name: "rate_limit_purge",
  payload: ZNoPayload,
  schedule: "10 * * * *",
});

export const verificationPurgeJob = defineJob({
  name: "verification_purge",
  payload: ZNoPayload,
  schedule: "50 3 * * *",
});

export const requestLogPurgeJob = defineJob({
  name: "request_log_purge",
  payload: ZNoPayload,
  schedule: "45 * * * *",
});

/**
 * The SAML replay cache's assertion IDs past their assertion's expiry (saml-replay.ts), and the
 * SAML test sign-ins' hand-offs that expired unanswered (lib/connections/test-sign-in-hand-offs.ts).
 */
export const samlAssertionPurgeJob = defineJob({
  name: "saml_assertion_purge",
  payload: ZNoPayload,
  schedule: "40 * * * *",
});

// ---------------------------------------------------------------------------------------------
// Verification sessions

/**
 * Expires every open session past its `expiresAt` (lib/verifications/expiry-sweep.ts): each job
 * worker also runs the sweep on its own timer, every IDV_EXPIRY_SWEEP_MS; this once-a-minute run
 * is the backstop.
 */
export const expirySweepJob = defineJob({
  name: "verification_expiry_sweep",
  payload: ZNoPayload,
  schedule: "* * * * *",
});

export const verificationRetentionJob = defineJob({
  name: "verification_retention",
  payload: ZNoPayload,
  schedule: "30 * * * *",
});

export const verificationStatsRollupJob = defineJob({
  name: "verification_stats_rollup",
  payload: ZNoPayload,
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
  key: ({ ticketId }) => `activation.complete_demo:${ticketId}`,
});

export const rotateSigningKeysJob = defineJob({
  name: "signing_keys_rotate",
  payload: ZNoPayload,
  schedule: "15 3 * * *",
});

export const recheckCustomDomainsJob = defineJob({
  name: "custom_domain_recheck",
  payload: ZNoPayload,
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
  schedule: "*/5 * * * *",
});

// ---------------------------------------------------------------------------------------------
// Webhooks (lib/webhooks/dispatch/sweep.ts; deliveries are sent by the dispatcher, not by jobs)

export const sweepWebhookDeliveriesJob = defineJob({
  name: "webhook_sweep",
  payload: ZNoPayload,
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
  maxAttempts: 12,
});

/** Deletes password-reset links and pending sign-ups a day after they expired (lib/team/link-purge.ts). */
export const mailLinkPurgeJob = defineJob({
  name: "mail_link_purge",
  payload: ZNoPayload,
  schedule: "25 * * * *",
});
