/**
 * Runs the job queue inside the service process (started from instrumentation.ts, and by tests
 * that need background work). `installJobQueue` creates the queue's schema; it runs with the
 * database migrations.
 */
import { Logger, run, runMigrations, type Runner, type TaskList } from "graphile-worker";
import { config } from "../config";
import { logger } from "../log";
import { CRONTAB, JOBS } from "./definitions";

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

export async function startJobWorker(
  connectionString = config().databaseUrl,
  { concurrency = config().jobConcurrency, pollInterval = 1000 } = {},
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
  runner.events.on("job:error", ({ job, error }) =>
    logger.warn({ task: job.task_identifier, err: error }, "job failed"),
  );
  return runner;
}

export async function stopJobWorker(): Promise<void> {
  const current = runner;
  runner = undefined;
  await current?.stop();
}
