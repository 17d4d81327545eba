import { describe, expect, it } from "vitest";
import { findUnsafeText, isSafeText, printableText } from "./safe-text";

describe("isSafeText", () => {
  it("accepts ordinary text, paired surrogates (emoji) and other control characters", () => {
    for (const s of [
      "",
      "Example GmbH",
      "Zoë 😀 名前",
      "tab\there",
      "\u0001\u001f\u007f",
      "\uFFFD",
      "\uD83D\uDE00",
    ]) {
      expect(isSafeText(s), JSON.stringify(s)).toBe(true);
    }
  });

  it("refuses U+0000 and unpaired surrogates anywhere", () => {
    for (const s of [
      "\u0000",
      "a\u0000",
      "\u0000b",
      "\uD800",
      "a\uD800b",
      "\uDC00",
      "x\uDE00",
      "\uDE00\uD83D",
      "😀\uD83D",
    ]) {
      expect(isSafeText(s), JSON.stringify(s)).toBe(false);
    }
  });
});

describe("printableText", () => {
  it("writes NULs and unpaired surrogates as \\uXXXX and leaves the rest", () => {
    expect(printableText("a\u0000b")).toBe("a\\u0000b");
    expect(printableText("x\uD800y😀")).toBe("x\\ud800y😀");
    expect(isSafeText(printableText("\uDC00\u0000"))).toBe(true);
  });
});

describe("findUnsafeText", () => {
  it("names the path of the first unsafe value or key, in the error envelope's notation", () => {
    expect(findUnsafeText({ name: "ok", tags: ["a", 1, null, true] })).toBeUndefined();
    expect(findUnsafeText({ name: "a\u0000" })).toBe("name");
    expect(findUnsafeText({ apps: [{ name: "x" }, { name: "\uD800" }] })).toBe("apps[1].name");
    expect(findUnsafeText({ matchData: { "given\u0000name": "x" } })).toBe("matchData.given\\u0000name");
    expect(findUnsafeText("\u0000")).toBe("(body)");
    expect(findUnsafeText({ search: "\u0000" }, "query")).toBe("query.search");
  });

  it("walks any depth without recursion", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeText(deep)).toBe(`${"[0]".repeat(100_000)}`);
  });
});
