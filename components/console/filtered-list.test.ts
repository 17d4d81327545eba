import { describe, expect, it } from "vitest";
import { filterParams } from "./filtered-list";

describe("filterParams", () => {
  it("passes the filters that are set and leaves the empty ones out", () => {
    expect(filterParams({ actorId: "usr_1", action: "", from: "2026-01-01" })).toEqual({
      actorId: "usr_1",
      action: undefined,
      from: "2026-01-01",
    });
  });

  it("keeps the filters' order (the query string's)", () => {
    expect(Object.keys(filterParams({ b: "1", a: "2" }))).toEqual(["b", "a"]);
  });
});
