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
import { observeUpstream } from "../metrics/count";
import { publishInvalidation } from "../cache/publish";
import { CACHE_TOPICS } from "../cache/topics";
import { kysely, type Db } from "../db/client";
import type { TEnvironment } from "../environments";
import { logger } from "../log";
import { connectionCacheKey, type THealthWindow, type TConnectionHealth } from "./schema";
import { deleteHealthBefore, healthReadStatement, recordSignIn } from "./store/health";

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
  observeUpstream(providerId, outcome.ok, Math.max(outcome.latencyMs, 0) / 1000);
  try {
    const latency = Math.min(Math.max(Math.round(outcome.latencyMs), 0), 2_147_483_647);
    const slot = latencySlot(latency);
    const histogram = Array.from({ length: SLOTS }, (_, i) => (i + 1 === slot ? 1 : 0));
    const error = outcome.ok ? null : (outcome.error ?? "upstream error").slice(0, MAX_ERROR_LENGTH);
    const db = kysely();
    const state = await recordSignIn(db, {
      environment: env,
      providerId,
      bucket: bucketStart(now),
      failed: outcome.ok ? 0 : 1,
      latencyMs: latency,
      slot,
      histogram,
      error,
      now,
      failingAfter: FAILING_AFTER,
    });
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

// the windows' sums, one statement for any number of providers (lib/connections/store/health.ts)
const READ = healthReadStatement(SLOTS);

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

function windowOf(signIns: number, failures: number, max: number | null, histogram: number[]): THealthWindow {
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
  db: Db,
  env: TEnvironment,
  providerIds: readonly string[],
  now = new Date(),
): Promise<Map<string, TConnectionHealth>> {
  const current = bucketStart(now).getTime();
  const rows = await READ.run(db, {
    environment: env,
    providerIds: [...providerIds],
    hourStart: new Date(current - (HOUR_BUCKETS - 1) * BUCKET_MS),
    dayStart: new Date(current - (DAY_BUCKETS - 1) * BUCKET_MS),
  });
  return new Map(
    rows.map((r) => [
      r.providerId,
      {
        lastHour: windowOf(r.hourSignIns, r.hourFailures, r.hourMax, r.hourHistogram),
        lastDay: windowOf(r.daySignIns, r.dayFailures, r.dayMax, r.dayHistogram),
      },
    ]),
  );
}

/** Deletes buckets older than HEALTH_RETENTION_MS; how many went. */
export async function purgeConnectionHealth(db: Db, now = new Date()): Promise<number> {
  return deleteHealthBefore(db, new Date(now.getTime() - HEALTH_RETENTION_MS));
}
