/**
 * The event types of lib/webhooks/event-types.ts as the Webhooks tab offers them: grouped by what
 * they tell the integrator, each with a one-line description. A unit test keeps the groups and
 * the list in step.
 */
import type { TEventType } from "@/lib/webhooks/event-types";

export interface TEventGroup {
  id: string;
  label: string;
  description: string;
  events: { type: TEventType; description: string }[];
}

export const EVENT_GROUPS: TEventGroup[] = [
  {
    id: "session",
    label: "Session lifecycle",
    description: "A verification session is opened and its workflow starts.",
    events: [
      { type: "verification.created", description: "A session was created through the API or a sign-in." },
      {
        type: "verification.requested",
        description: "The session was requested: channel, flow type and redirect URI are known.",
      },
      { type: "verification.workflow.started", description: "The app's workflow started for the session." },
    ],
  },
  {
    id: "authentication",
    label: "User authentication",
    description: "The end-user authenticates with the identity provider.",
    events: [
      {
        type: "verification.user.authentication_started",
        description: "The end-user started authenticating with the provider.",
      },
      {
        type: "verification.user.authentication_succeeded",
        description: "The provider confirmed the end-user's identity; workflow checks follow.",
      },
      {
        type: "verification.user.authentication_failed",
        description: "The provider reported a failed or aborted authentication.",
      },
    ],
  },
  {
    id: "outcome",
    label: "Outcome",
    description: "How the session ended. Most integrations need only these.",
    events: [
      { type: "verification.completed", description: "The verification succeeded: its result can be read." },
      {
        type: "verification.failed",
        description: "The verification failed: authentication or a workflow check.",
      },
      { type: "verification.workflow.cancelled", description: "The session was cancelled." },
      { type: "verification.session.timed_out", description: "The session expired before it ended." },
    ],
  },
];
