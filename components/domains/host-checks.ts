/**
 * Quick checks of the hosts typed into the Domain tab, before anything is sent. They only catch
 * the obvious (a URL pasted instead of a host, a port, a wildcard, an IP address, the same host
 * twice); the API decides, and its verdict (`details[].path`) is shown on the field it names.
 */

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Why `raw` is clearly not a host name, or undefined. */
export function hostProblem(raw: string): string | undefined {
  const value = raw.trim();
  if (value === "") return "Enter a host name, like verify.example.com.";
  if (value.includes("://") || value.startsWith("//"))
    return "Enter the host name only, without https:// in front.";
  if (value.includes("@")) return "Enter the host name only, without a user name.";
  if (/[/?#\\]/.test(value)) return "Enter the host name only, without a path (nothing after a /).";
  if (value.includes("*")) return "Wildcards are not possible: enter one host name.";
  if (value.startsWith("[") || value.split(":").length > 2 || IPV4.test(value.replace(/:\d*$/, "")))
    return "Enter a domain name, not an IP address.";
  if (value.includes(":")) return "Enter the host name only, without a port.";
  if (/\s/.test(value)) return "A host name has no spaces.";
  if (!value.replace(/\.$/, "").includes(".")) return "Enter a full host name, like verify.example.com.";
  return undefined;
}

const normalize = (raw: string) => raw.trim().toLowerCase().replace(/\.$/, "");

export interface THostProblems {
  webDomain?: string;
  oidcDomain?: string;
}

/** The problems of both hosts, by the API's field names. */
export function hostPairProblems(webDomain: string, oidcDomain: string): THostProblems {
  const problems: THostProblems = {};
  const web = hostProblem(webDomain);
  const oidc = hostProblem(oidcDomain);
  if (web) problems.webDomain = web;
  if (oidc) problems.oidcDomain = oidc;
  if (!web && !oidc && normalize(webDomain) === normalize(oidcDomain))
    problems.oidcDomain = "Use a different host than the web host, like auth.example.com.";
  return problems;
}
