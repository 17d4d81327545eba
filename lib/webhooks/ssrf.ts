/**
 * SSRF guard for outgoing webhook requests.
 * Rules: a delivery may only connect to a public unicast address. Private (RFC 1918, ULA),
 * loopback, link-local (including the 169.254.169.254 / fd00:ec2::254 metadata services),
 * carrier-grade NAT, multicast, reserved and documentation ranges are refused — checked on the
 * address actually connected to (the `lookup` hook runs at connect time, so DNS rebinding
 * cannot slip past), for IP literals as well as names, and for IPv4 addresses written as
 * IPv4-mapped or NAT64 IPv6. WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 lifts the rule (tests, on-premises).
 */
import dns from "node:dns";
import net from "node:net";

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address carried inside an IPv4-mapped (::ffff:a.b.c.d), compatible or NAT64 IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return undefined;
}

export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, "ipv4");
    return blocked.check(address, "ipv6");
  }
  return true; // not an IP address at all
}

/**
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS when set; otherwise allowed only under `npm run dev`
 * (NODE_ENV=development), so a local receiver works out of the box while production and tests
 * keep the guard on.
 */
export function privateNetworksAllowed(): boolean {
  const value = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  if (value === undefined || value === "") return process.env.NODE_ENV === "development";
  return value === "1" || value === "true";
}

export class ForbiddenAddressError extends Error {
  constructor(readonly address: string) {
    super(
      `connection to ${address} refused: private, loopback, link-local and reserved addresses are not allowed`,
    );
    this.name = "ForbiddenAddressError";
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request / net.connect that resolves the name and refuses forbidden
 * addresses. Node calls it at connect time for host names; IP literals must be checked with
 * `assertAllowedHost` before the request, since Node skips lookup for them.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const list = addresses as dns.LookupAddress[];
    if (!privateNetworksAllowed()) {
      const bad = list.find((a) => isForbiddenAddress(a.address));
      if (bad) return callback(new ForbiddenAddressError(bad.address) as NodeJS.ErrnoException, "");
    }
    if (options.all) return callback(null, list);
    const first = list[0];
    if (!first)
      return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "");
    callback(null, first.address, first.family);
  });
}

/** Refuses IP-literal hosts in forbidden ranges (names are checked by guardedLookup). */
export function assertAllowedHost(hostname: string): void {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(bare) && !privateNetworksAllowed() && isForbiddenAddress(bare))
    throw new ForbiddenAddressError(bare);
}
