/** Wording of webhook deliveries shared by the log, the detail and the test-event answer. */
import type { BadgeTone } from "@/components/ui/badge";
import type { TDeliveryStatus } from "./queries";

export const DELIVERY_STATUS_LABEL: Record<TDeliveryStatus, string> = {
  pending: "Pending",
  succeeded: "Delivered",
  dead: "Failed",
};

export const DELIVERY_STATUS_TONE: Record<TDeliveryStatus, BadgeTone> = {
  pending: "blue",
  succeeded: "green",
  dead: "red",
};

/** "35 ms", "1.2 s", "12 s" */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/** The JSON body formatted for reading; the raw text when it is not JSON. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** How much of a receiver's answer the service keeps (lib/webhooks/dispatch/request.ts), in words. */
export const MAX_RESPONSE_BODY_TEXT = "4 KB";
