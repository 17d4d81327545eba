import { afterEach, describe, expect, it, vi } from "vitest";
import { isId, newId, PATH_ID_PARAMS, randomToken, type IdPrefix } from "./index";

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/; // Crockford base32: no I, L, O, U

describe("newId", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is the prefix, an underscore and a 26-character ULID", () => {
    for (const prefix of ["ws", "app", "wf", "act", "ver", "evt", "req"] satisfies IdPrefix[]) {
      const id = newId(prefix);
      const [head, tail, ...rest] = id.split("_");
      expect(head).toBe(prefix);
      expect(rest).toEqual([]);
      expect(tail).toMatch(ULID);
    }
  });

  it("is unique", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newId("app")));
    expect(ids.size).toBe(2000);
  });

  it("sorts by creation time", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const first = newId("evt");
    vi.setSystemTime(new Date("2026-01-01T00:00:00.001Z"));
    const second = newId("evt");
    vi.setSystemTime(new Date("2030-06-01T12:00:00Z"));
    const third = newId("evt");
    expect([third, first, second].sort()).toEqual([first, second, third]);
  });
});

describe("randomToken", () => {
  it("has exactly the requested length", () => {
    for (const length of [0, 1, 40, 43, 64, 257]) expect(randomToken(length)).toHaveLength(length);
  });

  it("uses only [A-Za-z0-9], and all of it", () => {
    const sample = Array.from({ length: 500 }, () => randomToken(40)).join("");
    expect(sample).toMatch(/^[A-Za-z0-9]+$/);
    // 20 000 characters over 62 symbols: every symbol appears (the chance one is missing is ~1e-140)
    expect(new Set(sample).size).toBe(62);
  });

  it("does not repeat", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken(20)));
    expect(tokens.size).toBe(1000);
  });
});

describe("isId", () => {
  it("accepts exactly what newId makes, of the named kind", () => {
    for (const prefix of ["ws", "app", "wf", "wfc", "ver", "key", "dlv"] satisfies IdPrefix[]) {
      expect(isId(prefix, newId(prefix))).toBe(true);
    }
    expect(isId("app", newId("ver"))).toBe(false);
    expect(isId("wf", newId("wfc"))).toBe(false);
  });

  it("refuses anything else: NUL, padding, lowercase, wrong length, excluded letters, paths", () => {
    const id = newId("app");
    for (const bad of [
      "",
      "app_",
      "app_\u0000",
      `${id}\u0000`,
      `\u0000${id}`,
      ` ${id}`,
      `${id}\n`,
      id.toLowerCase(),
      id.slice(0, -1),
      `${id}0`,
      `app_${"I".repeat(26)}`,
      `app_${"U".repeat(26)}`,
      `app_..%2F${id.slice(4)}`,
      `APP_${id.slice(4)}`,
      "x".repeat(10_000),
    ]) {
      expect(isId("app", bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it("names a kind for every id path parameter", () => {
    for (const { prefix } of Object.values(PATH_ID_PARAMS)) expect(isId(prefix, newId(prefix))).toBe(true);
  });
});
