import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "./signature";

const secret = "whsec_test_secret";
const body = '{"event":"verification.completed","data":{"verificationId":"ver_1"}}';

describe("webhook signatures", () => {
  it("signs <t>.<body> with HMAC-SHA256 in lowercase hex", () => {
    const header = signPayload(secret, body, 1_700_000_000);
    const expected = createHmac("sha256", secret).update(`1700000000.${body}`).digest("hex");
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });

  it("verifies a fresh signature and rejects tampering, other secrets and stale timestamps", () => {
    const now = 1_700_000_000;
    const header = signPayload(secret, body, now);
    expect(verifySignature(secret, body, header, now + 10)).toBe(true);
    expect(verifySignature(secret, `${body} `, header, now)).toBe(false);
    expect(verifySignature("whsec_other", body, header, now)).toBe(false);
    expect(verifySignature(secret, body, header, now + 301)).toBe(false);
    expect(verifySignature(secret, body, header, now - 301)).toBe(false);
    expect(verifySignature(secret, body, "t=abc,v1=00", now)).toBe(false);
    expect(verifySignature(secret, body, null, now)).toBe(false);
  });
});
