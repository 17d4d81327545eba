/** Query keys and types of the API requests page (the request log). */
import type { TEnv } from "@/components/console/api";
import type { TRequestLogJson } from "@/lib/request-log/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TRequestLog = TRequestLogJson;

export type TRequestLogPage = TPage<TRequestLog>;

export interface TRequestLogFilters {
  statusClass: string;
  method: string;
  path: string;
  appId: string;
  credentialId: string;
  verificationId: string;
}

export const requestLogKeys = {
  all: (env: TEnv) => ["request-logs", env] as const,
  list: (env: TEnv, params: TRequestLogFilters & { offset: number; limit: number }) =>
    [...requestLogKeys.all(env), "list", params] as const,
};
