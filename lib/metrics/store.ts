/**
 * The statements behind the gauges read when metrics are scraped (lib/metrics/collect.ts): the
 * webhook queue (deliveries waiting for an attempt, the oldest that is due and not leased) and
 * graphile-worker's queue (how long its oldest runnable job has waited). Two statements a scrape.
 */
import { sql } from "kysely";
import type { Db } from "../db/kysely";
import { nowUtc } from "../db/timestamps";

/** Deliveries waiting for an attempt, and the age in seconds of the oldest due and unleased one. */
export async function webhookQueue(db: Db): Promise<{ depth: number; oldestDueSeconds: number }> {
  const row = await db
    .selectFrom("webhookDeliveries as d")
    .select((eb) => [
      eb.fn.countAll<string>().as("depth"),
      sql<number | null>`extract(epoch from (${nowUtc} - min(${eb.ref("d.nextAttemptAt")}) filter (
        where ${eb.ref("d.nextAttemptAt")} <= ${nowUtc}
          and (${eb.ref("d.leaseUntil")} is null or ${eb.ref("d.leaseUntil")} < ${nowUtc}))))::float8`.as(
        "oldestDueSeconds",
      ),
    ])
    .where("d.queuedTrigger", "is not", null)
    .executeTakeFirstOrThrow();
  return { depth: Number(row.depth), oldestDueSeconds: Math.max(0, row.oldestDueSeconds ?? 0) };
}

/** Seconds the oldest runnable job of graphile-worker has waited past its run time (0: none). */
export async function jobQueueLagSeconds(db: Db): Promise<number> {
  const { rows } = await sql<{ lag: number | null }>`
    SELECT extract(epoch from (now() - min(run_at)))::float8 AS lag
      FROM graphile_worker._private_jobs
     WHERE is_available AND run_at <= now()`.execute(db);
  return Math.max(0, rows[0]?.lag ?? 0);
}
