/** The event types of the spec, in lifecycle order. Apps subscribe to a subset. */
import { memberParser } from "../state-machine";

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

/** An event type of `apps.webhook_events` (an app's subscriptions) as read from its row. */
export const parseEventType = memberParser(EVENT_TYPES, "apps.webhook_events");
