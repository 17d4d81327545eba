/**
 * The DNS records of a custom domain and their verification against real DNS.
 * Rules:
 * - each host gets a CNAME to the service's edge host (settings.cnameTarget); the base domain
 *   gets one TXT ownership record, `_idv-challenge.<base domain>` = `idv-verify=<token>`, so only
 *   whoever controls the zone can bring its hosts to this service;
 * - a CNAME is right when it reaches the target directly or through a chain of at most
 *   MAX_CNAME_HOPS further CNAMEs (a customer's own load-balancer name in between is fine);
 *   address records where the CNAME belongs are wrong (a CNAME cannot be checked through them);
 * - a TXT record is right when one of the name's TXT values is exactly the expected one; another
 *   `idv-verify=` value is wrong, other TXT values are ignored;
 * - NXDOMAIN and "no data" mean missing; every other resolver error (timeout, refused, SERVFAIL,
 *   unreachable server) means the answer is unknown, never a verdict on the record;
 * - each check keeps what was found at the name (the CNAME, the addresses in its place, the TXT
 *   values), so the integrator sees what DNS shows next to what we expect;
 * - lookups use node:dns/promises against IDV_DNS_SERVERS (or the system's resolvers) with a
 *   short timeout, all in parallel, so a verify answers within seconds.
 */
import { Resolver } from "node:dns/promises";
import type { z } from "zod";
import type { ZDnsCheckJson, ZDnsRecordJson } from "./endpoints";
import { relativeName, type TDomainPair } from "./hosts";
import { dnsSettings, type TDnsSettings } from "./settings";
import type { TDomainEvent, TRecordCheckState } from "./state-machine";

export const CHALLENGE_LABEL = "_idv-challenge";
export const CHALLENGE_VALUE_PREFIX = "idv-verify=";
const MAX_CNAME_HOPS = 5;

/**
 * A record the integrator has to set (`custom_domains.dns_records`): `host` is the fully
 * qualified name, `name` the same relative to the base domain (what DNS providers' forms ask for).
 */
export type TDnsRecord = z.infer<typeof ZDnsRecordJson>;

export interface TRecordCheck {
  id: string;
  type: TDnsRecord["type"];
  host: string;
  required: boolean;
  state: TRecordCheckState;
  /** the values found at the name: the CNAME (first hop), the addresses in its place, the TXT values */
  found: string[];
  /** what was found, for the status message */
  message: string;
}

/** A record check as the API shows it (`dnsChecks`) and as it is stored with the domain. */
export type TDnsCheckJson = z.infer<typeof ZDnsCheckJson>;

const RESULT_OF_STATE: Record<TRecordCheckState, TDnsCheckJson["result"]> = {
  ok: "found",
  missing: "missing",
  wrong: "wrong",
  unreachable: "lookup_failed",
};

export function toDnsCheckJson(check: TRecordCheck): TDnsCheckJson {
  return {
    id: check.id,
    type: check.type,
    host: check.host,
    result: RESULT_OF_STATE[check.state],
    found: check.found,
    message: check.message,
  };
}

export function buildDnsRecords(pair: TDomainPair, target: string, token: string): TDnsRecord[] {
  const challengeHost = `${CHALLENGE_LABEL}.${pair.baseDomain}`;
  return [
    {
      id: "web-cname",
      type: "CNAME",
      host: pair.webDomain,
      name: relativeName(pair.webDomain, pair.baseDomain),
      value: target,
      required: true,
      description: `Serves the hosted verification pages on ${pair.webDomain}.`,
    },
    {
      id: "oidc-cname",
      type: "CNAME",
      host: pair.oidcDomain,
      name: relativeName(pair.oidcDomain, pair.baseDomain),
      value: target,
      required: true,
      description: `Serves the OpenID Connect endpoints on ${pair.oidcDomain} (issuer https://${pair.oidcDomain}).`,
    },
    {
      id: "ownership-txt",
      type: "TXT",
      host: challengeHost,
      name: relativeName(challengeHost, pair.baseDomain),
      value: `${CHALLENGE_VALUE_PREFIX}${token}`,
      required: true,
      description: `Proves that you control ${pair.baseDomain}. Keep it in place while the domain is in use.`,
    },
  ];
}

const MISSING_CODES = new Set(["ENODATA", "ENOTFOUND"]);

function errorCode(err: unknown): string {
  return (err as { code?: string }).code ?? "EUNKNOWN";
}

type TCheckOutcome = Omit<TRecordCheck, "id" | "type" | "host" | "required">;

function unreachable(err: unknown, name: string): TCheckOutcome {
  const code = errorCode(err);
  const why =
    code === "ETIMEOUT"
      ? "timed out"
      : code === "ECONNREFUSED"
        ? "could not reach the name server"
        : code === "ESERVFAIL"
          ? "failed at the name server (SERVFAIL)"
          : code === "EREFUSED"
            ? "was refused by the name server"
            : `failed (${code})`;
  return { state: "unreachable", found: [], message: `the DNS lookup of ${name} ${why}` };
}

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");

