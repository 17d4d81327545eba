/**
 * The back-office's connection reads: query keys and shapes of the Operator API's connections
 * (the types are the API's own, inferred from lib/connections), the words for their states, and
 * the channel a test sign-in's result tab hands its claims back on.
 */
import type { TEnv } from "@/components/console/api";
import type { BadgeTone } from "@/components/ui/badge";
import type { TConnectionCheckJson, TConnectionJson } from "@/lib/connections/schema";
import type { TConnectionSchemasJson } from "@/lib/connections/settings-schema";
import type { TTestSignInResult } from "@/lib/connections/test-sign-in-cookies";

export type TConnection = TConnectionJson;
export type TConnectionCheck = TConnectionCheckJson;
export type TConnectionSchemas = TConnectionSchemasJson;
export type TTestResult = TTestSignInResult;

export const connectionKeys = {
  all: (env: TEnv) => ["operator", env, "connections"] as const,
  list: (env: TEnv) => ["operator", env, "connections", "list"] as const,
  detail: (env: TEnv, providerId: string) => ["operator", env, "connections", "detail", providerId] as const,
  schemas: (env: TEnv) => ["operator", env, "connections", "schemas"] as const,
};

export const connectionPath = (providerId: string, action?: "check" | "test-sign-in") =>
  `/v1/operator/connections/${encodeURIComponent(providerId)}${action ? `/${action}` : ""}`;

export const STATE_BADGES: Record<TConnection["state"], { label: string; tone: BadgeTone }> = {
  connected: { label: "Connected", tone: "green" },
  failing: { label: "Failing", tone: "red" },
  disabled: { label: "Disabled", tone: "gray" },
  not_connected: { label: "Not connected", tone: "amber" },
};

/** The health figures of a connection (issue 24 §4), when the API reports them. */
export interface THealthWindow {
  signIns: number;
  failures: number;
  errorRate: number | null;
  medianLatencyMs?: number | null;
  maxLatencyMs?: number | null;
}

export function healthOf(c: TConnection): { lastHour?: THealthWindow; lastDay?: THealthWindow } | undefined {
  const health = (c as { health?: unknown }).health;
  return health && typeof health === "object"
    ? (health as { lastHour?: THealthWindow; lastDay?: THealthWindow })
    : undefined;
}

/** "12.5 % of 8", or "—" when there is nothing to show. */
export function errorRateText(w: THealthWindow | undefined): string {
  if (!w || !w.signIns) return "—";
  const rate = w.errorRate ?? w.failures / w.signIns;
  return `${(Math.round(rate * 1000) / 10).toLocaleString("en")} % of ${w.signIns.toLocaleString("en")}`;
}

/** The BroadcastChannel a test sign-in's result tab announces its claims on (same origin only). */
export const TEST_SIGN_IN_CHANNEL = "idv-connection-test-sign-in";

export interface TTestSignInMessage {
  type: "test-sign-in-result";
  env: TEnv;
  providerId: string;
  result: TTestResult;
}

export function isTestSignInMessage(data: unknown): data is TTestSignInMessage {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as { type?: unknown }).type === "test-sign-in-result" &&
    typeof (data as { providerId?: unknown }).providerId === "string"
  );
}
