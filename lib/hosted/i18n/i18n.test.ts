import { describe, expect, it } from "vitest";
import { de } from "./de";
import { en } from "./en";
import { fr } from "./fr";
import { format, parseAcceptLanguage, pickLocale } from "./index";

function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe("hosted page languages", () => {
  it("the session locale wins, then Accept-Language in q order, then English", () => {
    expect(pickLocale("de-CH", "fr-FR,fr;q=0.9")).toBe("de");
    expect(pickLocale("it", "fr-BE;q=0.5, de;q=0.8")).toBe("de");
    expect(pickLocale(null, "es, fr;q=0.3")).toBe("fr");
    expect(pickLocale(null, "es, *;q=0.1")).toBe("en");
    expect(pickLocale(undefined, null)).toBe("en");
  });

  it("ignores languages with q=0", () => {
    expect(parseAcceptLanguage("de;q=0, fr")).toEqual(["fr"]);
  });

  it("every dictionary has every key of the English one, and no empty text", () => {
    const reference = keysOf(en).sort();
    for (const dict of [de, fr]) {
      expect(keysOf(dict).sort()).toEqual(reference);
      for (const key of reference) {
        const value = key.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], dict);
        expect(String(value).length, key).toBeGreaterThan(0);
      }
    }
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(format("Continue to {provider}", { provider: "DigiD" })).toBe("Continue to DigiD");
    expect(format("{a} {b}", { a: 1 })).toBe("1 {b}");
  });
});
