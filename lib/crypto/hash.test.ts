import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { digestEquals, sha256Hex } from "./hash";

describe("sha256Hex", () => {
  it("is the SHA-256 of the UTF-8 text, in lowercase hex", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("café")).toBe(createHash("sha256").update(Buffer.from("café", "utf8")).digest("hex"));
  });
});

describe("digestEquals", () => {
  const a = sha256Hex("cs_test_one");
  const b = sha256Hex("cs_test_two");

  it("is true for equal digests, whatever the hex case", () => {
    expect(digestEquals(a, a)).toBe(true);
    expect(digestEquals(a, a.toUpperCase())).toBe(true);
  });

  it("is false for different digests of the same length", () => {
    expect(digestEquals(a, b)).toBe(false);
    const lastFlipped = a.slice(0, -1) + (a.endsWith("0") ? "1" : "0");
    expect(digestEquals(a, lastFlipped)).toBe(false);
  });

  it("is false, without throwing, for digests of different lengths", () => {
    expect(digestEquals(a, a.slice(0, 62))).toBe(false);
    expect(digestEquals(a.slice(0, 62), a)).toBe(false);
    expect(digestEquals(a, `${a}00`)).toBe(false);
  });

  it("is false for empty values, even two of them", () => {
    expect(digestEquals("", "")).toBe(false);
    expect(digestEquals(a, "")).toBe(false);
    expect(digestEquals("", a)).toBe(false);
  });
});
