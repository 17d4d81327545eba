/** Query keys and types of the API keys page. */
import type { TEnv } from "@/components/console/api";
import type { TApiKeyJson, TCreatedApiKeyJson } from "@/lib/api-keys/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TApiKey = TApiKeyJson;
export type TCreatedApiKey = TCreatedApiKeyJson;

export type TApiKeyPage = TPage<TApiKey>;

/** Keys belong to one environment: every key of this factory carries it. */
export const apiKeyKeys = {
  all: (env: TEnv) => ["api-keys", env] as const,
  list: (env: TEnv, params: { offset: number; limit: number }) =>
    [...apiKeyKeys.all(env), "list", params] as const,
};
