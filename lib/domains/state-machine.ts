/**
 * The custom domain state machine, as one explicit table: event → (from states, next state and
 * the action the integrator has to take). A pair missing from the table is an illegal transition.
 * Rules:
 * - configure (PUT) is only legal from `unconfigured`; a configured domain is deleted first;
 * - each verify classifies the DNS answers into one event (classifyDnsChecks) and moves by it, from
 *   every configured state alike, so the status always follows what DNS says now (an active
 *   domain whose records were removed stops being active);
 * - a DNS failure (timeout, unreachable or failing name server) is not an answer: the state stays
 *   and the action becomes `retry`;
 * - `contact_support` is only for what the integrator cannot fix: a host that has since become a
 *   host of the service itself, or a host that another app's domain holds because it proved
 *   ownership first (`host_taken`: only an active domain holds its hosts, see lib/domains/claims.ts);
 * - delete is legal from every configured state and returns to `unconfigured` (the row goes).
 */
import { memberParser, type TTransitionTable } from "../state-machine";

export const DOMAIN_STATUSES = ["unconfigured", "awaiting_dns", "verifying", "active", "invalid"] as const;
export type TDomainStatus = (typeof DOMAIN_STATUSES)[number];
/** `custom_domains.status` as read from its row. */
export const parseDomainStatus = memberParser(DOMAIN_STATUSES, "custom_domains.status");

export const REQUIRED_ACTIONS = [
  "none",
  "add_cname",
  "waiting",
  "verify",
  "contact_support",
  "retry",
] as const;
export type TRequiredAction = (typeof REQUIRED_ACTIONS)[number];
/** `custom_domains.required_action` as read from its row. */
export const parseRequiredAction = memberParser(REQUIRED_ACTIONS, "custom_domains.required_action");

export const DOMAIN_EVENTS = [
  "configure",
  // verify outcomes
  "dns_missing", // none of the records is there
  "dns_partial", // some are there and right, the others not there (yet)
  "dns_complete", // every required record is there and right
  "dns_wrong", // at least one record is there with a wrong value
  "dns_unreachable", // a lookup timed out or the name server failed: no answer
  "host_reserved", // a host is now one of the service's own
  "host_taken", // another app's domain is active on a host (it proved ownership first)
  "delete",
] as const;
export type TDomainEvent = (typeof DOMAIN_EVENTS)[number];

export interface TDomainTransition {
  status: TDomainStatus;
  requiredAction: TRequiredAction;
}

const to = (status: TDomainStatus, requiredAction: TRequiredAction): TDomainTransition => ({
  status,
  requiredAction,
});

/** The states of a domain that exists (a row); `unconfigured` is the absence of one. */
export const CONFIGURED_STATUSES = [
  "awaiting_dns",
  "verifying",
  "active",
  "invalid",
] as const satisfies readonly TDomainStatus[];

export const DOMAIN_TRANSITIONS: TTransitionTable<TDomainStatus, TDomainEvent, TDomainTransition> = {
  configure: [{ from: ["unconfigured"], to: to("awaiting_dns", "add_cname") }],
  dns_missing: [{ from: CONFIGURED_STATUSES, to: to("awaiting_dns", "add_cname") }],
  dns_partial: [{ from: CONFIGURED_STATUSES, to: to("verifying", "waiting") }],
  dns_complete: [{ from: CONFIGURED_STATUSES, to: to("active", "none") }],
  dns_wrong: [{ from: CONFIGURED_STATUSES, to: to("invalid", "retry") }],
  // no answer: the state stays, only the action changes
  dns_unreachable: CONFIGURED_STATUSES.map((status) => ({ from: [status], to: to(status, "retry") })),
  host_reserved: [{ from: CONFIGURED_STATUSES, to: to("invalid", "contact_support") }],
  host_taken: [{ from: CONFIGURED_STATUSES, to: to("invalid", "contact_support") }],
  delete: [{ from: CONFIGURED_STATUSES, to: to("unconfigured", "none") }],
};

export class IllegalDomainTransition extends Error {
  constructor(
    readonly from: string,
    readonly event: TDomainEvent,
  ) {
    super(`Custom domain: "${event}" is not possible in state "${from}"`);
    this.name = "IllegalDomainTransition";
  }
}

/** The refusal of a move the table does not have (for `transition`). */
export const illegalDomainTransition = (from: string, event: TDomainEvent): IllegalDomainTransition =>
  new IllegalDomainTransition(from, event);

/** The result of looking up one expected DNS record. */
export type TRecordCheckState = "ok" | "missing" | "wrong" | "unreachable";

/** Which verify event a set of record checks amounts to (see DOMAIN_EVENTS). */
export function classifyDnsChecks(checks: readonly { state: TRecordCheckState; required: boolean }[]) {
  const required = checks.filter((c) => c.required);
  // a wrong record is a definite answer even when another lookup failed
  if (checks.some((c) => c.state === "wrong")) return "dns_wrong" as const;
  if (checks.some((c) => c.state === "unreachable")) return "dns_unreachable" as const;
  if (required.every((c) => c.state === "ok")) return "dns_complete" as const;
  if (checks.some((c) => c.state === "ok")) return "dns_partial" as const;
  return "dns_missing" as const;
}
