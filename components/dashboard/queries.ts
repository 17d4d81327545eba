/** Query keys and types of the Dashboard (verification statistics). */
import type { TEnv } from "@/components/console/api";
import type { TStatsPeriod, TVerificationStats } from "@/lib/stats/endpoints";

export type { TStatsPeriod, TVerificationStats };

export const statsKeys = {
  all: (env: TEnv) => ["stats", env] as const,
  verifications: (env: TEnv, params: { period: TStatsPeriod; appId: string }) =>
    [...statsKeys.all(env), "verifications", params] as const,
};

/** The first-run checklist (workspace-wide: the same answer in both environments). */
export const checklistKeys = {
  all: ["checklist"] as const,
  workspace: (workspaceId: string) => [...checklistKeys.all, workspaceId] as const,
};
