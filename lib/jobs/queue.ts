/**
 * The background job queue: graphile-worker on the service's PostgreSQL.
 * Rules: a job is enqueued with `enqueueJob(tx, …)` inside the transaction that makes the state
 * change it follows from, so both commit or neither does; workers on any number of instances
 * share the queue (graphile-worker locks jobs); a job key makes enqueueing idempotent.
 */
import type { Tx } from "../db/client";

export const JOB_SCHEMA = "graphile_worker";

export interface EnqueueOptions {
  /** run no earlier than this */
  runAt?: Date;
  /** replaces a pending job with the same key instead of adding another */
  jobKey?: string;
  maxAttempts?: number;
}

export async function enqueueJob(
  db: Tx,
  task: string,
  payload: object,
  options: EnqueueOptions = {},
): Promise<void> {
  await db.$executeRaw`SELECT graphile_worker.add_job(
    ${task}::text,
    ${JSON.stringify(payload)}::json,
    run_at => ${options.runAt ?? null}::timestamptz,
    job_key => ${options.jobKey ?? null}::text,
    max_attempts => ${options.maxAttempts ?? 10}::int
  )`;
}
