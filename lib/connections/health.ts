/**
 * The health of a connection (issue 24 §4): what its sign-ins did, per 5-minute bucket, and
 * whether its upstream fails repeatedly (`failing`).
 * Rules:
 * - a sign-in that reached the upstream exchange is recorded once, with its latency (the
 *   exchange's duration: code redemption and userinfo, a presentation's verification) and
 *   whether it failed for an upstream fault; a person cancelling or failing authentication is
 *   not recorded (the caller decides: lib/verifications/upstream-faults.ts). Counts and
 *   milliseconds only: no personal data, no ids of people or sessions;
 * - one statement per sign-in, on the process's client (never the session's transaction): the
 *   bucket's upsert (sign-ins, failures, latency sum, maximum and a histogram of fixed bounds)
 *   and the connection's streak of failures in a row. A success resets the streak and sets
 *   `lastSuccessAt` (the connection is no longer failing); the FAILING_AFTER-th failure in a row,
 *   and every one after it, sets `lastError`/`lastErrorAt`, which makes the connection `failing`
 *   (service.ts connectionState) and unavailable (runtime.ts); a change of state publishes the
 *   runtime cache's invalidation. A recording that fails is logged, never the sign-in's failure;
 * - read back for the last hour (the current bucket and the 11 before) and the last day (288
 *   buckets) in one statement for any number of providers; the median latency is estimated
 *   from the histogram (linear within its bucket), the maximum is exact;
 * - a failing connection gets no sign-ins (it is not offered), so the job
 *   `connection_recheck` (every 5 minutes) runs the connection's check on each failing one: a
 *   check that passes clears it (recordConnectionOutcome); buckets older than two days go too.
 */
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import { getDb, type Tx } from "../db/client";
import { column, defineCommand, defineStatement, execute, utcParam, type TRow } from "../db/sql";
import { runStatement } from "../db/statement";
import type { TEnvironment } from "../environments";
import { logger } from "../log";
import { connectionCacheKey, type THealthWindow, type TConnectionHealth } from "./schema";

/** The length of a bucket. */
export const BUCKET_MS = 5 * 60_000;
/** Upstream faults in a row that make a connection `failing`. */
export const FAILING_AFTER = 3;
/** How long buckets are kept. */
export const HEALTH_RETENTION_MS = 2 * 24 * 3600_000;
/** Upper bounds (ms) of the latency histogram's buckets; one more, open-ended, follows. */
export const LATENCY_BOUNDS_MS = [50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000] as const;
const SLOTS = LATENCY_BOUNDS_MS.length + 1;
const MAX_ERROR_LENGTH = 500;

export interface TSignInOutcome {
  /** false: the sign-in failed for an upstream fault */
  ok: boolean;
  latencyMs: number;
  /** the fault, for operators (the connection's lastError): never personal data */
  error?: string;
}

/** The start of the bucket `at` falls in. */
export function bucketStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / BUCKET_MS) * BUCKET_MS);
}

/** The histogram slot (1-based, as PostgreSQL arrays) of a latency. */
export function latencySlot(latencyMs: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
  return (index === -1 ? LATENCY_BOUNDS_MS.length : index) + 1;
}

const FAILING = (t: string) =>
  `(${t}.last_error_at IS NOT NULL AND (${t}.last_success_at IS NULL OR ${t}.last_error_at > ${t}.last_success_at))`;

const RECORD = defineStatement<
  [
    environment: string,
    providerId: string,
    bucket: Date,
    failed: number,
    latencyMs: number,
    slot: number,
    histogram: number[],
    error: string | null,
    now: Date,
    failingAfter: number,
  ],
  { wasFailing: boolean; isFailing: boolean }
