/**
 * The job queue's one statement on the data layer (lib/db/kysely.ts): adding a job with
 * graphile_worker.add_job in the transaction of `db` (the job exists once it commits). The
 * function's schema is graphile-worker's, not the generated types': its call is a `sql` fragment
 * with named arguments, each cast to the type the function declares; it selects the new job's id
 * (bigint: text).
 */
import { sql } from "kysely";
import type { Db } from "../db/kysely";

/** What graphile_worker.add_job is given (registry.ts `jobSpec`). */
export interface TJobToAdd {
  name: string;
  /** the payload as JSON text */
  payload: string;
  runAt: Date | null;
  jobKey: string | null;
  maxAttempts: number;
}

/** Adds the job `job` in the transaction of `db`. */
export async function addJob(db: Db, job: TJobToAdd): Promise<void> {
  await db
    .selectNoFrom(
      sql<string>`(graphile_worker.add_job(
        ${job.name}::text,
        ${job.payload}::json,
        run_at => ${job.runAt}::timestamptz,
        job_key => ${job.jobKey}::text,
        max_attempts => ${job.maxAttempts}::int
      )).id`.as("id"),
    )
    .execute();
}
