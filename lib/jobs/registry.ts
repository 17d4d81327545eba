/**
 * The background job queue: graphile-worker on the service's PostgreSQL, driven by typed job
 * definitions (lib/jobs/definitions.ts holds them; lib/jobs/handlers.ts says which code runs each).
 * Rules: a job is enqueued with `enqueue(tx, definition, payload)` inside the transaction that
 * makes the state change it follows from, so both commit or neither does; workers on any number
 * of instances share the queue (graphile-worker locks jobs); a job key makes enqueueing
 * idempotent (a pending job with the same key is replaced instead of a second one added).
 */
import type { z } from "zod";
import type { Db } from "../db/client";
import { logger } from "../log";
import { addJob } from "./store";

const DEFAULT_MAX_ATTEMPTS = 10;

/** What a task does with its (parsed) payload; throwing makes graphile-worker retry it. */
export type TJobHandler<TPayload> = (payload: TPayload) => Promise<void>;

/** What the worker needs of any job, whatever its payload type. */
export interface TRegisteredJob {
  /** the graphile-worker task identifier */
  readonly name: string;
  /** crontab time fields (minute hour day month weekday) when the job also runs periodically */
  readonly schedule?: string;
  /** imports the handler (on first use, so the queue does not load every domain module) */
  readonly handler: () => Promise<TJobHandler<never>>;
  /**
   * Runs one job: parses the payload with the definition's schema, loads the handler and runs
   * it; a malformed payload is logged and dropped (a retry would not mend it).
   */
  readonly task: (payload: unknown) => Promise<void>;
}

/** A job as the code that queues it sees it: no handler, so any module may import it. */
export interface TJobDefinition<TSchema extends z.ZodType> {
  name: string;
  /** parsed on enqueue (types) and before the handler runs (values) */
  payload: TSchema;
  /** the job key of an enqueued job (at most one pending job per key) */
  key?: (payload: z.input<TSchema>) => string;
  /** attempts before graphile-worker gives up (default 10) */
  maxAttempts?: number;
  schedule?: string;
}

/** One job: its name, payload schema and, where it has them, key, attempts and schedule. */
export function defineJob<TSchema extends z.ZodType>(spec: TJobDefinition<TSchema>): TJobDefinition<TSchema> {
  return spec;
}

/** The job `definition` run by the handler `load` imports: an entry of the worker's task list. */
export function jobTask<TSchema extends z.ZodType>(
  definition: TJobDefinition<TSchema>,
  load: () => Promise<TJobHandler<z.output<TSchema>>>,
): TRegisteredJob {
  return {
    name: definition.name,
    ...(definition.schedule ? { schedule: definition.schedule } : {}),
    handler: load,
    task: async (payload) => {
      const parsed = definition.payload.safeParse(payload);
      if (!parsed.success) {
        logger.warn({ payload }, `${definition.name}: malformed payload, dropped`);
        return;
      }
      const handler = await load();
      await handler(parsed.data);
    },
  };
}

export interface TEnqueueOptions {
  /** run no earlier than this */
  runAt?: Date;
  /** overrides the definition's */
  maxAttempts?: number;
  /** false: no job key even though the definition has one (default true) */
  keyed?: boolean;
}

/** What graphile_worker.add_job(s) is given for a job (a `graphile_worker.job_spec`). */
export interface TJobSpecValues {
  name: string;
  /** the payload as JSON text */
  payload: string;
  runAt: Date | null;
  jobKey: string | null;
  maxAttempts: number;
}

/**
 * The job `enqueue` adds, as values: for statements that add several jobs at once with
 * graphile_worker.add_jobs (the outbox of lib/webhooks/events.ts), in the same transaction.
 */
export function jobSpec<TSchema extends z.ZodType>(
  definition: TJobDefinition<TSchema>,
  payload: NoInfer<z.input<TSchema>>,
  options: TEnqueueOptions = {},
): TJobSpecValues {
  return {
    name: definition.name,
    payload: JSON.stringify(payload),
    runAt: options.runAt ?? null,
    jobKey: options.keyed !== false && definition.key ? definition.key(payload) : null,
    maxAttempts: options.maxAttempts ?? definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  };
}

/** Adds a job of `definition`; call with the transaction whose state change it follows from. */
export async function enqueue<TSchema extends z.ZodType>(
  db: Db,
  definition: TJobDefinition<TSchema>,
  payload: NoInfer<z.input<TSchema>>,
  options: TEnqueueOptions = {},
): Promise<void> {
  await addJob(db, jobSpec(definition, payload, options));
}

/** graphile-worker crontab lines (minute hour day month weekday task) of the scheduled jobs. */
export function crontabOf(definitions: readonly TRegisteredJob[]): string[] {
  return definitions.flatMap((d) => (d.schedule ? [`${d.schedule} ${d.name}`] : []));
}
