import { describe, expect, it } from "vitest";
import { share, testState } from "./format";
import type { TProductionTestItem } from "./queries";

const request = {
  id: "ptr_1",
  clientId: "app_1",
  status: "pending" as const,
  payload: { title: "T", providerIds: ["passport"], maxStampClaims: 3, targetPlatform: null },
  challengeId: null,
  failureReason: null,
  createdAt: "2030-01-01T00:00:00.000Z",
};
const challenge: Extract<TProductionTestItem, { type: "challenge" }>["challenge"] = {
  id: "chl_1",
  title: "T",
  description: null,
  expiresAt: "2030-02-01T00:00:00.000Z",
  createdAt: "2030-01-02T00:00:00.000Z",
  completedAt: null,
  isActive: true,
  challengeMode: "stamp",
  sponsor: null,
  sources: null,
};

function challengeItem(over: Partial<typeof challenge>): TProductionTestItem {
  return {
    type: "challenge",
    challenge: { ...challenge, ...over },
    request: { ...request, status: "scheduled", challengeId: "chl_1" },
  };
}

describe("testState", () => {
  it("names where a request stands", () => {
    expect(testState({ type: "request", challenge: null, request })).toBe("pending");
    expect(
      testState({
        type: "request",
        challenge: null,
        request: { ...request, status: "failed", failureReason: "x" },
      }),
    ).toBe("failed");
  });

  it("tells running, completed and expired challenges apart", () => {
    expect(testState(challengeItem({}))).toBe("active");
    expect(testState(challengeItem({ isActive: false, completedAt: "2030-01-03T00:00:00.000Z" }))).toBe(
      "completed",
    );
    expect(testState(challengeItem({ isActive: false }))).toBe("expired");
  });
});

describe("share", () => {
  it("is a whole percentage, capped at 100 and 0 for nothing to share", () => {
    expect(share(1, 3)).toBe(33);
    expect(share(2, 3)).toBe(67);
    expect(share(5, 3)).toBe(100);
    expect(share(0, 0)).toBe(0);
  });
});
