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
import { ApiError, type ErrorCode, type ErrorDetail } from "../http/errors";

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

export interface TTransition {
  event: TActivationEvent;
  from: TActivationStatus;
  to: TActivationStatus;
  /** who moves it */
  by: "integrator" | "operator" | "system";
}

export const ACTIVATION_TRANSITIONS: readonly TTransition[] = [
  { event: "submit_direct", from: "not_activated", to: "activated", by: "integrator" },
  { event: "submit_direct", from: "rejected", to: "activated", by: "integrator" },
  { event: "submit_registration", from: "not_activated", to: "activation_requested", by: "integrator" },
  { event: "submit_registration", from: "rejected", to: "activation_requested", by: "integrator" },
  { event: "submit_demo", from: "not_activated", to: "activation_processing", by: "integrator" },
  { event: "submit_demo", from: "rejected", to: "activation_processing", by: "integrator" },
  { event: "submit_contract", from: "not_activated", to: "not_activated", by: "integrator" },
  { event: "submit_contract", from: "rejected", to: "rejected", by: "integrator" },
  { event: "start_review", from: "activation_requested", to: "activation_processing", by: "operator" },
  { event: "approve", from: "activation_processing", to: "activated", by: "operator" },
  { event: "reject", from: "activation_processing", to: "rejected", by: "operator" },
  { event: "record_contract", from: "not_activated", to: "activated", by: "operator" },
  { event: "record_contract", from: "rejected", to: "activated", by: "operator" },
  { event: "complete_demo", from: "activation_processing", to: "activated", by: "system" },
];

export function isActivationStatus(value: unknown): value is TActivationStatus {
  return typeof value === "string" && (ACTIVATION_STATUSES as readonly string[]).includes(value);
}

/** The state `event` leads to from `from`, or undefined when the table has no such move. */
export function nextStatus(from: string, event: TActivationEvent): TActivationStatus | undefined {
  return ACTIVATION_TRANSITIONS.find((t) => t.from === from && t.event === event)?.to;
}

/** The states from which `event` is allowed (for error messages). */
export function allowedFrom(event: TActivationEvent): TActivationStatus[] {
  return ACTIVATION_TRANSITIONS.filter((t) => t.event === event).map((t) => t.from);
}

/**
 * The code of a refused transition. ERROR_STATUS has no 409 for state conflicts yet, so this is a
 * 400 VALIDATION_ERROR naming the field; switching to a dedicated 409 code is this one line.
 */
export const STATE_CONFLICT_CODE: ErrorCode = "ACTIVATION_STATE_CONFLICT";

export function stateConflict(message: string, details: ErrorDetail[] = []): ApiError {
  return new ApiError(STATE_CONFLICT_CODE, message, { details });
}
