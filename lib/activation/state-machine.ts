/**
 * The activation state machine of a provider for an app, as one explicit table.
 * Rules (spec, "Provider activation status"):
 * - a direct provider is activated on submission; a registration provider waits for operator
 *   review (activation_requested → activation_processing → activated | rejected);
 * - in the sandbox, `demo: true` takes registration and contract providers to
 *   activation_processing and a background job activates them about a second later;
 * - a contract provider without demo stays where it is (activated off-API: an operator records
 *   the signed contract);
 * - a rejected provider is resubmitted like a new one; an activated provider, or one under
 *   review, cannot be submitted again.
 * Every transition runs in one transaction with its audit record (see tickets.ts, submit.ts).
 */
import { ApiError, type ErrorCode, type ErrorDetail } from "../errors";
import { memberParser, type TTransitionTable } from "../state-machine";

export const ACTIVATION_STATUSES = [
  "not_activated",
  "activation_requested",
  "activation_processing",
  "rejected",
  "activated",
] as const;
export type TActivationStatus = (typeof ACTIVATION_STATUSES)[number];

/** States a ticket can be in (a ticket exists only once something was submitted). */
export const TICKET_STATUSES = [
  "activation_requested",
  "activation_processing",
  "rejected",
  "activated",
] as const;
export type TTicketStatus = (typeof TICKET_STATUSES)[number];

export type TActivationEvent =
  | "submit_direct"
  | "submit_registration"
  | "submit_demo"
  | "submit_contract"
  | "start_review"
  | "approve"
  | "reject"
  | "complete_demo"
  | "record_contract";

/** Who makes each move. */
export const ACTIVATION_EVENT_ACTORS: Readonly<
  Record<TActivationEvent, "integrator" | "operator" | "system">
> = {
  submit_direct: "integrator",
  submit_registration: "integrator",
  submit_demo: "integrator",
  submit_contract: "integrator",
  start_review: "operator",
  approve: "operator",
  reject: "operator",
  record_contract: "operator",
  complete_demo: "system",
};

export const ACTIVATION_TRANSITIONS: TTransitionTable<TActivationStatus, TActivationEvent> = {
  submit_direct: [{ from: ["not_activated", "rejected"], to: "activated" }],
  submit_registration: [{ from: ["not_activated", "rejected"], to: "activation_requested" }],
  submit_demo: [{ from: ["not_activated", "rejected"], to: "activation_processing" }],
  // a contract provider without demo stays where it is
  submit_contract: [
    { from: ["not_activated"], to: "not_activated" },
    { from: ["rejected"], to: "rejected" },
  ],
  start_review: [{ from: ["activation_requested"], to: "activation_processing" }],
  approve: [{ from: ["activation_processing"], to: "activated" }],
  reject: [{ from: ["activation_processing"], to: "rejected" }],
  record_contract: [{ from: ["not_activated", "rejected"], to: "activated" }],
  complete_demo: [{ from: ["activation_processing"], to: "activated" }],
};

/** `app_providers.status` as read from its row. */
export const parseActivationStatus = memberParser(ACTIVATION_STATUSES, "app_providers.status");

/** The activation status of a provider for an app: its row's, `not_activated` without a row. */
export function activationStatusOf(row: { status: string } | null | undefined): TActivationStatus {
  return row ? parseActivationStatus(row.status) : "not_activated";
}

/** `activation_tickets.status` as read from its row. */
export const parseTicketStatus = memberParser(TICKET_STATUSES, "activation_tickets.status");

/**
 * The code of a refused transition. ERROR_STATUS has no 409 for state conflicts yet, so this is a
 * 400 VALIDATION_ERROR naming the field; switching to a dedicated 409 code is this one line.
 */
export const STATE_CONFLICT_CODE: ErrorCode = "ACTIVATION_STATE_CONFLICT";

export function stateConflict(message: string, details: ErrorDetail[] = []): ApiError {
  return new ApiError(STATE_CONFLICT_CODE, message, { details });
}
