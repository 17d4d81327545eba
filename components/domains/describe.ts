/**
 * The custom domain's state in plain words: a short label, what it means and what to do next.
 * The API's states (docs/decisions.md, "Custom domains: verification and the state machine"):
 * unconfigured, awaiting_dns (add_cname), verifying (waiting), active (none), invalid (retry or
 * contact_support); `retry` on any other state means the last check could not reach DNS.
 */
import type { BadgeTone } from "@/components/ui/badge";
import type { TCustomDomain } from "./queries";

export interface TDomainDescription {
  label: string;
  tone: BadgeTone;
  /** what the state means */
  summary: string;
  /** what to do next */
  next: string;
}

/** `formatTime` turns an ISO time into words for the reader (kept out for tests). */
export function describeDomain(
  domain: TCustomDomain,
  formatTime: (iso: string) => string = (iso) => iso,
): TDomainDescription {
  const checks = domain.dnsChecks ?? [];
  const found = checks.filter((c) => c.result === "found").length;
  const lookupFailed = domain.requiredAction === "retry" && domain.status !== "invalid";
  const noAnswer = lookupFailed ? " The last check could not reach DNS, so nothing changed." : "";
  const automatic =
    domain.automaticChecks === "scheduled" && domain.nextCheckAt
      ? `We check again by ourselves at ${formatTime(domain.nextCheckAt)} and keep checking for up to 7 days; press Verify to check now.`
      : domain.automaticChecks === "stopped"
        ? "We stopped checking by ourselves after 7 days. Press Verify once the records are in place: it checks at once and starts the automatic checks again."
        : "Press Verify to check again.";

  switch (domain.status) {
    case "unconfigured":
      return {
        label: "Not set up",
        tone: "gray",
        summary: "This app uses the service's own addresses for its hosted pages and OpenID Connect.",
        next: "Enter the two hosts you want to use.",
      };
    case "awaiting_dns":
      return {
        label: "Waiting for DNS records",
        tone: "amber",
        summary: domain.lastCheckedAt
          ? `None of the records below could be seen in DNS yet.${noAnswer}`
          : "The hosts are saved; their DNS records have not been checked yet.",
        next: `Create the records below at your DNS provider. ${automatic}`,
      };
    case "verifying":
      return {
        label: "Some records found",
        tone: "blue",
        summary: `${found} of ${checks.length || domain.dnsRecords.length} records can be seen; the others not yet. New records can take from a few minutes to a few hours to show.${noAnswer}`,
        next: `Check that the missing records below are in place. ${automatic}`,
      };
    case "active":
      return {
        label: "Active",
        tone: "green",
        summary: lookupFailed
          ? "Both hosts are served. The last check could not reach DNS; the domain stays active."
          : "Both hosts are served by this service.",
        next: "Nothing to do. Keep the records in place: if a check finds them gone, the hosts stop being served.",
      };
    case "invalid":
      if (domain.requiredAction === "contact_support") {
        return {
          label: "Cannot be activated",
          tone: "red",
          summary: domain.statusMessage ?? "A host has become one of this service's own hosts.",
          next: "Contact support, or remove the domain and set up other hosts.",
        };
      }
      return {
        label: "Wrong DNS record",
        tone: "red",
        summary: "A record has another value than the one expected (marked Wrong value below).",
        next: "Correct it at your DNS provider, then press Verify. Wrong records are not checked again by themselves.",
      };
  }
}

/** The steps of setting up a domain, and which one the domain is at (0-based; 3 = all done). */
export const DOMAIN_STEPS = ["Enter the hosts", "Create the DNS records", "Verify"] as const;

/**
 * A step is ticked only when it is done: the records are "created" when a check found every one
 * of them with its value (a check that ran and found them missing or wrong is not progress).
 */
export function domainStep(domain: TCustomDomain): number {
  if (domain.status === "unconfigured") return 0;
  if (domain.status === "active") return 3;
  return recordsFound(domain) === domain.dnsRecords.length && domain.dnsRecords.length > 0 ? 2 : 1;
}

/** How many of the domain's records the latest check found with the expected value. */
export function recordsFound(domain: TCustomDomain): number {
  const found = new Set((domain.dnsChecks ?? []).filter((c) => c.result === "found").map((c) => c.id));
  return domain.dnsRecords.filter((r) => found.has(r.id)).length;
}

export const CHECK_RESULT_LABEL: Record<NonNullable<TCustomDomain["dnsChecks"]>[number]["result"], string> = {
  found: "Found",
  missing: "Missing",
  wrong: "Wrong value",
  lookup_failed: "Not checked",
};

export const CHECK_RESULT_TONE: Record<keyof typeof CHECK_RESULT_LABEL, BadgeTone> = {
  found: "green",
  missing: "amber",
  wrong: "red",
  lookup_failed: "gray",
};
