// The webhook event types, read from the service's own list (lib/webhooks/event-types.ts), for the
// scripts that subscribe an app to every event (benchmark and fault scripts).
import "./typescript.mjs";

export const { EVENT_TYPES } = await import("../../lib/webhooks/event-types.ts");
