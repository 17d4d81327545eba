/**
 * The back-office's production-test reads and writes: query keys, shapes (the Operator API's own,
 * inferred from lib/production-tests and lib/operators) and the schedule body the form builds.
 */
import { ApiRequestError, type TEnv } from "@/components/console/api";
import type { TParticipationJson, TProductionTestDetailJson } from "@/lib/operators/endpoints";
import type { TOperatorItemJson } from "@/lib/production-tests/serialize";
import type { TPage } from "@/lib/http/pagination";

export type TOperatorItem = TOperatorItemJson;
export type TRequestDetail = TProductionTestDetailJson;
export type TParticipation = TParticipationJson;
export type TRequestStatus = TOperatorItem["request"]["status"];

export type TOperatorItemPage = TPage<TOperatorItem>;

export interface TRequestFilters {
  status: string;
  clientId: string;
}

export const productionTestOperatorKeys = {
  all: (env: TEnv) => ["operator", env, "production-tests"] as const,
  list: (env: TEnv, filters: TRequestFilters, offset: number) =>
    ["operator", env, "production-tests", "list", filters, offset] as const,
  detail: (env: TEnv, requestId: string, claimed: string, offset: number) =>
    ["operator", env, "production-tests", "detail", requestId, claimed, offset] as const,
};

export const REQUEST_STATUS_OPTIONS = [
  { value: "pending", label: "Pending" },
  { value: "scheduled", label: "Scheduled" },
  { value: "failed", label: "Failed" },
] as const;

export const DEFAULT_REQUEST_STATUS = "pending";

/** Same limits as lib/production-tests/schema.ts (kept here so the client bundle stays small). */
export const DESCRIPTION_MAX = 2000;
export const FAILURE_REASON_MAX = 500;
export const MAX_SOURCES = 50;
export const DEFAULT_CHALLENGE_DAYS = 14;
export const MAX_CHALLENGE_DAYS = 365;

/** The API's answer when a request is no longer pending (another operator decided first). */
export const NOT_PENDING = "PRODUCTION_TEST_NOT_PENDING";

export function isNotPending(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === NOT_PENDING;
}

export const requestPath = (requestId: string, action?: "schedule" | "fail") =>
  `/v1/operator/production-tests/${encodeURIComponent(requestId)}${action ? `/${action}` : ""}`;

export function requestHref(env: TEnv, requestId: string): string {
  return `/operator/${env}/production-tests/${encodeURIComponent(requestId)}`;
}

export interface TScheduleDraft {
  /** datetime-local value (the operator's time zone); empty: the default end */
  expiresAt: string;
  description: string;
  /** JSON text; empty: none */
  sponsor: string;
  /** JSON array text; empty: none */
  sources: string;
}

export const EMPTY_SCHEDULE: TScheduleDraft = { expiresAt: "", description: "", sponsor: "", sources: "" };

/**
 * The schedule endpoint's body from the form. JSON fields are parsed here: a field that is not
 * JSON (or sources that is not an array) is reported on that field before anything is sent.
 */
export function scheduleBody(
  draft: TScheduleDraft,
):
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; errors: Partial<Record<keyof TScheduleDraft, string>> } {
  const errors: Partial<Record<keyof TScheduleDraft, string>> = {};
  const body: Record<string, unknown> = {};
  if (draft.expiresAt) {
    const at = new Date(draft.expiresAt);
    if (Number.isNaN(at.getTime())) errors.expiresAt = "must be a date and time";
    else body.expiresAt = at.toISOString();
  }
  if (draft.description.trim()) body.description = draft.description.trim();
  if (draft.sponsor.trim()) {
    try {
      body.sponsor = JSON.parse(draft.sponsor);
    } catch {
      errors.sponsor = 'must be JSON, e.g. {"name": "Example Bank"}';
    }
  }
  if (draft.sources.trim()) {
    try {
      const sources: unknown = JSON.parse(draft.sources);
      if (!Array.isArray(sources)) errors.sources = 'must be a JSON array, e.g. ["newsletter"]';
      else body.sources = sources;
    } catch {
      errors.sources = 'must be a JSON array, e.g. ["newsletter"]';
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body };
}

/** A datetime-local value `days` from now, in the browser's time zone (the field's min / max). */
export function localDateTime(days: number, now: number = Date.now()): string {
  const d = new Date(now + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
