/**
 * Query keys, types and reads of an app's production tests (the app's "Production tests" tab):
 * the list of requests and challenges, each challenge's report, and the app's providers a test
 * can name. Lists refresh on their own while something can still change (a pending request, an
 * active challenge), so an operator's decision and new stamps appear without a reload.
 */
import { useQuery } from "@tanstack/react-query";
import { api, type TEnv } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import type { TChallengeSession } from "@/lib/production-tests/sessions";
import type {
  TChallengeJson,
  TProductionTestItemJson,
  TReportJson,
  TRequestJson,
} from "@/lib/production-tests/serialize";
import type { TProviderJson } from "@/lib/providers/schema";

export type TProductionTestItem = TProductionTestItemJson;
export type TChallenge = TChallengeJson;
export type TTestRequest = TRequestJson;
export type TReport = TReportJson;
export type TStartedSession = TChallengeSession;
export type TAppProvider = Pick<TProviderJson, "id" | "name" | "verificationModel" | "enabled" | "isActive">;
export type TTargetPlatform = TRequestJson["payload"]["targetPlatform"];

/** The request body of POST /v1/apps/{client_id}/production-tests. */
export interface TCreateProductionTestBody {
  title: string;
  providerIds: string[];
  maxStampClaims: number;
  targetPlatform: TTargetPlatform;
}

export const productionTestKeys = {
  all: (env: TEnv, clientId: string) => ["production-tests", env, clientId] as const,
  list: (env: TEnv, clientId: string) => [...productionTestKeys.all(env, clientId), "list"] as const,
  report: (env: TEnv, clientId: string, challengeId: string) =>
    [...productionTestKeys.all(env, clientId), "report", challengeId] as const,
  providers: (env: TEnv, clientId: string) =>
    [...productionTestKeys.all(env, clientId), "providers"] as const,
};

/** How often the open views refresh while something can change (paused in hidden tabs). */
export const LIVE_INTERVAL_MS = 5_000;

/** The API's limits (lib/production-tests/schema.ts), mirrored for the browser's own checks. */
export const TITLE_MAX = 200;
export const MAX_STAMP_CLAIMS = 100_000;

const appPath = (clientId: string) => `/v1/apps/${encodeURIComponent(clientId)}`;

export function productionTestsPath(clientId: string, ...rest: string[]): string {
  return [`${appPath(clientId)}/production-tests`, ...rest.map(encodeURIComponent)].join("/");
}

function isLive(items: TProductionTestItem[] | undefined): boolean {
  return (items ?? []).some(
    (i) => i.request.status === "pending" || (i.type === "challenge" && i.challenge.isActive),
  );
}

export function useProductionTests(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: productionTestKeys.list(env, clientId),
    queryFn: ({ signal }) => api<TProductionTestItem[]>(env, productionTestsPath(clientId), { signal }),
    refetchInterval: (query) => (isLive(query.state.data) ? LIVE_INTERVAL_MS : false),
  });
}

export function useChallengeReport(clientId: string, challenge: TChallenge) {
  const { env } = useConsole();
  return useQuery({
    queryKey: productionTestKeys.report(env, clientId, challenge.id),
    queryFn: ({ signal }) =>
      api<TReport>(env, productionTestsPath(clientId, challenge.id, "report"), { signal }),
    // a finished challenge's numbers no longer change
    refetchInterval: (query) =>
      (query.state.data?.challenge.isActive ?? challenge.isActive) ? LIVE_INTERVAL_MS : false,
  });
}

/** The app's providers with their state (production lists the whole catalog, marked). */
export function useAppProviders(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: productionTestKeys.providers(env, clientId),
    queryFn: ({ signal }) => api<TAppProvider[]>(env, `${appPath(clientId)}/providers`, { signal }),
  });
}
