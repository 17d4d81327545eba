/** The custom domain state as the API returns it. No row means `unconfigured`. */
import type { CustomDomain } from "../db/generated/client";
import type { TDnsRecord } from "./dns";
import type { TDomainStatus, TRequiredAction } from "./state-machine";

export interface TCustomDomainJson {
  webDomain: string | null;
  oidcDomain: string | null;
  status: TDomainStatus;
  requiredAction: TRequiredAction;
  statusMessage?: string;
  dnsRecords: TDnsRecord[];
  lastCheckedAt?: string;
}

export const UNCONFIGURED_DOMAIN: Readonly<TCustomDomainJson> = {
  webDomain: null,
  oidcDomain: null,
  status: "unconfigured",
  requiredAction: "none",
  dnsRecords: [],
};

export function toCustomDomainJson(row: CustomDomain): TCustomDomainJson {
  return {
    webDomain: row.webDomain,
    oidcDomain: row.oidcDomain,
    status: row.status as TDomainStatus,
    requiredAction: row.requiredAction as TRequiredAction,
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    dnsRecords: row.dnsRecords as unknown as TDnsRecord[],
    ...(row.lastCheckedAt ? { lastCheckedAt: row.lastCheckedAt.toISOString() } : {}),
  };
}
