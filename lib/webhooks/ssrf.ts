/**
 * SSRF guard for outgoing webhook requests.
 * Rules:
 * - a delivery may only connect to a public unicast address: private (RFC 1918, ULA), loopback,
 *   link-local (including the 169.254.169.254 / fd00:ec2::254 metadata services), carrier-grade
 *   NAT, multicast, reserved, documentation and benchmarking ranges are refused;
 * - addresses are parsed, not matched as text: every IPv6 spelling (expanded, zero-compressed,
 *   upper case, leading zeros, a dotted IPv4 tail, a zone id) is the same 128-bit number;
 * - IPv6 is allowed only inside global unicast 2000::/3, minus its special-purpose blocks
 *   (2001::/23 with Teredo, 2001:db8::/32, 2002::/16 6to4, 3fff::/20); the two prefixes that
 *   carry an IPv4 address meant to be reached as such — IPv4-mapped ::ffff:0:0/96 and the
 *   well-known NAT64 64:ff9b::/96 — are judged by that IPv4 address; every other prefix that
 *   embeds one (IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, 6to4, Teredo, local-use
 *   NAT64 64:ff9b:1::/48) is refused whatever it embeds;
 * - the check runs on the addresses actually connected to: the `lookup` hook runs at connect
 *   time (so DNS rebinding cannot slip past), checks EVERY address of the answer and refuses the
 *   whole answer when one of them is forbidden, and hands the socket only addresses it checked;
 *   IP literals, which skip the lookup, are checked with `assertAllowedHost` before the request;
 * - WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 lifts the rule (tests, on-premises).
 */
import dns from "node:dns";
import net from "node:net";
import { config } from "../config";

type TParsedAddress = { family: 4; value: number } | { family: 6; value: bigint };

