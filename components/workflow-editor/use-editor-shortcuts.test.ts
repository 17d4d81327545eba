import { describe, expect, it } from "vitest";
import { shortcutOf } from "./use-editor-shortcuts";

const key = (
  k: string,
  mods: Partial<Record<"ctrlKey" | "metaKey" | "altKey" | "shiftKey", boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe("shortcutOf", () => {
  it("reads undo, redo, copy and paste with Ctrl or ⌘", () => {
    expect(shortcutOf(key("z", { ctrlKey: true }))).toBe("undo");
    expect(shortcutOf(key("z", { metaKey: true }))).toBe("undo");
    expect(shortcutOf(key("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(shortcutOf(key("y", { metaKey: true }))).toBe("redo");
    expect(shortcutOf(key("c", { ctrlKey: true }))).toBe("copy");
    expect(shortcutOf(key("V", { metaKey: true, shiftKey: true }))).toBe("paste");
  });

  it("ignores keys without Ctrl/⌘, with Alt, and other keys", () => {
    expect(shortcutOf(key("z"))).toBeNull();
    expect(shortcutOf(key("z", { shiftKey: true }))).toBeNull();
    expect(shortcutOf(key("z", { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutOf(key("s", { ctrlKey: true }))).toBeNull();
  });
});
