/**
 * Host names of a custom domain (webDomain, oidcDomain).
 * Rules:
 * - host only: no scheme, user info, path, query, fragment, port or wildcard; not an IP address;
 * - valid DNS labels (1–63 characters of a–z, 0–9 and inner hyphens, 253 at most in all), at
 *   least two labels; lowercased, one trailing dot dropped, Unicode names stored as punycode;
 * - the registrable ("base") domain comes from the Public Suffix List (tldts, private suffixes
 *   such as github.io included, because their subdomains belong to different owners): a public
 *   suffix itself is refused, and so is a name under a suffix the list does not know;
 * - neither host may be the base domain itself: a CNAME cannot live at a zone apex (RFC 1034
 *   §3.6.2, it would clash with the zone's SOA and NS records);
 * - the two hosts differ and share one base domain, where the ownership TXT record lives;
 * - hosts of the service itself (reserved) are refused.
 * Pure functions: they throw 400s naming the field; the database checks live in service.ts.
 */
import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { parse } from "tldts";
import { invalidField } from "../errors";

export interface TDomainPair {
  webDomain: string;
  oidcDomain: string;
  /** the registrable domain both hosts share, e.g. example.co.uk */
  baseDomain: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLDTS_OPTIONS = { allowPrivateDomains: true } as const;

/** Why `raw` is not a plain host name, or undefined; checked before any parsing. */
function shapeProblem(raw: string): string | undefined {
  if (raw === "") return "must not be empty";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || raw.includes("://") || raw.startsWith("//"))
    return "must be a host name only, without a scheme (like https://)";
  if (raw.includes("@")) return "must be a host name only, without user info";
  if (raw.includes("/") || raw.includes("\\")) return "must be a host name only, without a path";
  if (raw.includes("?") || raw.includes("#")) return "must be a host name only, without a query or fragment";
  if (raw.includes("*")) return "must not be a wildcard; name one host";
  const bracketless = raw.replace(/^\[(.*)\]$/, "$1");
  if (isIP(bracketless) || isIP(raw.replace(/:\d+$/, ""))) return "must be a domain name, not an IP address";
  if (/:\d*$/.test(raw)) return "must be a host name only, without a port";
  if (/\s/.test(raw)) return "must not contain spaces";
  return undefined;
}

/** Normalises one host and returns it with its base domain; throws a 400 naming `field`. */
export function parseCustomHost(raw: string, field: string): { host: string; baseDomain: string } {
  const problem = shapeProblem(raw.trim());
  if (problem) throw invalidField(field, problem);
  const trimmed = raw.trim().replace(/\.$/, "");
  // Unicode names become punycode; an impossible name (also one ending in a number, which URL
  // parsing reads as a malformed IPv4 address) comes back as ""
  const host = domainToASCII(trimmed.toLowerCase());
  if (!host) throw invalidField(field, "is not a valid domain name");
  if (host.length > 253) throw invalidField(field, "must be at most 253 characters");
  const labels = host.split(".");
  if (labels.length < 2)
    throw invalidField(field, "must be a fully qualified domain name, like verify.example.com");
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) {
    throw invalidField(
      field,
      bad === ""
        ? "must not contain empty labels (two dots in a row)"
        : `has an invalid label "${bad}": use 1–63 letters, digits or inner hyphens`,
    );
  }

  const parsed = parse(host, TLDTS_OPTIONS);
  if (parsed.isIp) throw invalidField(field, "must be a domain name, not an IP address");
  if (!parsed.isIcann && !parsed.isPrivate)
    throw invalidField(field, `ends in ".${parsed.publicSuffix}", which is not a public domain suffix`);
  if (!parsed.domain)
    throw invalidField(
      field,
      `is a public suffix ("${host}"); use a host under a domain you own, like verify.example.${host}`,
    );
  if (parsed.domain === host) {
    throw invalidField(
      field,
      `is the base domain ${host} itself, where a CNAME record cannot be placed; use a subdomain such as verify.${host}`,
    );
  }
  return { host, baseDomain: parsed.domain };
}

/**
 * Validates both hosts of a custom domain and returns them normalised. `reserved` holds the
 * service's own host names, which an app can never claim.
 */
export function parseDomainPair(
  input: { webDomain: string; oidcDomain: string },
  reserved: ReadonlySet<string> = new Set(),
): TDomainPair {
  const web = parseCustomHost(input.webDomain, "webDomain");
  const oidc = parseCustomHost(input.oidcDomain, "oidcDomain");
  if (web.host === oidc.host) throw invalidField("oidcDomain", "must differ from webDomain");
  if (web.baseDomain !== oidc.baseDomain) {
    throw invalidField(
      "oidcDomain",
      `must share the base domain of webDomain (${web.baseDomain}), but its base domain is ${oidc.baseDomain}`,
    );
  }
  for (const [field, host] of [
    ["webDomain", web.host],
    ["oidcDomain", oidc.host],
  ] as const) {
    if (reserved.has(host)) throw invalidField(field, `${host} is a host of this service and cannot be used`);
  }
  return { webDomain: web.host, oidcDomain: oidc.host, baseDomain: web.baseDomain };
}

/**
 * The part of `host` below `baseDomain` ("verify.shop" for verify.shop.example.com in
 * example.com): what most DNS providers' forms ask for as the record name.
 */
export function relativeName(host: string, baseDomain: string): string {
  return host === baseDomain ? "@" : host.slice(0, -(baseDomain.length + 1));
}
