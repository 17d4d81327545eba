import { describe, expect, it } from "vitest";
import { EVENT_TYPES, parseEventType } from "./event-types";

describe("parseEventType", () => {
  it("reads every event type an app can subscribe to", () => {
    for (const type of EVENT_TYPES) expect(parseEventType(type)).toBe(type);
  });

  it("refuses a stored value outside the list, naming the column and the value", () => {
    expect(() => parseEventType("verification.exploded")).toThrow(
      /apps\.webhook_events.*verification\.exploded/,
    );
    expect(() => parseEventType("webhook.test")).toThrow(/apps\.webhook_events/);
  });
});
