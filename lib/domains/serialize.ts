/** The custom domain state as the API returns it. No row means `unconfigured`. */
import { z } from "zod";
import { jsonParser } from "../state-machine";
import { cnameTargetWarnings } from "./cname-target";
import type { TDnsCheckJson, TDnsRecord } from "./dns";
import { ZCustomDomainJson, ZDnsCheckJson, ZDnsRecordJson } from "./endpoints";
import { isPendingStatus } from "./schedule";
import { parseDomainStatus, parseRequiredAction } from "./state-machine";
import type { TCustomDomainRow } from "./store/domains";

/** `custom_domains.dns_records` (written by buildDnsRecords) as read from its row. */
export const parseDnsRecords: (value: unknown) => TDnsRecord[] = jsonParser(
  z.array(ZDnsRecordJson),
  "custom_domains.dns_records",
);
/** `custom_domains.dns_checks` (written by checkUpdate) as read from its row. */
const parseDnsChecks: (value: unknown) => TDnsCheckJson[] = jsonParser(
  z.array(ZDnsCheckJson),
  "custom_domains.dns_checks",
);

/**
 * The background re-check of a domain: `scheduled` (pending, next check at nextCheckAt),
 * `stopped` (pending, but the service gave up checking by itself: verify to start over), `off`
 * (nothing to wait for: unconfigured, active or invalid).
 */
export type TAutomaticChecks = TCustomDomainJson["automaticChecks"];

export type TCustomDomainJson = z.infer<typeof ZCustomDomainJson>;

export const UNCONFIGURED_DOMAIN: Readonly<TCustomDomainJson> = {
  webDomain: null,
  oidcDomain: null,
  status: "unconfigured",
  requiredAction: "none",
  dnsRecords: [],
  automaticChecks: "off",
};

/** The JSON of an app without a custom domain, warned about the target a configure would use. */
export function unconfiguredDomainJson(target: string): TCustomDomainJson {
  const warnings = cnameTargetWarnings([target]);
  return { ...UNCONFIGURED_DOMAIN, ...(warnings.length ? { warnings } : {}) };
}

export function toCustomDomainJson(row: TCustomDomainRow): TCustomDomainJson {
  const pending = isPendingStatus(row.status);
  const dnsRecords = parseDnsRecords(row.dnsRecords);
  // the records keep the target they were made with: warn about that one, not today's setting
  const warnings = cnameTargetWarnings(dnsRecords.filter((r) => r.type === "CNAME").map((r) => r.value));
  return {
    webDomain: row.webDomain,
    oidcDomain: row.oidcDomain,
    status: parseDomainStatus(row.status),
    requiredAction: parseRequiredAction(row.requiredAction),
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    dnsRecords,
    ...(row.lastCheckedAt ? { lastCheckedAt: row.lastCheckedAt.toISOString() } : {}),
    ...(row.dnsChecks ? { dnsChecks: parseDnsChecks(row.dnsChecks) } : {}),
    automaticChecks: !pending ? "off" : row.nextCheckAt ? "scheduled" : "stopped",
    ...(pending && row.nextCheckAt ? { nextCheckAt: row.nextCheckAt.toISOString() } : {}),
    ...(row.status !== "active" && row.claimExpiresAt
      ? { claimExpiresAt: row.claimExpiresAt.toISOString() }
      : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}
