import { describe, expect, it } from "vitest";
import { isTestSignInRelayState, newTestRelayState } from "./test-sign-in-hand-offs";

describe("a form post's RelayState", () => {
  it("is short, random and recognised by its prefix", () => {
    const relayState = newTestRelayState();
    expect(relayState).toMatch(/^t\.[A-Za-z0-9_-]{32}$/);
    expect(Buffer.byteLength(relayState)).toBeLessThanOrEqual(80);
    expect(newTestRelayState()).not.toBe(relayState);
    expect(isTestSignInRelayState(relayState)).toBe(true);
    expect(isTestSignInRelayState("ver_0123456789")).toBe(false);
    expect(isTestSignInRelayState(undefined)).toBe(false);
  });
});
