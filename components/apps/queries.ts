/** Query keys and types of the Apps API as the console uses it. */
import type { TEnv } from "@/components/console/api";

export const appKeys = {
  all: (env: TEnv) => ["apps", env] as const,
  list: (env: TEnv, params: { search: string; offset: number; limit: number }) =>
    [...appKeys.all(env), "list", params] as const,
  detail: (env: TEnv, clientId: string) => [...appKeys.all(env), "detail", clientId] as const,
};

export interface TApp {
  clientId: string;
  name: string;
  logo: string | null;
  redirectUris: string[];
  providers: Record<string, { enabled: boolean }>;
  defaultWorkflowId: string | null;
  workflows: { workflowId: string; name: string }[];
  environment: TEnv;
  defaultSuccessRedirectUri: string | null;
  defaultFailureRedirectUri: string | null;
  /** the OpenID Provider refuses sign-in requests without PKCE */
  pkceRequired: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface TAppPage {
  data: TApp[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}
