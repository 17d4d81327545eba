import { describe, expect, it } from "vitest";
import { endedByPasswordChange } from "./console-session";

describe("endedByPasswordChange", () => {
  const issuedAt = 1_700_000_000; // JWT iat, seconds

  it("keeps sessions when the password never changed", () => {
    expect(endedByPasswordChange(null, issuedAt)).toBe(false);
  });

  it("ends the sessions issued before the second the change starts", () => {
    // a change during second `issuedAt` starts the next second: the session of that second ends
    expect(endedByPasswordChange(new Date((issuedAt + 1) * 1000), issuedAt)).toBe(true);
    expect(endedByPasswordChange(new Date((issuedAt + 60) * 1000), issuedAt)).toBe(true);
  });

  it("keeps sessions issued in or after that second", () => {
    expect(endedByPasswordChange(new Date(issuedAt * 1000), issuedAt)).toBe(false);
    expect(endedByPasswordChange(new Date((issuedAt + 1) * 1000), issuedAt + 1)).toBe(false);
    expect(endedByPasswordChange(new Date((issuedAt - 5) * 1000), issuedAt)).toBe(false);
  });
});