function parseIpv4(text: string): number | undefined {
  if (!net.isIPv4(text)) return undefined;
  return text.split(".").reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

/** An IP address as a number, whatever its spelling; undefined when it is not one. */
export function parseAddress(input: string): TParsedAddress | undefined {
  let text = input.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  // a zone id (fe80::1%eth0) names an interface, not another address
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  text = text.toLowerCase();
  if (!net.isIPv6(text)) return undefined;
  // a dotted IPv4 tail (::ffff:127.0.0.1) becomes its two hex groups
  if (text.includes(".")) {
    const colon = text.lastIndexOf(":");
    const tail = parseIpv4(text.slice(colon + 1));
    if (tail === undefined) return undefined;
    text = `${text.slice(0, colon + 1)}${Math.floor(tail / 65536).toString(16)}:${(tail % 65536).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return { family: 6, value };
}

function v4Range(network: string, prefix: number): [number, number] {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return [(parseIpv4(network)! & mask) >>> 0, mask];
}

function v6Range(network: string, prefix: number): [bigint, bigint] {
  const parsed = parseAddress(network);
  if (parsed?.family !== 6) throw new Error(`not an IPv6 network: ${network}`);
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(128 - prefix);
  return [parsed.value & mask, mask];
}

const inV4 = (value: number, [network, mask]: [number, number]) => (value & mask) >>> 0 === network;
const inV6 = (value: bigint, [network, mask]: [bigint, bigint]) => (value & mask) === network;

const FORBIDDEN_V4 = [
  v4Range("0.0.0.0", 8), // "this network"
  v4Range("10.0.0.0", 8),
  v4Range("100.64.0.0", 10), // carrier-grade NAT
  v4Range("127.0.0.0", 8),
  v4Range("169.254.0.0", 16), // link-local, cloud metadata
  v4Range("172.16.0.0", 12),
  v4Range("192.0.0.0", 24), // IETF protocol assignments
  v4Range("192.0.2.0", 24), // documentation
  v4Range("192.88.99.0", 24), // 6to4 relay anycast
  v4Range("192.168.0.0", 16),
  v4Range("198.18.0.0", 15), // benchmarking
  v4Range("198.51.100.0", 24),
  v4Range("203.0.113.0", 24),
  v4Range("224.0.0.0", 4), // multicast
  v4Range("240.0.0.0", 4), // reserved, broadcast
];

/** Judged by the IPv4 address in their last 32 bits. */
const IPV4_MAPPED = v6Range("::ffff:0:0", 96);
const NAT64_WELL_KNOWN = v6Range("64:ff9b::", 96);
const GLOBAL_UNICAST = v6Range("2000::", 3);
/** Special-purpose blocks inside 2000::/3 (everything outside it is refused anyway). */
const FORBIDDEN_GLOBAL_V6 = [
  v6Range("2001::", 23), // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID
  v6Range("2001:db8::", 32), // documentation
  v6Range("2002::", 16), // 6to4: relays would reach the embedded IPv4 address
  v6Range("3fff::", 20), // documentation (RFC 9637)
];

function forbiddenV4(value: number): boolean {
  return FORBIDDEN_V4.some((range) => inV4(value, range));
}

export function isForbiddenAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return true; // not an IP address at all
  if (parsed.family === 4) return forbiddenV4(parsed.value);
  const { value } = parsed;
  if (inV6(value, IPV4_MAPPED) || inV6(value, NAT64_WELL_KNOWN))
    return forbiddenV4(Number(value & 0xffffffffn));
  if (!inV6(value, GLOBAL_UNICAST)) return true;
  return FORBIDDEN_GLOBAL_V6.some((range) => inV6(value, range));
}

/**
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS when set; otherwise allowed only under `npm run dev`
 * (NODE_ENV=development), so a local receiver works out of the box while production and tests
 * keep the guard on.
 */
export function privateNetworksAllowed(): boolean {
  return config().webhookAllowPrivateNetworks;
}

/**
 * A refused destination. Its message names the address, for the server log only: attempt errors
 * shown to tenants never say what a name resolved to (see dispatch/errors.ts).
 */
export class ForbiddenAddressError extends Error {
  readonly code = "ERR_WEBHOOK_DESTINATION_NOT_ALLOWED";
  constructor(
    readonly address: string,
    /** the host name that resolved to it; undefined for an IP literal */
    readonly hostname?: string,
  ) {
    super(
      `connection to ${address}${hostname ? ` (${hostname})` : ""} refused: private, loopback, link-local and reserved addresses are not allowed`,
    );
    this.name = "ForbiddenAddressError";
  }
}

/**
 * Resolves a host name to all its addresses (family 0: both; hints as for dns.lookup, which
 * node:net sets to ADDRCONFIG); the seam tests stub.
 */
export type TResolve = (
  hostname: string,
  options: { family: 0 | 4 | 6; hints: number },
) => Promise<dns.LookupAddress[]>;

export const systemResolve: TResolve = (hostname, { family, hints }) =>
  dns.promises.lookup(hostname, { all: true, family, hints });

type TLookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

export type TGuardedLookup = (
  hostname: string,
  options: dns.LookupOptions,
  callback: TLookupCallback,
) => void;

function requestedFamily(options: dns.LookupOptions): 0 | 4 | 6 {
  const family = options.family;
  if (family === 4 || family === "IPv4") return 4;
  if (family === 6 || family === "IPv6") return 6;
  return 0;
}

/** The checked answer for the socket, or the error that refuses it. */
function judgeAnswer(
  hostname: string,
  addresses: dns.LookupAddress[],
): dns.LookupAddress[] | NodeJS.ErrnoException {
  if (addresses.length === 0)
    return Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND", hostname });
  const checked: dns.LookupAddress[] = [];
  for (const { address } of addresses) {
    const parsed = parseAddress(address);
    // one forbidden address refuses the whole answer: a name that mixes public and internal
    // addresses is a rebinding attempt, and node:net would try the next address on a failure
    if (!parsed || (!privateNetworksAllowed() && isForbiddenAddress(address)))
      return new ForbiddenAddressError(address, hostname);
    checked.push({ address, family: parsed.family });
  }
  return checked;
}

/**
 * A `lookup` for http(s).request / net.connect: resolves the name with `resolve` and hands the
 * socket only addresses that passed the guard. Node calls it at connect time for host names; IP
 * literals must be checked with `assertAllowedHost` before the request, since Node skips lookup
 * for them.
 */
export function createGuardedLookup(resolve: TResolve = systemResolve): TGuardedLookup {
  return (hostname, options, callback) => {
    const settle = (outcome: dns.LookupAddress[] | NodeJS.ErrnoException) =>
      // outside the promise chain: an exception in the socket's callback must not come back here
      process.nextTick(() => {
        if (!Array.isArray(outcome)) return callback(outcome, options.all ? [] : "");
        if (options.all) return callback(null, outcome);
        callback(null, outcome[0]!.address, outcome[0]!.family);
      });
    resolve(hostname, { family: requestedFamily(options), hints: options.hints ?? 0 }).then(
      (addresses) => settle(judgeAnswer(hostname, addresses)),
      (err: NodeJS.ErrnoException) => settle(err),
    );
  };
}

export const guardedLookup: TGuardedLookup = createGuardedLookup();

/** Refuses IP-literal hosts in forbidden ranges (names are checked by the guarded lookup). */
export function assertAllowedHost(hostname: string): void {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (parseAddress(bare) && !privateNetworksAllowed() && isForbiddenAddress(bare))
    throw new ForbiddenAddressError(bare);
}
