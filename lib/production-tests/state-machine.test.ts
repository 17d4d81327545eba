import { describe, expect, it } from "vitest";
import { allowedFrom, isFinal, nextState } from "../state-machine";
import { REQUEST_STATUSES } from "./schema";
import { isChallengeActive, REQUEST_TRANSITIONS, type TRequestAction } from "./state-machine";

const nextRequestStatus = (status: string, action: TRequestAction) =>
  nextState(REQUEST_TRANSITIONS, status, action);

describe("production-test request state table", () => {
  it("moves only out of pending", () => {
    expect(nextRequestStatus("pending", "schedule")).toBe("scheduled");
    expect(nextRequestStatus("pending", "fail")).toBe("failed");
    for (const status of ["scheduled", "failed"]) {
      expect(nextRequestStatus(status, "schedule")).toBeUndefined();
      expect(nextRequestStatus(status, "fail")).toBeUndefined();
    }
  });

  it("knows no other states, not even inherited property names", () => {
    for (const action of ["schedule", "fail"] as const) {
      expect(allowedFrom(REQUEST_TRANSITIONS, action)).toEqual(["pending"]);
    }
    expect(REQUEST_STATUSES.filter((s) => isFinal(REQUEST_TRANSITIONS, s))).toEqual(["scheduled", "failed"]);
    expect(nextRequestStatus("unknown", "schedule")).toBeUndefined();
    expect(nextRequestStatus("constructor", "schedule")).toBeUndefined();
    expect(nextRequestStatus("__proto__", "fail")).toBeUndefined();
  });
});

describe("isChallengeActive", () => {
  const now = new Date("2030-01-01T00:00:00Z");
  it("is active until completed or expired", () => {
    expect(isChallengeActive({ completedAt: null, expiresAt: new Date("2030-01-02T00:00:00Z") }, now)).toBe(
      true,
    );
    expect(isChallengeActive({ completedAt: now, expiresAt: new Date("2030-01-02T00:00:00Z") }, now)).toBe(
      false,
    );
    expect(isChallengeActive({ completedAt: null, expiresAt: now }, now)).toBe(false);
    expect(isChallengeActive({ completedAt: null, expiresAt: new Date("2029-12-31T00:00:00Z") }, now)).toBe(
      false,
    );
  });
});