async function checkCname(resolver: Resolver, record: TDnsRecord): Promise<TCheckOutcome> {
  const expected = normalize(record.value);
  let first: string;
  try {
    first = normalize((await resolver.resolveCname(record.host))[0] ?? "");
  } catch (err) {
    if (!MISSING_CODES.has(errorCode(err))) return unreachable(err, record.host);
    const addresses = (
      await Promise.allSettled([resolver.resolve4(record.host), resolver.resolve6(record.host)])
    ).flatMap((r) => (r.status === "fulfilled" ? r.value : []));
    if (addresses.length > 0) {
      return {
        state: "wrong",
        found: addresses,
        message: `${record.host} has address records (${addresses.join(", ")}) instead of a CNAME to ${expected}`,
      };
    }
    return { state: "missing", found: [], message: `no CNAME record on ${record.host}` };
  }
  let current = first;
  for (let hop = 0; current !== expected && hop < MAX_CNAME_HOPS; hop++) {
    try {
      current = normalize((await resolver.resolveCname(current))[0] ?? "");
    } catch (err) {
      if (!MISSING_CODES.has(errorCode(err))) return unreachable(err, current);
      break;
    }
  }
  if (current === expected)
    return { state: "ok", found: [first], message: `CNAME ${record.host} → ${expected}` };
  return {
    state: "wrong",
    found: [first],
    message: `CNAME ${record.host} points at ${first}, expected ${expected}`,
  };
}

async function checkTxt(resolver: Resolver, record: TDnsRecord): Promise<TCheckOutcome> {
  let values: string[];
  try {
    values = (await resolver.resolveTxt(record.host)).map((chunks) => chunks.join(""));
  } catch (err) {
    if (!MISSING_CODES.has(errorCode(err))) return unreachable(err, record.host);
    return { state: "missing", found: [], message: `no TXT record on ${record.host}` };
  }
  if (values.includes(record.value))
    return { state: "ok", found: values, message: `TXT ${record.host} found` };
  const others = values.filter((v) => v.startsWith(CHALLENGE_VALUE_PREFIX));
  if (others.length > 0) {
    return {
      state: "wrong",
      found: values,
      message: `TXT ${record.host} is "${others[0]}", expected "${record.value}"`,
    };
  }
  return {
    state: "missing",
    found: values,
    message: `no "${CHALLENGE_VALUE_PREFIX}…" TXT record on ${record.host}`,
  };
}

export function createResolver(settings: TDnsSettings = dnsSettings()): Resolver {
  const resolver = new Resolver({ timeout: settings.timeoutMs, tries: settings.tries });
  if (settings.servers) resolver.setServers(settings.servers);
  return resolver;
}

/** Looks every record up (in parallel) and says for each whether it is there and right. */
export async function checkDnsRecords(
  records: readonly TDnsRecord[],
  resolver: Resolver = createResolver(),
): Promise<TRecordCheck[]> {
  return Promise.all(
    records.map(async (record) => ({
      id: record.id,
      type: record.type,
      host: record.host,
      required: record.required,
      ...(record.type === "CNAME" ? await checkCname(resolver, record) : await checkTxt(resolver, record)),
    })),
  );
}

function recordLabel(record: TDnsRecord): string {
  return record.type === "CNAME"
    ? `CNAME ${record.host} → ${record.value}`
    : `TXT ${record.host} = "${record.value}"`;
}

/** The status message after a verify: what is wrong or missing, per record; undefined when active. */
export function describeDnsChecks(
  event: TDomainEvent,
  checks: readonly TRecordCheck[],
  records: readonly TDnsRecord[],
): string | undefined {
  const byId = new Map(records.map((r) => [r.id, r]));
  const label = (c: TRecordCheck) => {
    const r = byId.get(c.id);
    return r ? recordLabel(r) : `${c.type} ${c.host}`;
  };
  const of = (state: TRecordCheckState) => checks.filter((c) => c.state === state);
  switch (event) {
    case "dns_complete":
      return undefined;
    case "dns_missing":
      return `No DNS records found yet. Add ${checks.map(label).join("; ")}, then verify again.`;
    case "dns_partial":
      return `Found ${of("ok").length} of ${checks.length} records. Not found yet: ${of("missing")
        .map(label)
        .join("; ")}. DNS changes can take a while to show; verify again once they do.`;
    case "dns_wrong": {
      const failed = of("unreachable");
      return `Wrong DNS records: ${of("wrong")
        .map((c) => c.message)
        .join(
          "; ",
        )}.${failed.length ? ` Not checked: ${failed.map((c) => c.message).join("; ")}.` : ""} Fix the records, then verify again.`;
    }
    case "dns_unreachable":
      return `DNS could not be checked: ${of("unreachable")
        .map((c) => c.message)
        .join("; ")}. Nothing was changed; verify again in a minute.`;
    default:
      return undefined;
  }
}
