/** Query keys, types and shared queries of the Verifications pages (workspace view of sessions). */
import { useQuery } from "@tanstack/react-query";
import { api, type TEnv } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { appKeys, type TAppPage } from "@/components/apps/queries";
import type { TVerificationActivityJson, TVerificationListItemJson } from "@/lib/verifications/log/endpoints";
import type { TUserinfo } from "@/lib/verifications/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TVerificationListItem = TVerificationListItemJson;
export type TVerificationActivity = TVerificationActivityJson;
export type TTimelineRequest = TVerificationActivity["requests"][number];
export type TTimelineEvent = TVerificationActivity["events"][number];
export type TTimelineDelivery = TVerificationActivity["deliveries"][number];
export type { TUserinfo };

export type TVerificationPage = TPage<TVerificationListItem>;

export interface TVerificationFilters {
  status: string;
  providerId: string;
  appId: string;
  from: string;
  to: string;
}

export const verificationKeys = {
  all: (env: TEnv) => ["verifications", env] as const,
  lists: (env: TEnv) => [...verificationKeys.all(env), "list"] as const,
  list: (env: TEnv, params: TVerificationFilters & { offset: number; limit: number }) =>
    [...verificationKeys.lists(env), params] as const,
  /** whether the workspace has any session in this environment (empty states) */
  any: (env: TEnv) => [...verificationKeys.all(env), "any"] as const,
  activity: (env: TEnv, verificationId: string) =>
    [...verificationKeys.all(env), "activity", verificationId] as const,
};

/** How often the live views refetch while the tab is visible (TanStack pauses hidden tabs). */
export const LIVE_INTERVAL_MS = 5_000;

/** Every app of the environment (first 100), for the App filters. */
export function useAppOptions() {
  const { env } = useConsole();
  return useQuery({
    queryKey: appKeys.list(env, { search: "", offset: 0, limit: 100 }),
    queryFn: ({ signal }) => api<TAppPage>(env, "/v1/apps", { query: { limit: 100, offset: 0 }, signal }),
    staleTime: 60_000,
  });
}

/** True when the workspace has at least one session in this environment. */
export function useHasVerifications(options: { live?: boolean } = {}) {
  const { env } = useConsole();
  return useQuery({
    queryKey: verificationKeys.any(env),
    queryFn: ({ signal }) =>
      api<TVerificationPage>(env, "/v1/verifications", { query: { limit: 1, offset: 0 }, signal }),
    select: (page) => page.total > 0,
    refetchInterval: options.live ? LIVE_INTERVAL_MS : false,
  });
}
