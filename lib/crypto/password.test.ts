import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

describe("hashPassword / verifyPassword", () => {
  it("verifies the password it hashed, and nothing else", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", stored)).toBe(false);
    expect(await verifyPassword("Correct horse battery staple", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts each hash, so the same password hashes differently", async () => {
    const [a, b] = await Promise.all([hashPassword("same"), hashPassword("same")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("same", a)).toBe(true);
    expect(await verifyPassword("same", b)).toBe(true);
  });

  it("handles non-ASCII and empty passwords", async () => {
    const stored = await hashPassword("pässwörd ✓");
    expect(await verifyPassword("pässwörd ✓", stored)).toBe(true);
    expect(await verifyPassword("passwort ✓", stored)).toBe(false);
    const empty = await hashPassword("");
    expect(await verifyPassword("", empty)).toBe(true);
    expect(await verifyPassword(" ", empty)).toBe(false);
  });

  it("answers false, without throwing, for malformed stored hashes", async () => {
    const stored = await hashPassword("secret");
    const [scheme, n, r, p, salt, key] = stored.split("$");
    const malformed = [
      "",
      "secret",
      "bcrypt$2b$10$abcdefghijklmnopqrstuv",
      [scheme, n, r, p, salt].join("$"), // no key
      [scheme, n, r, p, salt, key!.slice(0, -4)].join("$"), // truncated key
      ["argon2", n, r, p, salt, key].join("$"), // other scheme
      [scheme, "abc", r, p, salt, key].join("$"), // N not a number
      [scheme, "1000", r, p, salt, key].join("$"), // N not a power of two
      [scheme, String(2 ** 30), r, p, salt, key].join("$"), // beyond the memory limit
    ];
    for (const value of malformed) {
      await expect(verifyPassword("secret", value), value).resolves.toBe(false);
    }
  });
});