>({
  name: "connection_health_record",
  // the connection row is locked first (its streak is read and written in the same statement)
  text: `WITH conn AS (
      SELECT id, failure_streak, last_error_at, last_success_at FROM provider_connections
       WHERE environment = $1::text::"Environment" AND provider_id = $2::text FOR UPDATE),
    bucket AS (
      INSERT INTO provider_connection_health AS h
          (connection_id, bucket_start, sign_ins, failures, latency_sum_ms, latency_max_ms, latency_histogram)
        SELECT conn.id, ${utcParam(3)}, 1, $4::int, $5::int, $5::int, $7::int[] FROM conn
      ON CONFLICT (connection_id, bucket_start) DO UPDATE SET
        sign_ins = h.sign_ins + 1,
        failures = h.failures + EXCLUDED.failures,
        latency_sum_ms = h.latency_sum_ms + EXCLUDED.latency_sum_ms,
        latency_max_ms = GREATEST(h.latency_max_ms, EXCLUDED.latency_max_ms),
        latency_histogram[$6::int] = COALESCE(h.latency_histogram[$6::int], 0) + 1
      RETURNING 1)
    UPDATE provider_connections pc SET
        failure_streak = CASE WHEN $4::int = 0 THEN 0 ELSE conn.failure_streak + 1 END,
        last_success_at = CASE WHEN $4::int = 0 THEN ${utcParam(9)} ELSE pc.last_success_at END,
        last_error = CASE WHEN $4::int = 1 AND conn.failure_streak + 1 >= $10::int
          THEN $8::text ELSE pc.last_error END,
        last_error_at = CASE WHEN $4::int = 1 AND conn.failure_streak + 1 >= $10::int
          THEN ${utcParam(9)} ELSE pc.last_error_at END
      FROM conn WHERE pc.id = conn.id
    RETURNING ${FAILING("conn")} AS was_failing, ${FAILING("pc")} AS is_failing`,
  parse: (row) => ({
    wasFailing: column.boolean(row, "was_failing"),
    isFailing: column.boolean(row, "is_failing"),
  }),
});

/**
 * Records one sign-in of `providerId`'s connection in `env` (see the module rules). Never throws:
 * a failure to record is logged.
 */
