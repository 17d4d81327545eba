/**
 * The job registry: one definition per job, one handler per definition; the worker's task list
 * and crontab come from them, `enqueue` type-checks payloads against the definition and computes
 * the job key from it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "../db/client";
import * as definitions from "./definitions";
import { completeDemoActivationJob, sendMailJob, verificationStatsRollupJob } from "./definitions";
import { CRONTAB, JOBS, jobNamed } from "./handlers";
import { defineJob, enqueue, jobTask } from "./registry";

/** Never run (it would need a database): compiled by `tsc`, which checks the misuse below. */
async function typeChecks(db: Db): Promise<void> {
  await enqueue(db, completeDemoActivationJob, { ticketId: "act_1" });
  await enqueue(db, completeDemoActivationJob, { ticketId: "act_1" }, { keyed: false });
  await enqueue(db, sendMailJob, { kind: "invitation", sealed: "v1.x" }, { runAt: new Date() });
  // @ts-expect-error the payload of another job
  await enqueue(db, completeDemoActivationJob, { kind: "invitation", sealed: "v1.x" });
  // @ts-expect-error a required field missing
  await enqueue(db, completeDemoActivationJob, {});
  // @ts-expect-error a value of another type than the schema's
  await enqueue(db, sendMailJob, { kind: "invitation", sealed: 1 });
  // @ts-expect-error a task name instead of a definition
  await enqueue(db, "mail_send", { kind: "invitation", sealed: "v1.x" });
  jobTask(
    defineJob({ name: "typed_handler", payload: z.object({ n: z.number() }) }),
    // @ts-expect-error the handler takes another payload than the schema's
    async () => async (_payload: { s: string }) => {},
  );
}

describe("job registry", () => {
  it("type-checks enqueue (see typeChecks, compiled by tsc)", () => {
    expect(typeChecks).toBeTypeOf("function");
  });

  it("runs every definition, each with one handler", () => {
    const defined = Object.values(definitions)
      .filter((value) => typeof value === "object" && value !== null && "payload" in value && "name" in value)
      .map((job) => job.name);
    expect(defined.length).toBeGreaterThan(10);
    expect(JOBS.map((job) => job.name).sort()).toEqual([...defined].sort());
  });

  it("has one definition per task name", () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(jobNamed(name)?.name).toBe(name);
    expect(jobNamed("no_such_job")).toBeUndefined();
  });

  it("schedules only registered jobs, each once, with five time fields", () => {
    const scheduled = CRONTAB.map((line) => line.split(/\s+/));
    for (const fields of scheduled) {
      expect(fields).toHaveLength(6);
      expect(jobNamed(fields[5]!), fields.join(" ")).toBeDefined();
    }
    const names = scheduled.map((fields) => fields[5]);
    expect(new Set(names).size).toBe(names.length);
    expect(CRONTAB).toContain("* * * * * webhook_sweep");
    expect(CRONTAB).toContain("* * * * * verification_expiry_sweep");
    expect(CRONTAB).toContain("20 * * * * verification_stats_rollup");
  });

  it("computes the job keys the queue has always used", () => {
    expect(completeDemoActivationJob.key?.({ ticketId: "act_1" })).toBe("activation.complete_demo:act_1");
    expect(verificationStatsRollupJob.key?.({})).toBe("verification_stats_rollup:backlog");
    expect(sendMailJob.key).toBeUndefined();
    expect(sendMailJob.maxAttempts).toBe(12);
  });

  it("loads every handler", async () => {
    for (const job of JOBS) {
      expect(await job.handler(), job.name).toBeTypeOf("function");
    }
  });

  it("runs the handler with the parsed payload and drops a malformed one", async () => {
    const seen: unknown[] = [];
    const job = jobTask(
      defineJob({ name: "test_job", payload: z.object({ n: z.number() }) }),
      async () => async (payload) => {
        seen.push(payload);
      },
    );
    await job.task({ n: 1, extra: true });
    await job.task({ n: "one" });
    await job.task(null);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("accepts graphile-worker's cron payload for scheduled jobs", async () => {
    const seen: unknown[] = [];
    const job = jobTask(
      defineJob({ name: "test_cron", payload: z.object({}), schedule: "* * * * *" }),
      async () => async () => {
        seen.push("ran");
      },
    );
    expect(job.schedule).toBe("* * * * *");
    await job.task({ _cron: { ts: new Date().toISOString(), backfilled: false } });
    expect(seen).toEqual(["ran"]);
  });
});
