/**
 * Liveness and readiness of one instance, for a load balancer or an orchestrator (issue 27):
 * GET /healthz and GET /readyz, answered by the production server itself (server/operations.mjs)
 * before any routing, so neither touches the request log, a rate limit or a custom domain's lookup.
 * Rules:
 * - liveness is the process serving: no database, no check;
 * - readiness is every check passing, in this order, the first failing one named in the answer:
 *   not shutting down; the database answers a statement within IDV_READY_TIMEOUT_MS; every
 *   migration this build ships is applied (remembered once true: migrations are never undone);
 *   the job worker runs when this instance runs jobs (IDV_JOBS, default on);
 * - concurrent probes share one check (a burst of probes costs one statement);
 * - the answer holds a short reason and nothing else: no version, no host, no data.
 */
import { config } from "../config";
import { kysely } from "../db/client";
import { appliedMigrationNames, pingDatabase } from "./store";
import { shippedMigrationNames } from "./migrations";

export type TReadiness = { ready: true } | { ready: false; reason: string };

export interface TReadinessChecks {
  /** Resolves when the database answered; rejects otherwise. */
  ping(): Promise<void>;
  /** The names of the migrations recorded as applied. */
  applied(): Promise<readonly string[]>;
  /** The names of the migrations this build ships. */
  shipped(): readonly string[];
  /** Whether this instance should run the job worker, and whether it runs. */
  jobs(): { expected: boolean; running: boolean };
  /** Milliseconds the database gets to answer. */
  timeoutMs(): number;
}

/** The readiness of an instance whose checks are `checks` (one instance per process). */
export function readinessProbe(checks: TReadinessChecks) {
  let shuttingDown = false;
  let migrated = false;
  let running: Promise<TReadiness> | undefined;

  async function check(): Promise<TReadiness> {
    if (shuttingDown) return { ready: false, reason: "shutting down" };
    const timeoutMs = checks.timeoutMs();
    const answered = await withinTime(checks.ping(), timeoutMs);
    if (answered === "timeout") return { ready: false, reason: `database: no answer within ${timeoutMs} ms` };
    if (answered instanceof Error) return { ready: false, reason: "database: unreachable" };
    if (!migrated) {
      const applied = new Set(await checks.applied().catch(() => []));
      const missing = checks.shipped().filter((name) => !applied.has(name));
      if (missing.length > 0) {
        return {
          ready: false,
          reason: `database: ${missing.length} migration${missing.length === 1 ? "" : "s"} not applied`,
        };
      }
      migrated = true;
    }
    const jobs = checks.jobs();
    if (jobs.expected && !jobs.running) return { ready: false, reason: "job worker: not running" };
    if (shuttingDown) return { ready: false, reason: "shutting down" };
    return { ready: true };
  }

  return {
    /** The instance's readiness now (probes at the same moment share one check). */
    readiness(): Promise<TReadiness> {
      if (shuttingDown) return Promise.resolve({ ready: false, reason: "shutting down" });
      running ??= check().finally(() => (running = undefined));
      return running;
    },
    /** From now on the instance is not ready (a shutdown began). */
    beginShutdown(): void {
      shuttingDown = true;
    },
    get shuttingDown(): boolean {
      return shuttingDown;
    },
  };
}

/** `promise`'s outcome within `ms`: undefined when it resolved, its error, or "timeout". */
async function withinTime(promise: Promise<unknown>, ms: number): Promise<Error | "timeout" | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => undefined,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The checks of this process: its database pool, its migrations, its job worker. */
export function processChecks(jobWorkerRunning: () => boolean): TReadinessChecks {
  return {
    ping: () => pingDatabase(kysely()),
    applied: () => appliedMigrationNames(kysely()),
    shipped: shippedMigrationNames,
    jobs: () => ({ expected: config().jobs, running: jobWorkerRunning() }),
    timeoutMs: () => config().readyTimeoutMs,
  };
}
