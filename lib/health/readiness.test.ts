import { describe, expect, it } from "vitest";
import { readinessProbe, type TReadinessChecks } from "./readiness";

/** Checks that pass, with `overrides`; `counts.pings` counts the database pings. */
function checks(overrides: Partial<TReadinessChecks> = {}, counts = { pings: 0 }): TReadinessChecks {
  return {
    ping: async () => {
      counts.pings++;
    },
    applied: async () => ["001_init", "002_more"],
    shipped: () => ["001_init", "002_more"],
    jobs: () => ({ expected: true, running: true }),
    timeoutMs: () => 50,
    ...overrides,
  };
}

describe("readiness", () => {
  it("is ready when the database answers, every shipped migration is applied and the job worker runs", async () => {
    expect(await readinessProbe(checks()).readiness()).toEqual({ ready: true });
  });

  it("names the database when it does not answer in time, or fails", async () => {
    const slow = readinessProbe(checks({ ping: () => new Promise((resolve) => setTimeout(resolve, 500)) }));
    expect(await slow.readiness()).toEqual({ ready: false, reason: "database: no answer within 50 ms" });
    const down = readinessProbe(checks({ ping: () => Promise.reject(new Error("ECONNREFUSED")) }));
    expect(await down.readiness()).toEqual({ ready: false, reason: "database: unreachable" });
  });

  it("counts the migrations this build ships that are not applied, and asks no more once all are", async () => {
    let applied = ["001_init"];
    const probe = readinessProbe(checks({ applied: async () => applied }));
    expect(await probe.readiness()).toEqual({ ready: false, reason: "database: 1 migration not applied" });
    applied = ["001_init", "002_more"];
    expect(await probe.readiness()).toEqual({ ready: true });
    applied = [];
    // migrations are never undone: the table is not read again
    expect(await probe.readiness()).toEqual({ ready: true });
  });

  it("is not ready while this instance should run jobs and its worker does not", async () => {
    let running = false;
    const probe = readinessProbe(checks({ jobs: () => ({ expected: true, running }) }));
    expect(await probe.readiness()).toEqual({ ready: false, reason: "job worker: not running" });
    running = true;
    expect(await probe.readiness()).toEqual({ ready: true });
    const webOnly = readinessProbe(checks({ jobs: () => ({ expected: false, running: false }) }));
    expect(await webOnly.readiness()).toEqual({ ready: true });
  });

  it("turns not ready at once when a shutdown begins, without asking the database", async () => {
    const counts = { pings: 0 };
    const probe = readinessProbe(checks({}, counts));
    expect(await probe.readiness()).toEqual({ ready: true });
    probe.beginShutdown();
    expect(await probe.readiness()).toEqual({ ready: false, reason: "shutting down" });
    expect(counts.pings).toBe(1);
  });

  it("shares one check among probes that arrive together", async () => {
    let pings = 0;
    const probe = readinessProbe(
      checks({
        ping: () => {
          pings++;
          return new Promise((resolve) => setTimeout(resolve, 10));
        },
      }),
    );
    const answers = await Promise.all([probe.readiness(), probe.readiness(), probe.readiness()]);
    expect(answers).toEqual([{ ready: true }, { ready: true }, { ready: true }]);
    expect(pings).toBe(1);
    await probe.readiness();
    expect(pings).toBe(2);
  });
});
