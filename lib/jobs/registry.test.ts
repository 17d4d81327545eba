/**
 * The job registry: one definition per job; the worker's task list and crontab come from it,
 * `enqueue` type-checks payloads against the definition and computes the job key from it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Tx } from "../db/client";
import {
  completeDemoActivationJob,
  CRONTAB,
  deliverWebhookJob,
  expireVerificationJob,
  expirySweepJob,
  JOBS,
  jobNamed,
  verificationStatsRollupJob,
} from "./definitions";
import { defineJob, enqueue } from "./registry";

/** Never run (it would need a database): compiled by `tsc`, which checks the misuse below. */
async function typeChecks(db: Tx): Promise<void> {
  await enqueue(db, deliverWebhookJob, { deliveryId: "dlv_1" });
  await enqueue(db, deliverWebhookJob, { deliveryId: "dlv_1", trigger: "manual" }, { keyed: false });
  await enqueue(db, expireVerificationJob, { verificationId: "ver_1" }, { runAt: new Date() });
  // @ts-expect-error the payload of another job
  await enqueue(db, deliverWebhookJob, { verificationId: "ver_1" });
  // @ts-expect-error a required field missing
  await enqueue(db, completeDemoActivationJob, {});
  // @ts-expect-error a value outside the schema
  await enqueue(db, deliverWebhookJob, { deliveryId: "dlv_1", trigger: "sometimes" });
  // @ts-expect-error a task name instead of a definition
  await enqueue(db, "webhook_deliver", { deliveryId: "dlv_1" });
  defineJob({
    name: "typed_handler",
    payload: z.object({ n: z.number() }),
    // @ts-expect-error the handler takes another payload than the schema's
    handler: async () => async (_payload: { s: string }) => {},
  });
}

describe("job registry", () => {
  it("type-checks enqueue (see typeChecks, compiled by tsc)", () => {
    expect(typeChecks).toBeTypeOf("function");
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
    expect(deliverWebhookJob.key?.({ deliveryId: "dlv_1", trigger: "manual" })).toBe("deliver:dlv_1");
    expect(expireVerificationJob.key?.({ verificationId: "ver_1" })).toBe("expire:ver_1");
    expect(completeDemoActivationJob.key?.({ ticketId: "act_1" })).toBe("activation.complete_demo:act_1");
    expect(verificationStatsRollupJob.key?.({})).toBe("verification_stats_rollup:backlog");
    expect(deliverWebhookJob.maxAttempts).toBe(1);
  });

  it("loads every handler", async () => {
    for (const job of [deliverWebhookJob, expireVerificationJob, expirySweepJob, completeDemoActivationJob]) {
      expect(await job.handler(), job.name).toBeTypeOf("function");
    }
  });

  it("runs the handler with the parsed payload and drops a malformed one", async () => {
    const seen: unknown[] = [];
    const job = defineJob({
      name: "test_job",
      payload: z.object({ n: z.number() }),
      handler: async () => async (payload) => {
        seen.push(payload);
      },
    });
    await job.task({ n: 1, extra: true });
    await job.task({ n: "one" });
    await job.task(null);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("accepts graphile-worker's cron payload for scheduled jobs", async () => {
    const seen: unknown[] = [];
    const job = defineJob({
      name: "test_cron",
      payload: z.object({}),
      handler: async () => async () => {
        seen.push("ran");
      },
      schedule: "* * * * *",
    });
    await job.task({ _cron: { ts: new Date().toISOString(), backfilled: false } });
    expect(seen).toEqual(["ran"]);
  });
});
