/**
 * Query filters shared by the console's log endpoints (verifications, audit events, request
 * logs). Rules:
 * - `from` / `to` are ISO 8601: a date (`2026-01-31`, UTC) or a date-time with `Z` or an offset;
 *   `from` is inclusive, `to` exclusive — a date-only `to` includes that whole day;
 * - `from` after `to` is 400 naming `to`; every bad value is 400 VALIDATION_ERROR naming the field;
 * - a `+` of an offset that arrives as a space (an unencoded query string) is read as `+`.
 */
import { z } from "zod";

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const DAY_MS = 24 * 3600 * 1000;

function parseIsoParam(raw: string, end: boolean): Date | undefined {
  const value = raw.trim().replace(/ (\d{2}:?\d{2})$/, "+$1");
  const day = DATE_ONLY.exec(value);
  if (day) {
    const ms = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    const date = new Date(ms);
    // 2026-02-30 would roll over into March: refuse it
    if (date.getUTCDate() !== Number(day[3])) return undefined;
    return end ? new Date(ms + DAY_MS) : date;
  }
  if (!DATE_TIME.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

const ISO_MESSAGE =
  "must be an ISO 8601 date (2026-01-31) or date-time with a time zone (2026-01-31T12:00:00Z)";

function dateParam(end: boolean) {
  return z
    .string()
    .transform((raw, ctx) => {
      const date = parseIsoParam(raw, end);
      if (!date) {
        ctx.addIssue({ code: "custom", message: ISO_MESSAGE, input: raw });
        return z.NEVER;
      }
      return date;
    })
    .optional();
}

/** `from` (inclusive) and `to` (exclusive; a date-only `to` includes its day). */
export const dateRangeFields = {
  from: dateParam(false).describe(`Inclusive lower bound of createdAt; ${ISO_MESSAGE}`),
  to: dateParam(true).describe(
    "Exclusive upper bound of createdAt (a date-only value includes that whole day, UTC)",
  ),
};

/** Refinement for a query object with dateRangeFields: `from` must not be after `to`. */
export function checkDateRange(query: { from?: Date; to?: Date }, ctx: z.RefinementCtx): void {
  if (query.from && query.to && query.from > query.to) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  }
}

/** The createdAt bounds of a list filter (`gte` from, `lt` to), or nothing. */
export function createdAtRange(query: { from?: Date; to?: Date }): { createdAt?: { gte?: Date; lt?: Date } } {
  if (!query.from && !query.to) return {};
  return {
    createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) },
  };
}

/** A short identifier filter (providerId, appId, actorId …). */
export function idParam(max = 128) {
  return z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
}
