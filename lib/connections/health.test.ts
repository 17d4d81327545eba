/**
 * The pure parts of a connection's health (health.ts): 5-minute buckets, the latency histogram's
 * slots and the median estimated from it.
 */
import { describe, expect, it } from "vitest";
import { bucketStart, LATENCY_BOUNDS_MS, latencySlot, medianOf } from "./health";

const histogram = (counts: Record<number, number>) =>
  Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, (_, i) => counts[i + 1] ?? 0);

describe("connection health", () => {
  it("buckets by 5 minutes, in UTC", () => {
    expect(bucketStart(new Date("2026-11-29T10:07:59.999Z")).toISOString()).toBe("2026-11-29T10:05:00.000Z");
    expect(bucketStart(new Date("2026-11-29T10:10:00.000Z")).toISOString()).toBe("2026-11-29T10:10:00.000Z");
  });

  it("puts a latency in the first slot whose bound it does not exceed, the open one past the last", () => {
    expect(latencySlot(0)).toBe(1);
    expect(latencySlot(50)).toBe(1);
    expect(latencySlot(51)).toBe(2);
    expect(latencySlot(10_000)).toBe(LATENCY_BOUNDS_MS.length);
    expect(latencySlot(10_001)).toBe(LATENCY_BOUNDS_MS.length + 1);
  });

  it("estimates the median within its bucket, never above the maximum", () => {
    expect(medianOf(histogram({}), 0)).toBeNull();
    // one sign-in of 80 ms: slot 2 (50–100], its upper bound capped by the maximum: 50 + 30 / 2
    expect(medianOf(histogram({ 2: 1 }), 80)).toBe(65);
    // 3 fast (≤ 50 ms), 1 slow: the median is among the fast ones
    expect(medianOf(histogram({ 1: 3, 9: 1 }), 1800)).toBeLessThanOrEqual(50);
    // past the last bound: between 10 s and the maximum
    const slow = medianOf(histogram({ [LATENCY_BOUNDS_MS.length + 1]: 2 }), 30_000)!;
    expect(slow).toBeGreaterThan(10_000);
    expect(slow).toBeLessThanOrEqual(30_000);
    // a maximum below the bucket's upper bound caps the interpolation
    expect(medianOf(histogram({ 7: 1 }), 760)).toBeLessThanOrEqual(760);
  });
});
