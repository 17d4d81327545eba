/**
 * The back-office's reads: query keys and shapes of the Operator API's activation endpoints
 * (the types are the API's own, inferred from lib/activation/schema.ts).
 */
import { useEffect, useState } from "react";
import type { TEnv } from "@/components/console/api";
import type { TQueueTicketJson, TTicketDetailJson } from "@/lib/activation/schema";
import type { TPage } from "@/lib/http/pagination";

export type TQueueTicket = TQueueTicketJson;
export type TTicketDetail = TTicketDetailJson;

export type TQueuePage = TPage<TQueueTicket>;

export interface TQueueFilters {
  status: string;
  providerId: string;
}

export const operatorKeys = {
  all: (env: TEnv) => ["operator", env] as const,
  activations: (env: TEnv) => ["operator", env, "activations"] as const,
  queue: (env: TEnv, filters: TQueueFilters, offset: number) =>
    ["operator", env, "activations", "queue", filters, offset] as const,
  ticket: (env: TEnv, ticketId: string) => ["operator", env, "activations", "ticket", ticketId] as const,
};

export const STATUS_OPTIONS = [
  { value: "activation_requested", label: "Requested" },
  { value: "activation_processing", label: "Under review" },
  { value: "rejected", label: "Rejected" },
  { value: "activated", label: "Activated" },
] as const;

export const DEFAULT_STATUS = "activation_requested";

export function statusLabel(status: string): string {
  return STATUS_OPTIONS.find((o) => o.value === status)?.label ?? status;
}

export function queueQuery(filters: TQueueFilters, offset: number, limit: number) {
  return {
    status: filters.status || DEFAULT_STATUS,
    providerId: filters.providerId || undefined,
    limit,
    offset,
  };
}

/** "3 h 12 min", "2 d 4 h", "45 s": how long a ticket has waited. */
export function formatWaiting(fromIso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - new Date(fromIso).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** The current time, ticking every 30 seconds (waiting times stay true while the page is open). */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** Single-key shortcuts, ignored while typing in a field or with a modifier held. */
export function useShortcuts(handlers: Record<string, (() => void) | undefined>): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true], dialog[open]")) return;
      // Enter on a focused link or button is that control's own
      if (e.key === "Enter" && target?.closest("a, button")) return;
      const handler = handlers[e.key];
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [handlers]);
}
