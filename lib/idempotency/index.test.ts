import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { hashRequestBody, IDEMPOTENCY_KEY_MAX, validateIdempotencyKey } from "./index";

describe("hashRequestBody", () => {
  it("ignores key order and whitespace: equal JSON bodies hash equally", () => {
    const a = JSON.parse(
      '{"name":"Acme","redirectUris":["https://a.example/cb"],"branding":{"color":"#fff","logo":null}}',
    );
    const b = JSON.parse(`{
      "branding": { "logo": null, "color": "#fff" },
      "redirectUris": [ "https://a.example/cb" ],
      "name": "Acme"
    }`);
    expect(hashRequestBody(a)).toBe(hashRequestBody(b));
  });

  it("is a SHA-256 hex digest", () => {
    expect(hashRequestBody({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRequestBody({ b: 2, a: 1 })).toBe(createHash("sha256").update('{"a":1,"b":2}').digest("hex"));
  });

  it("differs when a value, a key or array order differs", () => {
    const base = hashRequestBody({ name: "Acme", uris: ["a", "b"] });
    expect(hashRequestBody({ name: "Acme Inc", uris: ["a", "b"] })).not.toBe(base);
    expect(hashRequestBody({ title: "Acme", uris: ["a", "b"] })).not.toBe(base);
    expect(hashRequestBody({ name: "Acme", uris: ["b", "a"] })).not.toBe(base);
    expect(hashRequestBody({ name: "Acme", uris: ["a", "b"], extra: true })).not.toBe(base);
    expect(hashRequestBody({ n: 1 })).not.toBe(hashRequestBody({ n: "1" }));
    expect(hashRequestBody({ n: { deep: [1, { x: 1 }] } })).not.toBe(
      hashRequestBody({ n: { deep: [1, { x: 2 }] } }),
    );
  });

  it("treats no body like an empty object, but not like JSON null or an empty array", () => {
    expect(hashRequestBody(undefined)).toBe(hashRequestBody({}));
    expect(hashRequestBody(null)).not.toBe(hashRequestBody(undefined));
    expect(hashRequestBody([])).not.toBe(hashRequestBody(undefined));
    expect(hashRequestBody([])).not.toBe(hashRequestBody({}));
    expect(hashRequestBody({ name: "x" })).not.toBe(hashRequestBody(undefined));
  });
});

describe("validateIdempotencyKey", () => {
  function refusal(key: string): ApiError {
    try {
      validateIdempotencyKey(key);
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      return e as ApiError;
    }
    throw new Error(`expected ${JSON.stringify(key)} to be refused`);
  }

  it("treats a missing header as no key", () => {
    expect(validateIdempotencyKey(null)).toBeUndefined();
  });

  it("returns a valid key unchanged", () => {
    expect(validateIdempotencyKey("a")).toBe("a");
    expect(validateIdempotencyKey("3f2b6c1e-9d7a-4b8e-a2c4-5e6f7a8b9c0d")).toBe(
      "3f2b6c1e-9d7a-4b8e-a2c4-5e6f7a8b9c0d",
    );
    expect(validateIdempotencyKey("order:42/retry#1~!")).toBe("order:42/retry#1~!");
  });

  it(`accepts ${IDEMPOTENCY_KEY_MAX} characters and refuses ${IDEMPOTENCY_KEY_MAX + 1} with 400`, () => {
    expect(IDEMPOTENCY_KEY_MAX).toBe(255);
    const max = "k".repeat(255);
    expect(validateIdempotencyKey(max)).toBe(max);
    const error = refusal("k".repeat(256));
    expect(error.code).toBe("IDEMPOTENCY_KEY_INVALID");
    expect(error.status).toBe(400);
    expect(error.details).toEqual([{ path: "Idempotency-Key", message: expect.any(String) }]);
  });

  it("refuses empty keys, spaces, control characters and non-ASCII", () => {
    for (const key of [
      "",
      " ",
      "   ",
      "two words",
      " lead",
      "trail ",
      "tab\there",
      "new\nline",
      "clé",
      "ключ",
      "✓",
    ]) {
      const error = refusal(key);
      expect(error.code).toBe("IDEMPOTENCY_KEY_INVALID");
      expect(error.status).toBe(400);
    }
  });
});
