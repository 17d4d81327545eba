/**
 * Runs the job queue inside the service process (started from instrumentation.ts, and by tests
 * that need background work), together with the webhook dispatcher, which has a queue of its own
 * (the delivery rows, lib/webhooks/dispatch/queue.ts), and the sweeper that expires sessions at
 * their TTL (lib/verifications/expiry-sweep.ts). `installJobQueue` creates the job queue's
 * schema; it runs with the database migrations.
 */
import { Logger, run, runMigrations, type Runner, type TaskList } from "graphile-worker";
import { config } from "../config";
import { logger } from "../log";
import type { ExpirySweeper } from "../verifications/expiry-sweep";
import type { WebhookDispatcher } from "../webhooks/dispatch/dispatcher";
import { CRONTAB, JOBS } from "./handlers";

function taskList(): TaskList {
  const list: TaskList = {};
  for (const job of JOBS) list[job.name] = (payload) => job.task(payload);
  return list;
}

export async function installJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: quietLogger() });
}

/** graphile-worker's messages, routed into our log at warning level and above. */
function quietLogger(): Logger {
  return new Logger(() => (level, message, meta) => {
    if (level === "error") logger.error({ meta }, message);
    else if (level === "warning") logger.warn({ meta }, message);
  });
}

let runner: Runner | undefined;
let dispatcher: WebhookDispatcher | undefined;
let sweeper: ExpirySweeper | undefined;
/** graphile-worker's runner ended by itself (its connection lost for good, a crash of its own). */
let runnerEnded = false;

/** Whether the worker runs in this process: started, not stopped, and its runner not ended. */
export function jobWorkerRunning(): boolean {
  return runner !== undefined && !runnerEnded;
}

/**
 * Starts graphile-worker (every job of lib/jobs/definitions.ts, `concurrency` at a time, polling
 * every `pollInterval` ms besides its LISTEN) and the webhook dispatcher
 * (lib/webhooks/dispatch/dispatcher.ts: WEBHOOK_CONCURRENCY deliveries at a time, woken by its own
 * LISTEN, polling at the same interval) and the expiry sweeper (every `expirySweepMs`,
 * IDV_EXPIRY_SWEEP_MS).
 */
export async function startJobWorker(
  connectionString = config().databaseUrl,
  { concurrency = config().jobConcurrency, pollInterval = 1000, expirySweepMs = config().expirySweepMs } = {},
): Promise<Runner> {
  if (runner) return runner;
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  runner = await run({
    connectionString,
    concurrency,
    pollInterval,
    noHandleSignals: true,
    taskList: taskList(),
    crontab: CRONTAB.join("\n"),
    logger: quietLogger(),
  });
  runnerEnded = false;
  const started = runner;
  started.promise.then(
    () => {
      if (runner === started) runnerEnded = true;
    },
    (err: unknown) => {
      if (runner !== started) return;
      runnerEnded = true;
      logger.error({ err }, "job worker stopped");
    },
  );
  runner.events.on("job:error", ({ job, error }) =>
    logger.warn({ task: job.task_identifier, err: error }, "job failed"),
  );
  // imported here: the queue's schema (installJobQueue) needs no domain code
  const { WebhookDispatcher } = await import("../webhooks/dispatch/dispatcher");
  dispatcher = new WebhookDispatcher({
    connectionString,
    concurrency: config().webhookConcurrency,
    pollIntervalMs: pollInterval,
  });
  dispatcher.start();
  // writers in this process wake it directly, without a NOTIFY (lib/webhooks/dispatch/wake.ts)
  const { setLocalDispatcher } = await import("../webhooks/dispatch/wake");
  setLocalDispatcher(dispatcher);
  const { ExpirySweeper } = await import("../verifications/expiry-sweep");
  sweeper = new ExpirySweeper({ connectionString, intervalMs: expirySweepMs });
  sweeper.start();
  return runner;
}

/**
 * Stops all three; the webhook attempts in flight are recorded first (at most the attempt
 * timeout), an expiry batch under way is committed first.
 */
export async function stopJobWorker(): Promise<void> {
  const current = runner;
  const sending = dispatcher;
  const sweeping = sweeper;
  runner = undefined;
  dispatcher = undefined;
  sweeper = undefined;
  if (sending) (await import("../webhooks/dispatch/wake")).setLocalDispatcher(undefined);
  await Promise.all([current?.stop(), sending?.stop(config().webhookTimeoutMs + 5000), sweeping?.stop()]);
}
