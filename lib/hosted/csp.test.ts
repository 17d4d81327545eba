import { describe, expect, it } from "vitest";
import { HOSTED_PATH, hostedCsp, newNonce } from "./csp";

describe("hosted page CSP", () => {
  it("allows scripts only with the nonce, never inline", () => {
    const nonce = newNonce();
    const csp = hostedCsp(nonce);
    const script = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(script).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(script).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("makes a fresh nonce each time and knows the hosted paths", () => {
    expect(newNonce()).not.toBe(newNonce());
    expect(newNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(HOSTED_PATH.test("/verify/ver_1")).toBe(true);
    expect(HOSTED_PATH.test("/sandbox/verify/ver_1")).toBe(true);
    expect(HOSTED_PATH.test("/verifyx")).toBe(false);
    expect(HOSTED_PATH.test("/api/sandbox/v1/apps")).toBe(false);
  });
});
