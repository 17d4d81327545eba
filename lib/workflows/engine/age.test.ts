import { describe, expect, it } from "vitest";
import { ageOn, ageRange, isAtLeast } from "./age";

const at = (iso: string) => new Date(iso);

describe("ageRange", () => {
  it("counts whole years, turning over on the birthday itself", () => {
    expect(ageRange("2008-06-15", at("2026-06-14T23:59:59Z"))).toEqual({ min: 17, max: 17 });
    expect(ageRange("2008-06-15", at("2026-06-15T00:00:00Z"))).toEqual({ min: 18, max: 18 });
    expect(ageRange("2008-06-15", at("2026-06-16T00:00:00Z"))).toEqual({ min: 18, max: 18 });
    // month before / after the birth month
    expect(ageRange("2008-06-15", at("2026-05-31T12:00:00Z"))).toEqual({ min: 17, max: 17 });
    expect(ageRange("2008-06-15", at("2026-07-01T12:00:00Z"))).toEqual({ min: 18, max: 18 });
  });

  it("uses the UTC calendar date of now", () => {
    // 01:00 on the 15th at UTC+2 is still the 14th in UTC; 22:00 on the 14th at UTC−2 is the 15th
    expect(ageRange("2008-06-15", at("2026-06-15T01:00:00+02:00"))).toEqual({ min: 17, max: 17 });
    expect(ageRange("2008-06-15", at("2026-06-14T22:00:00-02:00"))).toEqual({ min: 18, max: 18 });
  });

  it("gives leap-day births their birthday on 1 March in common years", () => {
    expect(ageRange("2008-02-29", at("2026-02-28T12:00:00Z"))).toEqual({ min: 17, max: 17 });
    expect(ageRange("2008-02-29", at("2026-03-01T00:00:00Z"))).toEqual({ min: 18, max: 18 });
    // in a leap year on 29 February itself
    expect(ageRange("2008-02-29", at("2028-02-28T12:00:00Z"))).toEqual({ min: 19, max: 19 });
    expect(ageRange("2008-02-29", at("2028-02-29T00:00:00Z"))).toEqual({ min: 20, max: 20 });
  });

  it("handles now being a leap day for people born around it", () => {
    const leapDay = at("2024-02-29T12:00:00Z");
    expect(ageRange("2006-02-28", leapDay)).toEqual({ min: 18, max: 18 });
    expect(ageRange("2006-03-01", leapDay)).toEqual({ min: 17, max: 17 });
  });

  it("turns a year-only birthdate into the range of possible ages", () => {
    expect(ageRange("2008", at("2026-06-15T12:00:00Z"))).toEqual({ min: 17, max: 18 });
    expect(ageRange("2008", at("2026-12-31T00:00:00Z"))).toEqual({ min: 18, max: 18 });
    expect(ageRange("2008", at("2026-01-01T00:00:00Z"))).toEqual({ min: 17, max: 18 });
    expect(ageRange("2026", at("2026-06-15T12:00:00Z"))).toEqual({ min: 0, max: 0 });
  });

  it("has no age for unusable birthdates", () => {
    const now = at("2026-06-15T12:00:00Z");
    for (const bad of [
      undefined,
      null,
      19800101,
      "",
      "0000-05-03", // year withheld
      "0000",
      "2023-02-29", // not a leap year
      "2020-13-01",
      "2020-04-31",
      "2020-00-10",
      "2020-01-00",
      "1980/01/01",
      "01.01.1980",
      "1980-1-1",
      "1980-01-01T00:00:00Z",
      "2026-06-16", // tomorrow
      "2027",
    ])
      expect(ageRange(bad, now), String(bad)).toBeUndefined();
    expect(ageRange("2026-06-15", now)).toEqual({ min: 0, max: 0 });
    expect(ageRange("2020-02-29", now)).toEqual({ min: 6, max: 6 });
  });
});

describe("isAtLeast", () => {
  const now = at("2026-06-15T12:00:00Z");
  it("settles full birthdates", () => {
    expect(isAtLeast("2008-06-15", 18, now)).toBe(true);
    expect(isAtLeast("2008-06-16", 18, now)).toBe(false);
    expect(isAtLeast("1950-01-01", 18, now)).toBe(true);
  });
  it("settles year-only birthdates only when the whole year is on one side", () => {
    expect(isAtLeast("2007", 18, now)).toBe(true);
    expect(isAtLeast("2009", 18, now)).toBe(false);
    expect(isAtLeast("2008", 18, now)).toBe("undetermined");
  });
  it("is undefined without a usable birthdate", () => {
    expect(isAtLeast("not a date", 18, now)).toBeUndefined();
  });
  it("ageOn is negative before birth", () => {
    expect(ageOn({ year: 2027, month: 1, day: 1 }, now)).toBe(-1);
  });
});
