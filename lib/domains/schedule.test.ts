import { describe, expect, it } from "vitest";
import {
  GAVE_UP_MESSAGE,
  isPendingStatus,
  nextRecheckAt,
  RECHECK_GIVE_UP_DAYS,
  recheckDelayMs,
  scheduleAfterCheck,
  startRecheckSchedule,
} from "./schedule";

const MIN = 60_000;
const start = new Date("2026-11-24T10:00:00.000Z");
const at = (minutes: number) => new Date(start.getTime() + minutes * MIN);

describe("recheckDelayMs", () => {
  it("grows 1 min, 5 min, 15 min, 1 h, then stays at 6 h", () => {
    expect([0, 1, 2, 3, 4, 5, 40].map((n) => recheckDelayMs(n) / MIN)).toEqual([1, 5, 15, 60, 360, 360, 360]);
  });
});

describe("the schedule of a pending spell", () => {
  it("plans the first check a minute after configuring", () => {
    expect(startRecheckSchedule(start)).toEqual({
      nextCheckAt: at(1),
      autoChecks: 0,
      pendingSince: start,
      gaveUp: false,
    });
  });

  it("walks the delays with each automatic check and gives up after the last one inside 7 days", () => {
    let state = { status: "awaiting_dns", autoChecks: 0, pendingSince: start as Date | null };
    let now = start;
    let next: Date | null = startRecheckSchedule(start).nextCheckAt;
    const gaps: number[] = [];
    let checks = 0;
    while (next) {
      gaps.push((next.getTime() - now.getTime()) / MIN);
      now = next;
      checks++;
      const s = scheduleAfterCheck({ status: "awaiting_dns", previous: state, automatic: true, now });
      state = { status: "awaiting_dns", autoChecks: s.autoChecks, pendingSince: s.pendingSince };
      expect(s.autoChecks).toBe(checks);
      expect(s.pendingSince).toEqual(start);
      next = s.nextCheckAt;
      if (!next) expect(s.gaveUp).toBe(true);
    }
    expect(gaps.slice(0, 6)).toEqual([1, 5, 15, 60, 360, 360]);
    // the last check falls inside the window; the one after it would not
    const window = RECHECK_GIVE_UP_DAYS * 24 * 60;
    expect((now.getTime() - start.getTime()) / MIN).toBeLessThanOrEqual(window);
    expect((now.getTime() - start.getTime()) / MIN + 360).toBeGreaterThan(window);
    expect(checks).toBe(4 + Math.floor((window - 81) / 360));
  });

  it("does not plan a check beyond the window even when the worker ran late", () => {
    expect(nextRecheckAt(3, start, at(7 * 24 * 60 - 30))).toBeNull();
    expect(nextRecheckAt(3, start, at(7 * 24 * 60 - 60))).toEqual(at(7 * 24 * 60));
  });

  it("continues the spell from awaiting_dns to verifying", () => {
    const s = scheduleAfterCheck({
      status: "verifying",
      previous: { status: "awaiting_dns", autoChecks: 2, pendingSince: start },
      automatic: true,
      now: at(30),
    });
    expect(s).toEqual({ nextCheckAt: at(90), autoChecks: 3, pendingSince: start, gaveUp: false });
  });

  it("starts over after a verify by hand, also one that revives a given-up domain", () => {
    const now = at(8 * 24 * 60);
    const s = scheduleAfterCheck({
      status: "awaiting_dns",
      previous: { status: "awaiting_dns", autoChecks: 31, pendingSince: start },
      automatic: false,
      now,
    });
    expect(s).toEqual({
      nextCheckAt: new Date(now.getTime() + MIN),
      autoChecks: 0,
      pendingSince: now,
      gaveUp: false,
    });
  });

  it("starts a spell when a check takes an active or invalid domain back to pending", () => {
    const s = scheduleAfterCheck({
      status: "awaiting_dns",
      previous: { status: "active", autoChecks: 0, pendingSince: null },
      automatic: false,
      now: start,
    });
    expect(s.nextCheckAt).toEqual(at(1));
    expect(s.pendingSince).toEqual(start);
  });

  it.each(["active", "invalid"])("plans nothing once the domain is %s", (status) => {
    expect(
      scheduleAfterCheck({
        status,
        previous: { status: "verifying", autoChecks: 3, pendingSince: start },
        automatic: true,
        now: at(100),
      }),
    ).toEqual({ nextCheckAt: null, autoChecks: 0, pendingSince: null, gaveUp: false });
  });

  it("knows which states are pending and says when it stops", () => {
    expect(["unconfigured", "awaiting_dns", "verifying", "active", "invalid"].map(isPendingStatus)).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(GAVE_UP_MESSAGE).toContain(`${RECHECK_GIVE_UP_DAYS} days`);
  });
});
