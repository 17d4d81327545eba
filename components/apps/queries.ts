/** Query keys and types of the Apps API as the console uses it. */
import type { TEnv } from "@/components/console/api";
import type { TAppJson } from "@/lib/apps/serialize";
import type { TPage } from "@/lib/http/pagination";

export const appKeys = {
  all: (env: TEnv) => ["apps", env] as const,
  list: (env: TEnv, params: { search: string; offset: number; limit: number }) =>
    [...appKeys.all(env), "list", params] as const,
  detail: (env: TEnv, clientId: string) => [...appKeys.all(env), "detail", clientId] as const,
};

/** The environment's OpenID Provider discovery document, as far as the console reads it. */
export const oidcKeys = {
  discovery: (env: TEnv) => ["oidc", env, "discovery"] as const,
};

export interface TOidcDiscovery {
  issuer: string;
  token_endpoint: string;
  pushed_authorization_request_endpoint?: string;
}

/** An app as the API returns it (the console reads a part of it). */
export type TApp = TAppJson;

export type TAppPage = TPage<TApp>;
