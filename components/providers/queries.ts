/** Query keys and types of an app's providers as the console uses them. */
import type { TEnv } from "@/components/console/api";
import type { TProviderJson, TRequirementJson } from "@/lib/providers/schema";

export type TProviderEntry = Required<Pick<TProviderJson, "status" | "activation">> & TProviderJson;
export type TRequirement = TRequirementJson;
export type TActivationStatus = TProviderEntry["status"];

export const providerKeys = {
  all: (env: TEnv, clientId: string) => ["app-providers", env, clientId] as const,
  catalog: (env: TEnv, clientId: string) => [...providerKeys.all(env, clientId), "catalog"] as const,
};

/** GET …/providers?scope=catalog&include=activation: every catalog provider with the app's state. */
export function catalogPath(clientId: string): string {
  return `/v1/apps/${encodeURIComponent(clientId)}/providers`;
}
export const CATALOG_QUERY = { scope: "catalog", include: "activation" } as const;
