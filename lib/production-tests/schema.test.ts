import { describe, expect, it } from "vitest";
import {
  ZCreateProductionTest,
  ZFailProductionTest,
  ZOperatorListQuery,
  ZScheduleProductionTest,
} from "./schema";

describe("ZCreateProductionTest", () => {
  const valid = { title: " T ", providerIds: ["passport"], maxStampClaims: 1 };
  it("trims the title and leaves targetPlatform optional", () => {
    expect(ZCreateProductionTest.parse(valid)).toEqual({
      title: "T",
      providerIds: ["passport"],
      maxStampClaims: 1,
    });
    expect(ZCreateProductionTest.parse({ ...valid, targetPlatform: "android" }).targetPlatform).toBe(
      "android",
    );
    expect(ZCreateProductionTest.parse({ ...valid, targetPlatform: null }).targetPlatform).toBeNull();
  });

  it("bounds every field", () => {
    expect(ZCreateProductionTest.safeParse({ ...valid, title: "x".repeat(200) }).success).toBe(true);
    expect(ZCreateProductionTest.safeParse({ ...valid, title: "x".repeat(201) }).success).toBe(false);
    expect(ZCreateProductionTest.safeParse({ ...valid, providerIds: Array(20).fill("p") }).success).toBe(
      true,
    );
    expect(ZCreateProductionTest.safeParse({ ...valid, providerIds: Array(21).fill("p") }).success).toBe(
      false,
    );
    expect(ZCreateProductionTest.safeParse({ ...valid, maxStampClaims: 100_000 }).success).toBe(true);
    expect(ZCreateProductionTest.safeParse({ ...valid, maxStampClaims: 100_001 }).success).toBe(false);
    expect(ZCreateProductionTest.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });
});

describe("ZScheduleProductionTest", () => {
  it("accepts no body, date-times with an offset, and any JSON sponsor", () => {
    expect(ZScheduleProductionTest.parse(undefined)).toBeUndefined();
    expect(ZScheduleProductionTest.safeParse({ expiresAt: "2030-01-01T10:00:00+02:00" }).success).toBe(true);
    expect(ZScheduleProductionTest.safeParse({ sponsor: "Acme" }).success).toBe(true);
    expect(ZScheduleProductionTest.safeParse({ expiresAt: "2030-01-01" }).success).toBe(false);
  });
});

describe("ZFailProductionTest", () => {
  it("requires a non-blank reason of at most 500 characters", () => {
    expect(ZFailProductionTest.parse({ reason: " why " })).toEqual({ reason: "why" });
    expect(ZFailProductionTest.safeParse({ reason: " " }).success).toBe(false);
    expect(ZFailProductionTest.safeParse({ reason: "x".repeat(501) }).success).toBe(false);
  });
});

describe("ZOperatorListQuery", () => {
  it("defaults to pending, 50 per page", () => {
    expect(ZOperatorListQuery.parse({})).toEqual({ status: "pending", limit: 50, offset: 0 });
    expect(ZOperatorListQuery.safeParse({ status: "done" }).success).toBe(false);
  });
});
