import { describe, expect, it } from "vitest";
import { filterParams, pageQuery } from "./paged-list";

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

describe("pageQuery", () => {
  it("asks for the page, then the filters that are set, then the caller's parameters", () => {
    const query = pageQuery({ offset: 40, limit: 20 }, { status: "failed", q: "" }, { search: "shop" });
    expect(query).toEqual({ limit: 20, offset: 40, status: "failed", q: undefined, search: "shop" });
    expect(Object.keys(query)).toEqual(["limit", "offset", "status", "q", "search"]);
  });

  it("is just the page for a list without filters or parameters", () => {
    expect(pageQuery({ offset: 0, limit: 100 }, {})).toEqual({ limit: 100, offset: 0 });
  });
});
