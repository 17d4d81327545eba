/** Query keys and types of the custom domain API as the Domain tab uses it. */
import type { TEnv } from "@/components/console/api";
import type { TDnsCheckJson, TDnsRecord } from "@/lib/domains/dns";
import type { TCustomDomainJson } from "@/lib/domains/serialize";

export type TCustomDomain = TCustomDomainJson;
export type TDomainRecord = TDnsRecord;
export type TDomainCheck = TDnsCheckJson;
export type TDomainStatus = TCustomDomain["status"];

/** One custom domain per app: the app's key is the domain's. */
export const domainKeys = {
  all: (env: TEnv) => ["custom-domain", env] as const,
  detail: (env: TEnv, clientId: string) => [...domainKeys.all(env), clientId] as const,
};

export const domainPath = (clientId: string) => `/v1/apps/${encodeURIComponent(clientId)}/custom-domain`;

/** How often the tab asks again while the service is checking a pending domain by itself. */
export const PENDING_POLL_MS = 15_000;

/** Whether the service is still checking the domain by itself (the tab then polls). */
export function isBeingChecked(domain: TCustomDomain | undefined): boolean {
  return domain?.automaticChecks === "scheduled";
}
