import { describe, expect, it } from "vitest";
import { z } from "zod";
import { page, pageOf } from "./pagination";

describe("page", () => {
  it("says whether rows remain after this page", () => {
    expect(page(["a", "b"], 5, 2, 0)).toEqual({
      data: ["a", "b"],
      total: 5,
      limit: 2,
      offset: 0,
      hasMore: true,
    });
    expect(page(["e"], 5, 2, 4).hasMore).toBe(false);
    expect(page([], 0, 20, 0).hasMore).toBe(false);
  });
});

describe("pageOf", () => {
  const ZItemPage = pageOf(z.object({ id: z.string() }));

  it("accepts what page() builds", () => {
    const built = page([{ id: "x" }], 3, 1, 1);
    expect(ZItemPage.parse(built)).toEqual(built);
  });

  it("checks the items and every total", () => {
    expect(ZItemPage.safeParse(page([{ id: 1 }], 1, 20, 0)).success).toBe(false);
    expect(ZItemPage.safeParse({ data: [], total: 1.5, limit: 20, offset: 0, hasMore: false }).success).toBe(
      false,
    );
    expect(ZItemPage.safeParse({ data: [], total: 0, limit: 20, offset: 0 }).success).toBe(false);
  });
});
