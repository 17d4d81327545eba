/**
 * Which code runs each job: the worker's task list (`JOBS`) and crontab, from the definitions of
 * definitions.ts, each handler imported from its domain on first use. Kept apart from the
 * definitions, which any module imports to queue a job: the handlers' modules queue jobs
 * themselves (a mail, the stats rollup's follow-up run), so a module holding both would import
 * them and be imported by them.
 */
import {
  completeDemoActivationJob,
  connectionRecheckJob,
  expirySweepJob,
  idempotencyPurgeJob,
  mailLinkPurgeJob,
  oidcPurgeJob,
  rateLimitPurgeJob,
  recheckCustomDomainsJob,
  requestLogPurgeJob,
  rotateSigningKeysJob,
  samlAssertionPurgeJob,
  sendMailJob,
  sweepWebhookDeliveriesJob,
  verificationPurgeJob,
  verificationRetentionJob,
  verificationStatsRollupJob,
} from "./definitions";
import { crontabOf, jobTask, type TRegisteredJob } from "./registry";

/** All jobs: the worker registers exactly these. */
export const JOBS: readonly TRegisteredJob[] = [
  jobTask(idempotencyPurgeJob, async () => (await import("./housekeeping")).purgeIdempotencyRecords),
  jobTask(oidcPurgeJob, async () => (await import("./housekeeping")).purgeOidcRowsTask),
  jobTask(rateLimitPurgeJob, async () => (await import("./housekeeping")).purgeRateLimitsTask),
  jobTask(verificationPurgeJob, async () => (await import("./housekeeping")).purgeEndedSessionsTask),
  jobTask(requestLogPurgeJob, async () => (await import("../request-log/purge")).purgeRequestLogsTask),
  jobTask(samlAssertionPurgeJob, async () => (await import("./housekeeping")).purgeSamlRowsTask),
  jobTask(expirySweepJob, async () => (await import("../verifications/jobs")).expirySweepTask),
  jobTask(verificationRetentionJob, async () => (await import("../verifications/jobs")).retentionTask),
  jobTask(
    verificationStatsRollupJob,
    async () => (await import("../stats/rollup")).verificationStatsRollupTask,
  ),
  jobTask(completeDemoActivationJob, async () => (await import("../activation/demo")).completeDemoActivation),
  jobTask(rotateSigningKeysJob, async () => (await import("../oidc/jobs")).rotateSigningKeysTask),
  jobTask(recheckCustomDomainsJob, async () => (await import("../domains/recheck")).recheckCustomDomainsTask),
  jobTask(
    connectionRecheckJob,
    async () => (await import("../connections/recheck")).recheckFailingConnectionsTask,
  ),
  jobTask(
    sweepWebhookDeliveriesJob,
    async () => (await import("../webhooks/dispatch/sweep")).sweepWebhookDeliveriesTask,
  ),
  jobTask(sendMailJob, async () => (await import("../mail/queue")).sendMailTask),
  jobTask(mailLinkPurgeJob, async () => (await import("../team/link-purge")).purgeExpiredMailLinksTask),
];

/** The periodic jobs (graphile-worker crontab lines: minute hour day month weekday task). */
export const CRONTAB: readonly string[] = crontabOf(JOBS);

/** The job named `name`, if there is one (tests run scheduled jobs by name). */
export function jobNamed(name: string): TRegisteredJob | undefined {
  return JOBS.find((job) => job.name === name);
}
