import { afterEach, describe, expect, it } from "vitest";
import { sessionClaimsOf, sessionEndsAt, signInClaims } from "./claims";

const NOW = 1_800_000_000_000; // ms
const HOUR = 3600;

describe("signInClaims", () => {
  it("sets the sign-in time and a random session id, and an operator's end", () => {
    const a = signInClaims({}, NOW);
    const b = signInClaims({ isOperator: true }, NOW);
    expect(a).toMatchObject({ signedInAt: NOW / 1000, signedInAtMs: NOW });
    expect(a.sid).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(b.sid).not.toBe(a.sid);
    expect(a.operatorExpiresAt).toBeUndefined();
    expect(b.operatorExpiresAt).toBe(NOW / 1000 + 2 * HOUR);
  });
});

describe("sessionClaimsOf", () => {
  const saved = process.env.IDV_CONSOLE_SESSION_MAX_HOURS;
  afterEach(() => {
    if (saved === undefined) delete process.env.IDV_CONSOLE_SESSION_MAX_HOURS;
    else process.env.IDV_CONSOLE_SESSION_MAX_HOURS = saved;
  });
  const signedInAt = NOW / 1000 - HOUR;
  const jwt = { sub: "usr_1", email: "a@example.test", signedInAt, sid: "abc", iat: NOW / 1000 };

  it("reads a live session's claims", () => {
    expect(sessionClaimsOf(jwt, NOW)).toEqual({
      userId: "usr_1",
      email: "a@example.test",
      signedInAt,
      sessionId: "abc",
    });
  });

  it("refuses a JWT without the sign-in claims (issued before them)", () => {
    expect(sessionClaimsOf({ sub: "usr_1", iat: NOW / 1000 }, NOW)).toBeUndefined();
    expect(sessionClaimsOf({ ...jwt, sid: undefined }, NOW)).toBeUndefined();
    expect(sessionClaimsOf({ ...jwt, signedInAt: String(signedInAt) }, NOW)).toBeUndefined();
  });

  it("ends a session at its absolute lifetime from sign-in, however fresh the JWT (7 days by default)", () => {
    delete process.env.IDV_CONSOLE_SESSION_MAX_HOURS;
    const old = { ...jwt, signedInAt: NOW / 1000 - 7 * 24 * HOUR, iat: NOW / 1000 };
    expect(sessionClaimsOf(old, NOW)).toBeUndefined();
    expect(sessionClaimsOf(old, NOW - 1000)).toBeDefined();
    process.env.IDV_CONSOLE_SESSION_MAX_HOURS = "0.5";
    expect(sessionClaimsOf(jwt, NOW)).toBeUndefined();
    expect(sessionEndsAt({ signedInAt })).toBe(signedInAt + 1800);
  });

  it("ends an operator's session at its own end", () => {
    expect(sessionClaimsOf({ ...jwt, operatorExpiresAt: NOW / 1000 + 60 }, NOW)).toMatchObject({
      operatorExpiresAt: NOW / 1000 + 60,
    });
    expect(sessionClaimsOf({ ...jwt, operatorExpiresAt: NOW / 1000 }, NOW)).toBeUndefined();
  });
});
