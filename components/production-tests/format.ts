/** Production tests in plain words: the state of an item, platforms, shares. */
import type { BadgeTone } from "@/components/ui/badge";
import type { TProductionTestItem } from "./queries";

export const PLATFORM_LABELS: Record<string, string> = {
  none: "No preference",
  any: "Any platform",
  web: "Web",
  ios: "iOS",
  android: "Android",
};

export type TTestState = "pending" | "failed" | "active" | "completed" | "expired";

/**
 * Where a test stands: a request waits for an operator (pending) or was refused (failed); a
 * scheduled one is its challenge, running (active) until every stamp is claimed (completed) or
 * its end date passes (expired).
 */
export function testState(item: TProductionTestItem): TTestState {
  if (item.type === "challenge") {
    if (item.challenge.completedAt) return "completed";
    return item.challenge.isActive ? "active" : "expired";
  }
  return item.request.status === "failed" ? "failed" : "pending";
}

export const STATE_BADGES: Record<TTestState, { label: string; tone: BadgeTone }> = {
  pending: { label: "Pending", tone: "blue" },
  failed: { label: "Failed", tone: "red" },
  active: { label: "Scheduled · running", tone: "green" },
  completed: { label: "Completed", tone: "green" },
  expired: { label: "Expired", tone: "amber" },
};

/** "40%" of claimed against needed, capped at 100 and never NaN. */
export function share(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.min(100, Math.round((part / whole) * 100));
}

export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}
