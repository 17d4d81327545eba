/**
 * Whether the CNAME target (settings.cnameTarget: IDV_CNAME_TARGET, else PUBLIC_URL's host) can
 * work at all, said in the API's answer so the integrator is not left creating records that never
 * verify.
 * Rules:
 * - a CNAME record names a host: an IP literal (IPv4 or IPv6) cannot be its value, and neither
 *   can `localhost` (or a name under .localhost) nor a single-label name, which no public
 *   resolver answers for;
 * - the warning says what the operator must change (IDV_CNAME_TARGET or PUBLIC_URL set to a DNS
 *   name), because the integrator cannot fix it themselves;
 * - it is a warning, not an error: the records are still generated (a private deployment may
 *   resolve them its own way), and a domain configured before the setting changed keeps the
 *   target its records were made with, so the warning follows the records, not today's setting.
 */
import { isIP } from "node:net";

export const CNAME_TARGET_UNUSABLE = "cname_target_unusable";

export interface TDomainWarning {
  code: typeof CNAME_TARGET_UNUSABLE;
  message: string;
}

/** Why `target` cannot be the value of a CNAME record, or undefined when it can. */
export function cnameTargetProblem(target: string): string | undefined {
  const host = target
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (isIP(host)) return `${target} is an IP address`;
  if (host === "localhost" || host.endsWith(".localhost")) return `${target} is a local name`;
  if (!host.includes(".")) return `${target} is not a full DNS name`;
  return undefined;
}

/** The warnings about the CNAME targets in use (each distinct target once). */
export function cnameTargetWarnings(targets: readonly string[]): TDomainWarning[] {
  return [...new Set(targets)].flatMap((target) => {
    const problem = cnameTargetProblem(target);
    return problem
      ? [
          {
            code: CNAME_TARGET_UNUSABLE,
            message: `The CNAME target ${problem}: a CNAME record must point at a host name, so records with this value cannot work. The service's operator must set PUBLIC_URL (or IDV_CNAME_TARGET) to a DNS name, like https://idv.example.com, before a custom domain can be set up.`,
          },
        ]
      : [];
  });
}
