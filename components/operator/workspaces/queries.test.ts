import { describe, expect, it } from "vitest";
import { failedDeliveries } from "./queries";

describe("failedDeliveries", () => {
  it("says there were none, or how many of how many failed", () => {
    expect(failedDeliveries({ deliveries: 0, dead: 0 })).toBe("no deliveries");
    expect(failedDeliveries({ deliveries: 40, dead: 3 })).toBe("3 of 40 failed");
    expect(failedDeliveries({ deliveries: 40, dead: 0 }, "deliveries")).toBe("0 of 40 deliveries failed");
    expect(failedDeliveries({ deliveries: 0, dead: 0 }, "deliveries")).toBe("no deliveries");
  });
});
