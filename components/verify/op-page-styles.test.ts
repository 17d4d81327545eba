/**
 * The OP's pages' inline stylesheet is the Tailwind build of the files they are made of, and its
 * hash (the pages' CSP allows the stylesheet by it) is its own: a class added to the frame or the
 * pages without `npx tsx scripts/op-page-css.ts` would be missing from the pages, and a stale hash
 * would make browsers drop the whole stylesheet.
 */
import { describe, expect, it } from "vitest";
import { buildOpPageCss, cssSha256 } from "@/scripts/op-page-css";
import { OP_PAGE_CSS, OP_PAGE_CSS_SHA256 } from "./op-page-styles";

describe("the OP pages' stylesheet", () => {
  it("is up to date (regenerate: npx tsx scripts/op-page-css.ts)", async () => {
    expect(OP_PAGE_CSS).toBe(await buildOpPageCss());
  });

  it("is allowed by its own hash", () => {
    expect(OP_PAGE_CSS_SHA256).toBe(cssSha256(OP_PAGE_CSS));
    expect(OP_PAGE_CSS).not.toContain("</style");
  });

  it("styles what the frame and the pages use", () => {
    for (const rule of [
      ".max-w-xl{",
      ".bg-red-50{",
      ".rounded-md{",
      ".focus-visible\\:outline-2:focus-visible",
    ]) {
      expect(OP_PAGE_CSS).toContain(rule);
    }
  });
});
