import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createSubjectHasher, subjectFor } from "./subject";

beforeAll(() => {
  // never fall back to writing a development key file from a unit test
  process.env.IDV_MASTER_KEY ??= "unit-test-master-key-0123456789";
});

describe("subjectFor", () => {
  it("is stable for one source identity", () => {
    const a = subjectFor("passport", "P-1234567");
    expect(subjectFor("passport", "P-1234567")).toBe(a);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("differs per provider and per upstream subject", () => {
    const base = subjectFor("passport", "P-1234567");
    expect(subjectFor("se-bankid", "P-1234567")).not.toBe(base);
    expect(subjectFor("passport", "P-1234568")).not.toBe(base);
  });

  it("encodes the pair unambiguously", () => {
    expect(subjectFor("a:b", "c")).not.toBe(subjectFor("a", "b:c"));
    expect(subjectFor("ab", "c")).not.toBe(subjectFor("a", "bc"));
  });

  it("never reveals the upstream subject and needs the key to compute", () => {
    const upstream = "199001011234";
    const sub = subjectFor("se-bankid", upstream);
    expect(sub).not.toContain(upstream);
    expect(sub).not.toBe(createHash("sha256").update(`se-bankid:${upstream}`).digest("base64url"));
    expect(sub).not.toBe(
      createHash("sha256")
        .update(JSON.stringify(["se-bankid", upstream]))
        .digest("base64url"),
    );
  });

  it("depends on the master key", () => {
    const one = createSubjectHasher(randomBytes(32));
    const two = createSubjectHasher(randomBytes(32));
    expect(one("passport", "x")).not.toBe(two("passport", "x"));
    const key = randomBytes(32);
    expect(createSubjectHasher(key)("passport", "x")).toBe(
      createSubjectHasher(Buffer.from(key))("passport", "x"),
    );
  });

  it("refuses empty inputs instead of hashing them into one shared subject", () => {
    expect(() => subjectFor("passport", "")).toThrow();
    expect(() => subjectFor("", "x")).toThrow();
  });
});
