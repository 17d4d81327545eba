/**
 * The workspaces overview's reads: query keys and shapes of `GET /v1/operator/workspaces` and
 * `GET /v1/operator/workspaces/{workspace_id}` (the API's own types, from lib/operators/api.ts),
 * and how their figures are put into words.
 */
import type { TEnv } from "@/components/console/api";
import type { TWorkspaceDetailJson, TWorkspaceSummaryJson } from "@/lib/operators/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TWorkspaceSummary = TWorkspaceSummaryJson;
export type TWorkspaceDetail = TWorkspaceDetailJson;

export type TWorkspacePage = TPage<TWorkspaceSummary>;

export const workspaceKeys = {
  all: (env: TEnv) => ["operator", env, "workspaces"] as const,
  list: (env: TEnv, search: string, offset: number, limit: number) =>
    [...workspaceKeys.all(env), "list", { search, offset, limit }] as const,
  detail: (env: TEnv, workspaceId: string) => [...workspaceKeys.all(env), "detail", workspaceId] as const,
};

export const ENV_LABELS: Record<TEnv, string> = { sandbox: "Sandbox", production: "Production" };

/** "2.5%" (one decimal below 10 %), "—" when there was no delivery. */
export function formatFailureRate(rate: number | null): string {
  if (rate === null) return "—";
  const pct = rate * 100;
  return `${pct > 0 && pct < 10 ? pct.toFixed(1) : Math.round(pct)}%`;
}

/** "no deliveries", "3 of 40 failed"; with `noun` "deliveries": "3 of 40 deliveries failed". */
export function failedDeliveries(
  { deliveries, dead }: { deliveries: number; dead: number },
  noun?: string,
): string {
  if (deliveries === 0) return "no deliveries";
  return `${dead} of ${deliveries}${noun ? ` ${noun}` : ""} failed`;
}

/** Any failed delivery is worth a look; more than 5 % is a problem. */
export function failureTone(rate: number | null): "gray" | "amber" | "red" | "green" {
  if (rate === null) return "gray";
  if (rate > 0.05) return "red";
  if (rate > 0) return "amber";
  return "green";
}

export const ROLE_LABELS: Record<string, string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  viewer: "Viewer",
};

export const PROVIDER_STATUS_LABELS: Record<string, string> = {
  not_activated: "Not activated",
  activation_requested: "Requested",
  activation_processing: "Under review",
  rejected: "Rejected",
  activated: "Activated",
};

export const DOMAIN_STATUS_LABELS: Record<string, string> = {
  unconfigured: "None",
  awaiting_dns: "Awaiting DNS",
  verifying: "Verifying",
  active: "Active",
  invalid: "Invalid",
};
