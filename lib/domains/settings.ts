/**
 * Deployment settings of custom domains, read from the environment at call time.
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
import { normalizeHost, parseHostMap } from "../http/hosts";

const DEFAULT_PUBLIC_URL = "http://localhost:3000";

function publicHost(): string | undefined {
  try {
    return normalizeHost(new URL(process.env.PUBLIC_URL || DEFAULT_PUBLIC_URL).host);
  } catch {
    return undefined;
  }
}

/** The host every custom domain's CNAME records must point at. */
export function cnameTarget(): string {
  const configured = process.env.IDV_CNAME_TARGET?.trim();
  if (configured) {
    const host = normalizeHost(configured);
    if (!host || host !== configured.toLowerCase().replace(/\.$/, ""))
      throw new Error(`IDV_CNAME_TARGET must be a bare host name, got "${configured}"`);
    return host;
  }
  return publicHost() ?? "localhost";
}

/** Host names of the service itself. */
export function reservedHosts(): Set<string> {
  const hosts = new Set<string>();
  const own = publicHost();
  if (own) hosts.add(own);
  hosts.add(cnameTarget());
  const raw = process.env.IDV_HOSTS;
  if (raw) for (const host of parseHostMap(raw).keys()) hosts.add(host);
  return hosts;
}

export interface TDnsSettings {
  servers?: string[];
  timeoutMs: number;
  tries: number;
}

function positiveInt(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

export function dnsSettings(): TDnsSettings {
  const servers = process.env.IDV_DNS_SERVERS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    servers: servers?.length ? servers : undefined,
    timeoutMs: positiveInt(process.env.IDV_DNS_TIMEOUT_MS, 2000, "IDV_DNS_TIMEOUT_MS"),
    tries: positiveInt(process.env.IDV_DNS_TRIES, 2, "IDV_DNS_TRIES"),
  };
}

export const DEFAULT_CLAIM_DAYS = 7;

/** How long a claim (a custom domain that is not active) lives, in milliseconds. */
export function claimTtlMs(): number {
  return (
    positiveInt(process.env.IDV_DOMAIN_CLAIM_DAYS, DEFAULT_CLAIM_DAYS, "IDV_DOMAIN_CLAIM_DAYS") *
    24 *
    3600_000
  );
}
