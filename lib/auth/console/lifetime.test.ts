import { describe, expect, it } from "vitest";
import { endedForAllSessions, sessionEndedBy } from "./lifetime";

describe("endedForAllSessions", () => {
  const signedInAt = 1_700_000_000; // seconds

  it("keeps sessions when no one ended them", () => {
    expect(endedForAllSessions(null, signedInAt)).toBe(false);
  });

  it("ends the sessions signed in before the second the change starts", () => {
    // a change during second `signedInAt` starts the next second: the session of that second ends
    expect(endedForAllSessions(new Date((signedInAt + 1) * 1000), signedInAt)).toBe(true);
    expect(endedForAllSessions(new Date((signedInAt + 60) * 1000), signedInAt)).toBe(true);
  });

  it("keeps sessions signed in in or after that second", () => {
    expect(endedForAllSessions(new Date(signedInAt * 1000), signedInAt)).toBe(false);
    expect(endedForAllSessions(new Date((signedInAt + 1) * 1000), signedInAt + 1)).toBe(false);
    expect(endedForAllSessions(new Date((signedInAt - 5) * 1000), signedInAt)).toBe(false);
  });
});

describe("endedForAllSessions with the sign-in time in milliseconds", () => {
  const signedInAtMs = 1_700_000_000_400;
  const signedInAt = Math.floor(signedInAtMs / 1000);

  it("ends a session signed in before the change, in the same second too", () => {
    expect(endedForAllSessions(new Date(signedInAtMs + 1), signedInAt, signedInAtMs)).toBe(true);
    expect(endedForAllSessions(new Date(signedInAtMs), signedInAt, signedInAtMs)).toBe(true);
  });

  it("keeps a session signed in right after the change, in the same second (a sign-in after a reset)", () => {
    expect(endedForAllSessions(new Date(signedInAtMs - 1), signedInAt, signedInAtMs)).toBe(false);
    expect(endedForAllSessions(new Date(signedInAt * 1000), signedInAt, signedInAtMs)).toBe(false);
  });
});

describe("sessionEndedBy", () => {
  const claims = { userId: "usr_1", email: "a@example.test", signedInAt: 1_700_000_000, sessionId: "s" };

  it("is live while neither revoked nor ended for all sessions", () => {
    expect(sessionEndedBy(claims, { sessionsValidFrom: null, revoked: false })).toBeUndefined();
  });

  it("names a revoked session and one ended with all the user's sessions", () => {
    expect(sessionEndedBy(claims, { sessionsValidFrom: null, revoked: true })).toMatch(/signed out/);
    expect(
      sessionEndedBy(claims, { sessionsValidFrom: new Date((claims.signedInAt + 1) * 1000), revoked: false }),
    ).toMatch(/sessions were ended/);
  });
});
