import { describe, expect, it } from "vitest";
import { atHash } from "./id-token";

describe("atHash", () => {
  it("matches the OpenID Connect Core example (A.3)", () => {
    expect(atHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y")).toBe("77QmUPtjPfzWtF2AnpK9RQ");
  });

  it("is 128 bits, base64url", () => {
    expect(atHash("another token")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(atHash("another token")).not.toBe(atHash("another token!"));
  });
});
