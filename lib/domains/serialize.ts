/** The custom domain state as the API returns it. No row means `unconfigured`. */
import type { CustomDomain } from "../db/generated/client";
import type { TDnsCheckJson, TDnsRecord } from "./dns";
import { isPendingStatus } from "./schedule";
import type { TDomainStatus, TRequiredAction } from "./state-machine";

/**
 * The background re-check of a domain: `scheduled` (pending, next check at nextCheckAt),
 * `stopped` (pending, but the service gave up checking by itself: verify to start over), `off`
 * (nothing to wait for: unconfigured, active or invalid).
 */
export type TAutomaticChecks = "scheduled" | "stopped" | "off";

export interface TCustomDomainJson {
  webDomain: string | null;
  oidcDomain: string | null;
  status: TDomainStatus;
  requiredAction: TRequiredAction;
  statusMessage?: string;
  dnsRecords: TDnsRecord[];
  lastCheckedAt?: string;
  dnsChecks?: TDnsCheckJson[];
  automaticChecks: TAutomaticChecks;
  nextCheckAt?: string;
  /** while not active: when the claim on the hosts ends and the domain is deleted (claims.ts) */
  claimExpiresAt?: string;
}

export const UNCONFIGURED_DOMAIN: Readonly<TCustomDomainJson> = {
  webDomain: null,
  oidcDomain: null,
  status: "unconfigured",
  requiredAction: "none",
  dnsRecords: [],
  automaticChecks: "off",
};

export function toCustomDomainJson(row: CustomDomain): TCustomDomainJson {
  const pending = isPendingStatus(row.status);
  return {
    webDomain: row.webDomain,
    oidcDomain: row.oidcDomain,
    status: row.status as TDomainStatus,
    requiredAction: row.requiredAction as TRequiredAction,
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    dnsRecords: row.dnsRecords as unknown as TDnsRecord[],
    ...(row.lastCheckedAt ? { lastCheckedAt: row.lastCheckedAt.toISOString() } : {}),
    ...(row.dnsChecks ? { dnsChecks: row.dnsChecks as unknown as TDnsCheckJson[] } : {}),
    automaticChecks: !pending ? "off" : row.nextCheckAt ? "scheduled" : "stopped",
    ...(pending && row.nextCheckAt ? { nextCheckAt: row.nextCheckAt.toISOString() } : {}),
    ...(row.status !== "active" && row.claimExpiresAt
      ? { claimExpiresAt: row.claimExpiresAt.toISOString() }
      : {}),
  };
}
