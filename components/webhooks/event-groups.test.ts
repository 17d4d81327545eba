import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { EVENT_GROUPS } from "./event-groups";

describe("EVENT_GROUPS", () => {
  it("offers every event type exactly once, in lifecycle order", () => {
    const offered = EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.type));
    expect(offered).toEqual([...EVENT_TYPES]);
  });

  it("describes every event and group", () => {
    for (const group of EVENT_GROUPS) {
      expect(group.label).not.toBe("");
      expect(group.description).not.toBe("");
      for (const event of group.events) expect(event.description).toMatch(/\.$/);
    }
  });
});
