import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type EncryptionModule = typeof import("./encryption");

/** A fresh copy of the module (and of its cached master key) under the given IDV_MASTER_KEY. */
async function withMasterKey(key: string): Promise<EncryptionModule> {
  vi.stubEnv("IDV_MASTER_KEY", key);
  vi.resetModules();
  return import("./encryption");
}

const KEY_A = "unit-test-master-key-a-0123456789";
const KEY_B = "unit-test-master-key-b-0123456789";

/** Flips one bit of the base64url part at `index` of a sealed value. */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split(".");
  const bytes = Buffer.from(parts[index]!, "base64url");
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = bytes.toString("base64url");
  return parts.join(".");
}

describe("encryptSecret / decryptSecret", () => {
  let crypto: EncryptionModule;

  beforeEach(async () => {
    crypto = await withMasterKey(KEY_A);
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("round-trips text, including empty and non-ASCII text", () => {
    for (const plaintext of [
      "whsec_abc123",
      "",
      "Grüße ✓ 🔐",
      '{"clientSecret":"cs_test_x"}',
      "x".repeat(10_000),
    ]) {
      expect(crypto.decryptSecret(crypto.encryptSecret(plaintext))).toBe(plaintext);
    }
  });

  it("does not leave the plaintext readable in the sealed value", () => {
    const sealed = crypto.encryptSecret("whsec_very_secret_value");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
    expect(sealed).not.toContain("whsec_very_secret_value");
    expect(Buffer.from(sealed.split(".")[3]!, "base64url").toString("utf8")).not.toContain("very_secret");
  });

  it("uses a fresh IV each time, so equal plaintexts seal differently", () => {
    const a = crypto.encryptSecret("same");
    const b = crypto.encryptSecret("same");
    expect(a).not.toBe(b);
    expect(a.split(".")[1]).not.toBe(b.split(".")[1]);
    expect(crypto.decryptSecret(a)).toBe("same");
    expect(crypto.decryptSecret(b)).toBe("same");
  });

  it("refuses a tampered ciphertext, tag or IV", () => {
    const sealed = crypto.encryptSecret("provider-credential");
    expect(() => crypto.decryptSecret(tamper(sealed, 3))).toThrow();
    expect(() => crypto.decryptSecret(tamper(sealed, 2))).toThrow();
    expect(() => crypto.decryptSecret(tamper(sealed, 1))).toThrow();
  });

  it("refuses values in an unknown format", () => {
    const [, iv, tag, data] = crypto.encryptSecret("x").split(".");
    expect(() => crypto.decryptSecret(["v2", iv, tag, data].join("."))).toThrow(
      "unrecognised encrypted value",
    );
    expect(() => crypto.decryptSecret(["v1", iv, tag].join("."))).toThrow("unrecognised encrypted value");
    expect(() => crypto.decryptSecret("plain text")).toThrow("unrecognised encrypted value");
    expect(() => crypto.decryptSecret("")).toThrow("unrecognised encrypted value");
  });

  it("cannot open a value sealed under another master key", async () => {
    const sealed = crypto.encryptSecret("secret under key A");
    const other = await withMasterKey(KEY_B);
    expect(() => other.decryptSecret(sealed)).toThrow();
    const same = await withMasterKey(KEY_A);
    expect(same.decryptSecret(sealed)).toBe("secret under key A");
  });

  it("requires a master key of at least 16 characters", async () => {
    const short = await withMasterKey("too-short");
    expect(() => short.encryptSecret("x")).toThrow("IDV_MASTER_KEY must be at least 16 characters");
  });

  it("requires a configured master key in production mode", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const missing = await withMasterKey("");
    expect(() => missing.encryptSecret("x")).toThrow("IDV_MASTER_KEY is required in production mode");
  });
});
