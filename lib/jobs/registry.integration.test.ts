/**
 * `enqueue` on the data layer (lib/jobs/store.ts): graphile_worker.add_job in the caller's
 * transaction — the job with its payload, run time, key and attempts exists once that
 * transaction commits, and never when it rolls back. The jobs here run a day from now, so no
 * worker of another test file takes them.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { randomToken } from "../ids";
import { completeDemoActivationJob, sendMailJob } from "./definitions";
import { enqueue } from "./registry";
import { inTransaction } from "../db/kysely";

interface TJobRow {
  taskIdentifier: string;
  payload: unknown;
  runAt: Date;
  key: string | null;
  maxAttempts: number;
}

/** graphile_worker's jobs with this key (result columns camelCased by the data layer). */
async function jobsKeyed(key: string): Promise<TJobRow[]> {
  const { rows } = await sql<TJobRow>`
    SELECT t.identifier AS task_identifier, j.payload, j.run_at, j.key, j.max_attempts
      FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE j.key = ${key}`.execute(kysely());
  return rows;
}

describe("enqueue on the database", () => {
  it("adds the job in the caller's transaction: its payload, run time, key and attempts", async () => {
    const ticketId = `act_${randomToken(12)}`;
    const runAt = new Date(Date.now() + 86_400_000);
    await inTransaction(kysely(), (tx) =>
      enqueue(tx, completeDemoActivationJob, { ticketId }, { runAt, maxAttempts: 3 }),
    );
    const [job, ...more] = await jobsKeyed(`activation.complete_demo:${ticketId}`);
    expect(more).toEqual([]);
    expect(job).toMatchObject({
      taskIdentifier: "activation.complete_demo",
      payload: { ticketId },
      maxAttempts: 3,
    });
    expect(job!.runAt.getTime()).toBe(runAt.getTime());

    // the same key again replaces the pending job: still one, with the new run time
    const later = new Date(runAt.getTime() + 60_000);
    await enqueue(kysely(), completeDemoActivationJob, { ticketId }, { runAt: later });
    const jobs = await jobsKeyed(`activation.complete_demo:${ticketId}`);
    expect(jobs.map((j) => [j.runAt.getTime(), j.maxAttempts])).toEqual([[later.getTime(), 10]]);
  });

  it("adds nothing when the transaction rolls back", async () => {
    const ticketId = `act_${randomToken(12)}`;
    const runAt = new Date(Date.now() + 86_400_000);
    await expect(
      inTransaction(kysely(), async (tx) => {
        await enqueue(tx, completeDemoActivationJob, { ticketId }, { runAt });
        await enqueue(tx, sendMailJob, { kind: "invitation", sealed: "v1.x" }, { runAt });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await jobsKeyed(`activation.complete_demo:${ticketId}`)).toEqual([]);
  });
});
