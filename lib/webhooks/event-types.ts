/** The event types of the spec, in lifecycle order. Apps subscribe to a subset. */
export const EVENT_TYPES = [
  "verification.created",
  "verification.requested",
  "verification.workflow.started",
  "verification.user.authentication_started",
  "verification.user.authentication_succeeded",
  "verification.user.authentication_failed",
  "verification.completed",
  "verification.failed",
  "verification.workflow.cancelled",
  "verification.session.timed_out",
] as const;

export type TEventType = (typeof EVENT_TYPES)[number];
