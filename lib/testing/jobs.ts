/**
 * Background jobs in integration tests: starts the real graphile-worker runner in the test
 * process (the queue schema is installed by the global setup) and waits for conditions.
 */
import { afterAll, beforeAll } from "vitest";
import { startJobWorker, stopJobWorker } from "../jobs/worker";

export function startJobWorkerForTests(): void {
  beforeAll(async () => {
    await startJobWorker(process.env.DATABASE_URL, { concurrency: 2, pollInterval: 100 });
  });
  afterAll(async () => {
    await stopJobWorker();
  });
}

/** Polls `check` until it returns a truthy value or the timeout passes. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
