import { describe, expect, it } from "vitest";
import { applyCreationDefaults, normalizeNodes } from "./defaults";

describe("normalizeNodes", () => {
  it("drops null links and configs and keeps what is set", () => {
    expect(
      normalizeNodes([
        { id: "a", type: "request", next: "b", then: null, else: null, config: null },
        { id: "b", type: "response", next: null },
        { id: "c", type: "if", then: "a", else: "b", config: { condition: {} } },
      ]),
    ).toEqual([
      { id: "a", type: "request", next: "b" },
      { id: "b", type: "response" },
      { id: "c", type: "if", then: "a", else: "b", config: { condition: {} } },
    ]);
  });
});

describe("applyCreationDefaults", () => {
  it("sets branding.useAppBranding to true on verification nodes when not given", () => {
    const out = applyCreationDefaults([
      { id: "v1", type: "verification", config: { channel: "oidc" } },
      { id: "v2", type: "verification", config: { branding: { name: "Shop" } } },
      { id: "v3", type: "verification" },
    ]);
    expect(out.map((n) => n.config?.branding)).toEqual([
      { useAppBranding: true },
      { name: "Shop", useAppBranding: true },
      { useAppBranding: true },
    ]);
    expect(out[0]!.config!.channel).toBe("oidc");
  });

  it("keeps an explicit value and leaves other nodes and malformed branding alone", () => {
    const input = [
      { id: "v", type: "verification", config: { branding: { useAppBranding: false } } },
      { id: "bad", type: "verification", config: { branding: "app" } },
      { id: "r", type: "response" },
    ];
    expect(applyCreationDefaults(input)).toEqual(input);
  });
});
