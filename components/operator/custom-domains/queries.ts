/**
 * The back-office's custom-domain reads: query keys and shapes of the Operator API's custom
 * domains list and TLS check (inferred from lib/operators/api.ts), and the words for them.
 */
import type { TEnv } from "@/components/console/api";
import type { TOperatorCustomDomainJson, TTlsCheckJson } from "@/lib/operators/endpoints";
import type { TPage } from "@/lib/http/pagination";

export type TOperatorDomain = TOperatorCustomDomainJson;
export type TTlsCheck = TTlsCheckJson;

export type TOperatorDomainPage = TPage<TOperatorDomain>;

export interface TDomainFilters {
  status: string;
  search: string;
}

export const customDomainOperatorKeys = {
  all: (env: TEnv) => ["operator", env, "custom-domains"] as const,
  list: (env: TEnv, filters: TDomainFilters, offset: number) =>
    ["operator", env, "custom-domains", "list", filters, offset] as const,
  tls: (env: TEnv, host: string) => ["operator", env, "custom-domains", "tls", host] as const,
};

/** The states a configured domain can be in (`unconfigured` has no row). */
export const DOMAIN_STATUS_OPTIONS = [
  { value: "awaiting_dns", label: "Waiting for DNS records" },
  { value: "verifying", label: "Some records found" },
  { value: "active", label: "Active" },
  { value: "invalid", label: "Invalid" },
] as const;

export const REQUIRED_ACTION_LABELS: Record<string, string> = {
  none: "None",
  add_cname: "Integrator adds the DNS records",
  waiting: "Waiting for DNS to show the records",
  verify: "Integrator presses Verify",
  contact_support: "Support: a host is one of the service's own",
  retry: "Fix the record or retry (DNS did not answer)",
};

export const TLS_CODE_LABELS: Record<TTlsCheck["code"], string> = {
  active_custom_domain: "Active custom domain",
  domain_not_active: "Domain not active",
  app_deleted: "App deleted",
  unknown_host: "Unknown host",
  invalid_host: "Not a host name",
};
