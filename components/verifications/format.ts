/**
 * Display helpers shared by the console's log pages (verifications, dashboard, audit log, API
 * requests): dates, durations, statuses, levels of assurance and flow types in plain words.
 */
import type { BadgeTone } from "@/components/ui/badge";

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}

const SHORT_DATE_TIME = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});

/** "Nov 23, 12:51:43 AM" for table cells (the full date is in formatDateTime). */
export function formatShortDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.getFullYear() === new Date().getFullYear()
    ? SHORT_DATE_TIME.format(date)
    : DATE_TIME.format(date);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE.format(date);
}

/** "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const s = Math.max(0, Math.round(seconds));
  if (s < 1) return "under 1 s";
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** Seconds between two ISO times, or null when either is missing. */
export function secondsBetween(
  from: string | null | undefined,
  to: string | null | undefined,
): number | null {
  if (!from || !to) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** "awaiting_user_action" → "Awaiting user action". */
export function humanize(value: string): string {
  const words = value.replace(/[_.]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const STATUS_LABELS: Record<string, string> = {
  created: "Created",
  awaiting_user_action: "Awaiting user",
  authenticating: "Authenticating",
  processing: "Processing",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  expired: "Expired",
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? humanize(status);
}

const LOA_LABELS: Record<number, string> = { 0: "Unspecified", 1: "Low", 2: "Substantial", 3: "High" };

export function loaLabel(loa: number | null | undefined): string {
  if (loa === null || loa === undefined) return "—";
  return LOA_LABELS[loa] ?? String(loa);
}

const FLOW_LABELS: Record<string, string> = {
  qr: "QR code",
  redirect: "Redirect",
  push: "Push",
  dc: "Digital credential",
};

export function flowLabel(flowType: string): string {
  return FLOW_LABELS[flowType] ?? humanize(flowType);
}

/** The tone of an HTTP status (2xx green, 3xx gray, 4xx amber, 5xx red). */
export function httpTone(status: number | null | undefined): BadgeTone {
  if (!status) return "gray";
  if (status >= 500) return "red";
  if (status >= 400) return "amber";
  if (status >= 300) return "gray";
  return "green";
}

const CREDENTIAL_LABELS: Record<string, string> = {
  api_key: "API key",
  app: "App credentials",
  session: "Console",
  operator: "Operator",
  none: "None",
};

export function credentialLabel(type: string, name?: string | null): string {
  const kind = CREDENTIAL_LABELS[type] ?? humanize(type);
  return name ? `${kind}: ${name}` : kind;
}

/** A percentage of `part` in `whole`, rounded to a whole number ("—" for an empty whole). */
export function percent(part: number, whole: number): string {
  if (!whole) return "—";
  return `${Math.round((part / whole) * 100)}%`;
}

export interface TProviderOption {
  id: string;
  name: string;
}

/** id → name, falling back to the id for a provider no longer in the catalog. */
export function providerNamer(options: TProviderOption[]): (id: string) => string {
  const names = new Map(options.map((o) => [o.id, o.name]));
  return (id) => names.get(id) ?? id;
}
