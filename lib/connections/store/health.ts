/**
 * The connections' health tables on the data layer (lib/db/kysely.ts): a sign-in's recording
 * (the bucket's upsert and the connection's streak in one statement), the health read of the
 * last hour and day, and the purge of old buckets. ../health.ts has the rules.
 */
import { sql, type Expression, type ExpressionBuilder, type RawBuilder } from "kysely";
import { prepared, type DB, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

export interface TSignInValues {
  environment: TEnvironment;
  providerId: string;
  bucket: Date;
  /** 1: an upstream fault, 0: a success */
  failed: number;
  latencyMs: number;
  /** the latency's histogram slot, 1-based */
  slot: number;
  /** the histogram of this one sign-in (1 in `slot`) */
  histogram: number[];
  error: string | null;
  now: Date;
  failingAfter: number;
}

/** Whether the connection (alias `t`) is failing: its last error is newer than its last success. */
const failing = (t: "conn" | "pc") =>
  sql<boolean>`(${sql.ref(`${t}.lastErrorAt`)} IS NOT NULL AND (${sql.ref(`${t}.lastSuccessAt`)} IS NULL OR ${sql.ref(`${t}.lastErrorAt`)} > ${sql.ref(`${t}.lastSuccessAt`)}))`;

const RECORD = prepared("connection_health_record", (db, p: TSignInValues) =>
  db
    // the connection row is locked first (its streak is read and written in the same statement)
    .with("conn", (qc) =>
      qc
        .selectFrom("providerConnections")
        .select(["id", "failureStreak", "lastErrorAt", "lastSuccessAt"])
        .where("environment", "=", p.environment)
        .where("providerId", "=", p.providerId)
        .forUpdate(),
    )
    .with("bucket", (qc) =>
      qc
        .insertInto("providerConnectionHealth")
        .columns([
          "connectionId",
          "bucketStart",
          "signIns",
          "failures",
          "latencySumMs",
          "latencyMaxMs",
          "latencyHistogram",
        ])
        // one element of the histogram is incremented on conflict: an array element's assignment,
        // which the builder's `doUpdateSet` (whole columns) cannot write
        .expression(
          sql`${qc
            .selectFrom("conn")
            .select((c) => [
              "conn.id",
              c.val(p.bucket).as("bucketStart"),
              sql.lit(1).as("signIns"),
              c.cast(c.val(p.failed), "integer").as("failures"),
              c.cast(c.val(p.latencyMs), "integer").as("latencySumMs"),
              c.cast(c.val(p.latencyMs), "integer").as("latencyMaxMs"),
              sql<number[]>`${p.histogram}::int[]`.as("latencyHistogram"),
            ])}
          ON CONFLICT (connection_id, bucket_start) DO UPDATE SET
            sign_ins = provider_connection_health.sign_ins + 1,
            failures = provider_connection_health.failures + EXCLUDED.failures,
            latency_sum_ms = provider_connection_health.latency_sum_ms + EXCLUDED.latency_sum_ms,
            latency_max_ms = GREATEST(provider_connection_health.latency_max_ms, EXCLUDED.latency_max_ms),
            latency_histogram[${p.slot}::int] =
              COALESCE(provider_connection_health.latency_histogram[${p.slot}::int], 0) + 1`,
        ),
    )
    .updateTable("providerConnections as pc")
    .from("conn")
    .set((eb) => {
      const succeeded = eb(eb.cast<number>(eb.val(p.failed), "integer"), "=", 0);
      const failingNow = eb.and([
        eb(eb.cast<number>(eb.val(p.failed), "integer"), "=", 1),
        eb(eb("conn.failureStreak", "+", 1), ">=", eb.cast<number>(eb.val(p.failingAfter), "integer")),
      ]);
      return {
        failureStreak: eb
          .case()
          .when(succeeded)
          .then(0)
          .else(eb("conn.failureStreak", "+", 1))
          .end(),
        lastSuccessAt: eb.case().when(succeeded).then(p.now).else(eb.ref("pc.lastSuccessAt")).end(),
        lastError: eb
          .case()
          .when(failingNow)
          .then(eb.cast<string>(eb.val(p.error), "text"))
          .else(eb.ref("pc.lastError"))
          .end(),
        lastErrorAt: eb.case().when(failingNow).then(p.now).else(eb.ref("pc.lastErrorAt")).end(),
      };
    })
    .whereRef("pc.id", "=", "conn.id")
    .returning([failing("conn").as("wasFailing"), failing("pc").as("isFailing")]),
);

/** Records one sign-in (see health.ts): whether the connection was failing before, and is after. */
export async function recordSignIn(db: Db, values: TSignInValues) {
  const [row] = await RECORD.run(db, values);
  return row;
}

/** The sums of one window (buckets since `since`): sign-ins, failures, the maximum latency, the histogram. */
function windowColumns(
  eb: ExpressionBuilder<DB & { h: DB["providerConnectionHealth"] }, "h">,
  since: Date,
  slots: number,
) {
  const inWindow = (value: Expression<unknown>): RawBuilder<number> =>
    sql<number>`COALESCE(sum(${value}) FILTER (WHERE ${eb.ref("h.bucketStart")} >= ${since}), 0)::int`;
  return {
    signIns: inWindow(eb.ref("h.signIns")),
    failures: inWindow(eb.ref("h.failures")),
    max: sql<
      number | null
    >`max(${eb.ref("h.latencyMaxMs")}) FILTER (WHERE ${eb.ref("h.bucketStart")} >= ${since})`,
    histogram: sql<number[]>`ARRAY[${sql.join(
      Array.from({ length: slots }, (_, i) =>
        inWindow(sql`${eb.ref("h.latencyHistogram")}[${sql.lit(i + 1)}]`),
      ),
    )}]`,
  };
}

/** The windows read for each provider: the last hour's and the last day's sums. */
export function healthReadStatement(slots: number) {
  return prepared(
    "connection_health_read",
    (db, p: { environment: TEnvironment; providerIds: string[]; hourStart: Date; dayStart: Date }) =>
      db
        .selectFrom("providerConnections as c")
        .innerJoin("providerConnectionHealth as h", (join) =>
          join.onRef("h.connectionId", "=", "c.id").on("h.bucketStart", ">=", p.dayStart),
        )
        .select((eb) => {
          const hour = windowColumns(eb, p.hourStart, slots);
          const day = windowColumns(eb, p.dayStart, slots);
          return [
            "c.providerId",
            hour.signIns.as("hourSignIns"),
            hour.failures.as("hourFailures"),
            hour.max.as("hourMax"),
            hour.histogram.as("hourHistogram"),
            day.signIns.as("daySignIns"),
            day.failures.as("dayFailures"),
            day.max.as("dayMax"),
            day.histogram.as("dayHistogram"),
          ];
        })
        .where("c.environment", "=", p.environment)
        .where("c.providerId", "=", sql<string>`any(${p.providerIds}::text[])`)
        .groupBy("c.providerId"),
  );
}

const PURGE = prepared("connection_health_purge", (db, p: { before: Date }) =>
  db
    .deleteFrom("providerConnectionHealth")
    .where("bucketStart", "<", p.before)
    .returning(sql.lit(1).as("deleted")),
);

/** Deletes the buckets that started before `before`; how many went. */
export async function deleteHealthBefore(db: Db, before: Date): Promise<number> {
  return (await PURGE.run(db, { before })).length;
}
