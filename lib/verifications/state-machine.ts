/**
 * The verification state machine (explicit table). States:
 * - awaiting_user_action: created, waiting for the end-user to start (hosted page / API channel);
 * - authenticating: the end-user reached the identity provider;
 * - processing: the provider answered successfully; the workflow's checks run;
 * - completed: verified; claims available through userinfo (terminal);
 * - failed: authentication failed, provider error, or a workflow check rejected it (terminal);
 * - cancelled: cancelled by the integrator (DELETE) or the end-user (terminal);
 * - expired: the session TTL passed before a terminal state (terminal).
 */
import { memberGuard, memberParser, type TTransitionTable } from "../state-machine";

export const VERIFICATION_STATES = [
  "awaiting_user_action",
  "authenticating",
  "processing",
  "completed",
  "failed",
  "cancelled",
  "expired",
] as const;
export type TVerificationState = (typeof VERIFICATION_STATES)[number];

/** `verifications.status` as read from its row. */
export const parseVerificationState = memberParser(VERIFICATION_STATES, "verifications.status");
export const isVerificationState = memberGuard(VERIFICATION_STATES);

export const TERMINAL_STATES: ReadonlySet<TVerificationState> = new Set([
  "completed",
  "failed",
  "cancelled",
  "expired",
]);

export type TVerificationTransition =
  | "start_authentication"
  | "authentication_succeeded"
  | "authentication_failed"
  | "complete"
  | "reject"
  | "cancel"
  | "expire";

export const VERIFICATION_TRANSITIONS: TTransitionTable<TVerificationState, TVerificationTransition> = {
  start_authentication: [{ from: ["awaiting_user_action", "authenticating"], to: "authenticating" }],
  authentication_succeeded: [{ from: ["awaiting_user_action", "authenticating"], to: "processing" }],
  authentication_failed: [{ from: ["awaiting_user_action", "authenticating"], to: "failed" }],
  complete: [{ from: ["processing"], to: "completed" }],
  reject: [{ from: ["processing"], to: "failed" }],
  cancel: [{ from: ["awaiting_user_action", "authenticating", "processing"], to: "cancelled" }],
  expire: [{ from: ["awaiting_user_action", "authenticating", "processing"], to: "expired" }],
};

const TERMINAL: ReadonlySet<string> = TERMINAL_STATES;

export function isTerminal(state: string): boolean {
  return TERMINAL.has(state);
}