export async function recordConnectionSignIn(
  env: TEnvironment,
  providerId: string,
  outcome: TSignInOutcome,
  now = new Date(),
): Promise<void> {
  try {
    const latency = Math.min(Math.max(Math.round(outcome.latencyMs), 0), 2_147_483_647);
    const slot = latencySlot(latency);
    const histogram = Array.from({ length: SLOTS }, (_, i) => (i + 1 === slot ? 1 : 0));
    const error = outcome.ok ? null : (outcome.error ?? "upstream error").slice(0, MAX_ERROR_LENGTH);
    const db = getDb();
    const [state] = await runStatement(db, RECORD, [
      env,
      providerId,
      bucketStart(now),
      outcome.ok ? 0 : 1,
      latency,
      slot,
      histogram,
      error,
      now,
      FAILING_AFTER,
    ]);
    if (state && state.wasFailing !== state.isFailing) {
      // committed already (one statement on the client): the notification goes out at once
      await publishInvalidation(db, CACHE_TOPICS.connections, connectionCacheKey(env, providerId));
      logger.warn(
        { environment: env, providerId, state: state.isFailing ? "failing" : "connected" },
        state.isFailing
          ? `connection failing after ${FAILING_AFTER} upstream failures in a row; not offered until it recovers`
          : "connection recovered: a sign-in succeeded",
      );
    }
  } catch (err) {
    logger.error({ err, environment: env, providerId }, "connection health not recorded");
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

const HOUR_BUCKETS = 12;
const DAY_BUCKETS = 288;

function windowColumns(prefix: string, since: string): string {
  const f = `FILTER (WHERE h.bucket_start >= ${since})`;
  const slots = Array.from(
    { length: SLOTS },
    (_, i) => `COALESCE(sum(h.latency_histogram[${i + 1}]) ${f}, 0)::int AS ${prefix}_h${i + 1}`,
  );
  return [
    `COALESCE(sum(h.sign_ins) ${f}, 0)::int AS ${prefix}_sign_ins`,
    `COALESCE(sum(h.failures) ${f}, 0)::int AS ${prefix}_failures`,
    `max(h.latency_max_ms) ${f} AS ${prefix}_max`,
    ...slots,
  ].join(",\n      ");
}

const READ = defineStatement<
  [environment: string, providerIds: string[], hourStart: Date, dayStart: Date],
  { providerId: string; health: TConnectionHealth }
>({
  name: "connection_health_read",
  text: `SELECT c.provider_id,
      ${windowColumns("hour", utcParam(3))},
      ${windowColumns("day", utcParam(4))}
    FROM provider_connections c
    JOIN provider_connection_health h ON h.connection_id = c.id AND h.bucket_start >= ${utcParam(4)}
    WHERE c.environment = $1::text::"Environment" AND c.provider_id = ANY ($2::text[])
    GROUP BY c.provider_id`,
  parse: (row) => ({
    providerId: column.text(row, "provider_id"),
    health: { lastHour: windowOf(row, "hour"), lastDay: windowOf(row, "day") },
  }),
});

/** The median of a latency histogram, estimated linearly within its bucket (at most `max`). */
export function medianOf(histogram: readonly number[], max: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const half = total / 2;
  let before = 0;
  for (let i = 0; i < histogram.length; i++) {
    const count = histogram[i]!;
    if (count > 0 && before + count >= half) {
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1]!;
      const upper = Math.min(LATENCY_BOUNDS_MS[i] ?? max, max);
      if (upper <= lower) return Math.min(lower, max);
      return Math.round(lower + ((half - before) / count) * (upper - lower));
    }
    before += count;
  }
  return max;
}

function windowOf(row: TRow, prefix: string): THealthWindow {
  const signIns = column.int(row, `${prefix}_sign_ins`);
  const failures = column.int(row, `${prefix}_failures`);
  const max = column.intOrNull(row, `${prefix}_max`);
  const histogram = Array.from({ length: SLOTS }, (_, i) => column.int(row, `${prefix}_h${i + 1}`));
  return {
    signIns,
    failures,
    errorRate: signIns === 0 ? null : Math.round((failures / signIns) * 10_000) / 10_000,
    medianLatencyMs: signIns === 0 || max === null ? null : medianOf(histogram, max),
    maxLatencyMs: signIns === 0 ? null : max,
  };
}

const NO_SIGN_INS: THealthWindow = {
  signIns: 0,
  failures: 0,
  errorRate: null,
  medianLatencyMs: null,
  maxLatencyMs: null,
};

/** The health of a provider without recorded sign-ins (or without a connection). */
export const NO_HEALTH: TConnectionHealth = { lastHour: NO_SIGN_INS, lastDay: NO_SIGN_INS };

/** The health of the connections of `providerIds` in `env` (one statement), by provider id. */
export async function connectionHealth(
  db: Tx,
  env: TEnvironment,
  providerIds: readonly string[],
  now = new Date(),
): Promise<Map<string, TConnectionHealth>> {
  const current = bucketStart(now).getTime();
  const rows = await runStatement(db, READ, [
    env,
    [...providerIds],
    new Date(current - (HOUR_BUCKETS - 1) * BUCKET_MS),
    new Date(current - (DAY_BUCKETS - 1) * BUCKET_MS),
  ]);
  return new Map(rows.map((r) => [r.providerId, r.health]));
}

const PURGE = defineCommand<[before: Date]>({
  name: "connection_health_purge",
  text: `DELETE FROM provider_connection_health WHERE bucket_start < ${utcParam(1)}`,
});

/** Deletes buckets older than HEALTH_RETENTION_MS; how many went. */
export async function purgeConnectionHealth(db: Tx, now = new Date()): Promise<number> {
  return execute(db, PURGE, [new Date(now.getTime() - HEALTH_RETENTION_MS)]);
}
