import { describe, expect, it } from "vitest";
import { isValidCodeChallenge, isValidCodeVerifier, s256Challenge, verifyCodeVerifier } from "./pkce";

// RFC 7636 Appendix B
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("PKCE S256", () => {
  it("computes the RFC 7636 example challenge", () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
  });

  it("accepts the matching verifier only", () => {
    expect(verifyCodeVerifier(CHALLENGE, VERIFIER)).toBe(true);
    expect(verifyCodeVerifier(CHALLENGE, VERIFIER.replace("d", "e"))).toBe(false);
    // the plain method (verifier == challenge) is not S256
    expect(verifyCodeVerifier(CHALLENGE, CHALLENGE)).toBe(false);
  });

  it.each([
    ["too short", "a".repeat(42)],
    ["too long", "a".repeat(129)],
    ["characters outside the unreserved set", `${"a".repeat(42)}+`],
    ["empty", ""],
  ])("refuses a verifier that is %s", (_why, verifier) => {
    expect(isValidCodeVerifier(verifier)).toBe(false);
    expect(verifyCodeVerifier(s256Challenge(verifier), verifier)).toBe(false);
  });

  it("accepts verifiers of 43 and 128 characters", () => {
    for (const verifier of ["a".repeat(43), "Z~._-9".repeat(21) + "ab"]) {
      expect(isValidCodeVerifier(verifier)).toBe(true);
      expect(verifyCodeVerifier(s256Challenge(verifier), verifier)).toBe(true);
    }
  });

  it("knows what an S256 challenge looks like", () => {
    expect(isValidCodeChallenge(CHALLENGE)).toBe(true);
    expect(isValidCodeChallenge(`${CHALLENGE}=`)).toBe(false);
    expect(isValidCodeChallenge(CHALLENGE.slice(1))).toBe(false);
    expect(isValidCodeChallenge(CHALLENGE.replace("-", "+"))).toBe(false);
  });
});
