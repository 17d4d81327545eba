/**
 * Custom domains in integration tests: a local DNS server the service resolves against
 * (IDV_DNS_SERVERS), fresh domain names per test, and publishing the records the API asked for.
 */
import { afterAll, beforeAll } from "vitest";
import { randomToken } from "../ids";
import { bearer, call } from "./router";
import { startTestDnsServer, type TTestDnsServer } from "./dns-server";

export const TEST_CNAME_TARGET = "edge.idv-broker.example.net";

const ENV_KEYS = ["IDV_DNS_SERVERS", "IDV_DNS_TIMEOUT_MS", "IDV_DNS_TRIES", "IDV_CNAME_TARGET"] as const;

/** Starts the DNS server for the test file and points the service at it; returns a getter. */
export function setupTestDns(): () => TTestDnsServer {
  let server: TTestDnsServer | undefined;
  const saved: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};
  beforeAll(async () => {
    server = await startTestDnsServer();
    for (const k of ENV_KEYS) saved[k] = process.env[k];
    process.env.IDV_DNS_SERVERS = server.address;
    process.env.IDV_DNS_TIMEOUT_MS = "250";
    process.env.IDV_DNS_TRIES = "1";
    process.env.IDV_CNAME_TARGET = TEST_CNAME_TARGET;
  });
  afterAll(async () => {
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await server?.close();
  });
  return () => {
    if (!server) throw new Error("setupTestDns(): the DNS server is not running yet");
    return server;
  };
}

/** Host names under a base domain of their own (below co.uk, to exercise the suffix list). */
export function uniqueDomain() {
  const base = `shop-${randomToken(12).toLowerCase()}.co.uk`;
  return { base, web: `verify.${base}`, oidc: `auth.${base}`, txt: `_idv-challenge.${base}` };
}

interface TRecord {
  type: string;
  host: string;
  value: string;
}

/** Publishes exactly the records the API asked for. */
export function publishRecords(dns: TTestDnsServer, records: TRecord[]): void {
  for (const r of records) {
    const entry = dns.records.get(r.host) ?? {};
    if (r.type === "CNAME") entry.CNAME = r.value;
    else entry.TXT = [...(entry.TXT ?? []), r.value];
    dns.records.set(r.host, entry);
  }
}

/** Configures a custom domain for the app, publishes its records and verifies it: active. */
export async function makeActiveCustomDomain(
  dns: TTestDnsServer,
  key: string,
  env: "sandbox" | "production",
  clientId: string,
) {
  const names = uniqueDomain();
  const url = `/api/${env}/v1/apps/${clientId}/custom-domain`;
  const put = await call("PUT", url, {
    headers: bearer(key),
    body: { webDomain: names.web, oidcDomain: names.oidc },
  });
  if (put.status !== 200) throw new Error(`configuring a custom domain failed: ${put.status} ${put.text}`);
  publishRecords(dns, put.body.dnsRecords);
  const verify = await call("POST", `${url}/verify`, { headers: bearer(key) });
  if (verify.body?.status !== "active") throw new Error(`the custom domain did not activate: ${verify.text}`);
  return names;
}
