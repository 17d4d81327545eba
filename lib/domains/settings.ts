/**
 * Deployment settings of custom domains (from lib/config, which parses the environment once).
 * - IDV_CNAME_TARGET: the edge host customers point their CNAMEs at (the TLS-terminating proxy in
 *   front of the service, e.g. `edge.idv.example.com`); default: the host of PUBLIC_URL.
 * - IDV_DNS_SERVERS: comma-separated resolvers for verification (`1.1.1.1`, `127.0.0.1:5353`,
 *   `[::1]:53`); default: the system's resolvers.
 * - IDV_DNS_TIMEOUT_MS (default 2000) and IDV_DNS_TRIES (default 2): per lookup, so a verify
 *   answers within a few seconds even when a name server does not.
 * - IDV_DOMAIN_CLAIM_DAYS (default 7): how long a custom domain that is not active (a claim on its
 *   hosts) is kept before the re-check job deletes it; becoming active ends the claim period,
 *   leaving active starts a new one.
 * Reserved hosts — the service's own names (PUBLIC_URL's host, the CNAME target, the IDV_HOSTS
 * hosts) — can never be an app's custom domain.
 */
import { config } from "../config";
import { normalizeHost } from "../http/hosts";

function publicHost(): string | undefined {
  return normalizeHost(new URL(config().publicUrl).host);
}

/** The host every custom domain's CNAME records must point at. */
export function cnameTarget(): string {
  return config().cnameTarget ?? publicHost() ?? "localhost";
}

/** Host names of the service itself. */
export function reservedHosts(): Set<string> {
  const hosts = new Set<string>();
  const own = publicHost();
  if (own) hosts.add(own);
  hosts.add(cnameTarget());
  for (const host of config().hosts.keys()) hosts.add(host);
  return hosts;
}

export interface TDnsSettings {
  servers?: string[];
  timeoutMs: number;
  tries: number;
}

export function dnsSettings(): TDnsSettings {
  const { dnsServers, dnsTimeoutMs, dnsTries } = config();
  return { servers: dnsServers ? [...dnsServers] : undefined, timeoutMs: dnsTimeoutMs, tries: dnsTries };
}

/** How long a claim (a custom domain that is not active) lives, in milliseconds. */
export function claimTtlMs(): number {
  return config().domainClaimDays * 24 * 3600_000;
}

/** When a claim made (or a domain that left `active`) at `now` expires. */
export function claimExpiry(now: Date): Date {
  return new Date(now.getTime() + claimTtlMs());
}
