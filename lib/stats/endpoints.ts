/** Endpoint definitions of the console's statistics (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { idParam } from "../verifications/log/filters";

/** The windows the statistics cover (verifications.ts: hourly buckets for 24h, daily otherwise). */
export const STATS_PERIODS = ["24h", "7d", "30d"] as const;
export type TStatsPeriod = (typeof STATS_PERIODS)[number];

const iso = z.string().describe("ISO 8601 date-time");
const count = z.number().int().min(0);

export const ZVerificationStatsQuery = z.object({
  period: z
    .enum(STATS_PERIODS, { error: `must be one of: ${STATS_PERIODS.join(", ")}` })
    .default("7d")
    .describe("24h (hour buckets), 7d or 30d (day buckets); default 7d"),
  appId: idParam().optional().describe("clientId of one app; default: every app"),
});

export const ZStatsCountsJson = z.object({
  created: count,
  completed: count,
  failed: count,
  cancelled: count,
  expired: count,
});

export const ZVerificationStatsJson = z.object({
  period: z.enum(STATS_PERIODS),
  bucket: z.enum(["hour", "day"]).describe("What one entry of `days` covers"),
  from: iso.describe("Start of the first bucket (UTC)"),
  to: iso.describe("The time of the query"),
  days: z
    .array(
      ZStatsCountsJson.extend({
        date: z.string().describe('UTC bucket: "YYYY-MM-DD" (7d, 30d) or "YYYY-MM-DDTHH:00" (24h)'),
      }),
    )
    .describe("One entry per bucket, oldest first, zeros included"),
  providers: z
    .array(
      z.object({
        providerId: z.string(),
        total: count,
        completed: count,
        completionRate: z.number().min(0).max(1),
        medianSecondsToComplete: z.number().nullable(),
      }),
    )
    .describe("Providers used in the period, most used first"),
  funnel: z.object({ created: count, started: count, authenticated: count, completed: count }),
  totals: ZStatsCountsJson.extend({
    open: count.describe("Not yet completed, failed, cancelled or expired"),
  }),
});
export type TVerificationStats = z.infer<typeof ZVerificationStatsJson>;

export const getVerificationStats = endpoint({
  method: "GET",
  path: "/v1/stats/verifications",
  operationId: "getVerificationStats",
  summary: "Verification statistics",
  description:
    "Sessions created in the period (UTC buckets ending now) in this environment, by their current status: per bucket, per provider (completion rate, median seconds from creation to verification), the funnel (created → started → authenticated → completed) and totals. `appId` narrows to one app.",
  tag: "Stats",
  auth: "workspace",
  query: ZVerificationStatsQuery,
  responses: { 200: { description: "Statistics", schema: ZVerificationStatsJson } },
});
