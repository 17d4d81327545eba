/**
 * Verification statistics of a workspace and environment (console dashboard).
 * Rules:
 * - computed by PostgreSQL in one statement over the sessions created in the period (index
 *   ranges of verifications(workspace_id, environment, created_at)); no session rows are loaded;
 * - OpenID Provider sessions no end-user has acted on (`untouched`, lib/verifications/create.ts)
 *   are not counted: anonymous /auth requests change no figure;
 * - every figure counts the sessions created in the period (a cohort), by their status now:
 *   a bucket's `completed` is the sessions created in that bucket that have completed since;
 * - buckets are UTC: 24h → 24 hours ending with the current one ("YYYY-MM-DDTHH:00"),
 *   7d / 30d → 7 / 30 days ending with today ("YYYY-MM-DD"); empty buckets are listed with zeros;
 * - `open` counts sessions not yet terminal; the funnel counts sessions that reached each step
 *   (startedAt / authenticatedAt stamps, then completed);
 * - medianSecondsToComplete: median of verifiedAt − createdAt of the provider's completed sessions,
 *   to the second;
 * - day buckets (7d, 30d) of settled days are read from the per-day rollup
 *   (verification_daily_stats, lib/stats/rollup.ts) when it has them, the rest is scanned live; the
 *   answer is the same as the all-live computation (counts add up, second histograms merge).
 */
import type { RawBuilder } from "kysely";
import type { z } from "zod";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/client";
import { sessionTtlSeconds } from "../verifications/settings";
import type { TStatsPeriod, TVerificationStats, ZStatsCountsJson } from "./endpoints";
import {
  readVerificationStats,
  verificationStatsQuery,
  type TStatsBuckets,
  type TStatsRow,
} from "./store/stats";

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

const PERIODS: Record<TStatsPeriod, { unit: "hour" | "day"; buckets: number }> = {
  "24h": { unit: "hour", buckets: 24 },
  "7d": { unit: "day", buckets: 7 },
  "30d": { unit: "day", buckets: 30 },
};

export interface TStatsWindow {
  period: TStatsPeriod;
  unit: "hour" | "day";
  from: Date;
  to: Date;
  /** bucket labels, oldest first */
  labels: string[];
}

function label(date: Date, unit: "hour" | "day"): string {
  const iso = date.toISOString();
  return unit === "hour" ? `${iso.slice(0, 13)}:00` : iso.slice(0, 10);
}

export function statsWindow(period: TStatsPeriod, now = new Date()): TStatsWindow {
  const { unit, buckets } = PERIODS[period];
  const step = unit === "hour" ? HOUR_MS : DAY_MS;
  const current = Math.floor(now.getTime() / step) * step;
  const from = new Date(current - (buckets - 1) * step);
  const labels = Array.from({ length: buckets }, (_, i) => label(new Date(from.getTime() + i * step), unit));
  return { period, unit, from, to: now, labels };
}

/** The UTC day (YYYY-MM-DD) of a date. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Days before the returned UTC midnight are "settled": they ended more than the session TTL
 * plus an hour (at least 2 hours) ago, so no session is created on them any more and every
 * session created on them has reached its expiry. Only settled days are rolled up, and only
 * their rollup rows are read.
 */
export function settledBefore(now = new Date()): Date {
  const margin = Math.max(2 * HOUR_MS, (sessionTtlSeconds() + 3600) * 1000);
  return new Date(Math.floor((now.getTime() - margin) / DAY_MS) * DAY_MS);
}

export type TStatsCounts = z.infer<typeof ZStatsCountsJson>;

/** The buckets of `window` as the statement takes them (lib/stats/store/stats.ts). */
function bucketsOf(window: TStatsWindow): TStatsBuckets {
  return {
    unit: window.unit,
    from: window.from,
    count: window.labels.length,
    fromDay: utcDay(window.from),
    settledDay: utcDay(settledBefore(window.to)),
  };
}

/**
 * The one statement behind GET /v1/stats/verifications (the benchmark's EXPLAIN), built by
 * lib/stats/store/stats.ts; `useRollup: false` scans everything live (the benchmark's and the tests'
 * reference).
 */
export function verificationStatsSql(
  scope: Pick<WorkspaceAuth, "workspaceId" | "environment">,
  window: TStatsWindow,
  appId?: string,
  { useRollup = true }: { useRollup?: boolean } = {},
): RawBuilder<TStatsRow> {
  return verificationStatsQuery(scope, bucketsOf(window), appId, useRollup);
}

function counts(row: TStatsRow | undefined): TStatsCounts {
  return {
    created: row?.created ?? 0,
    completed: row?.completed ?? 0,
    failed: row?.failed ?? 0,
    cancelled: row?.cancelled ?? 0,
    expired: row?.expired ?? 0,
  };
}

export async function getVerificationStats(
  db: Db,
  scope: Pick<WorkspaceAuth, "workspaceId" | "environment">,
  query: { period: TStatsPeriod; appId?: string },
  now = new Date(),
  { useRollup = true }: { useRollup?: boolean } = {},
): Promise<TVerificationStats> {
  const window = statsWindow(query.period, now);
  const rows = await readVerificationStats(db, scope, bucketsOf(window), query.appId, useRollup);
  const byBucket = new Map(rows.filter((r) => r.grouping === 1).map((r) => [Number(r.bucket), r]));
  const total = rows.find((r) => r.grouping === 3);
  const totals = counts(total);
  return {
    period: window.period,
    bucket: window.unit,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    days: window.labels.map((date, i) => ({ date, ...counts(byBucket.get(i)) })),
    providers: rows
      .filter((r) => r.grouping === 2 && r.providerId !== null)
      .map((r) => ({
        providerId: r.providerId!,
        total: r.created,
        completed: r.completed,
        completionRate: r.created === 0 ? 0 : r.completed / r.created,
        medianSecondsToComplete: r.medianSeconds === null ? null : Number(r.medianSeconds),
      }))
      .sort((a, b) => b.total - a.total || a.providerId.localeCompare(b.providerId)),
    funnel: {
      created: totals.created,
      started: total?.started ?? 0,
      authenticated: total?.authenticated ?? 0,
      completed: totals.completed,
    },
    totals: {
      ...totals,
      open: totals.created - totals.completed - totals.failed - totals.cancelled - totals.expired,
    },
  };
}
