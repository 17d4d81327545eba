import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "./receiver";
import { signPayload } from "./signature";

const secret = "whsec_receiverTestSecret";
const body = JSON.stringify({
  event: "verification.completed",
  eventId: "evt_01",
  timestamp: "2026-01-01T00:00:00.000Z",
  apiVersion: "v1",
  clientId: "app_1",
  data: { verificationId: "ver_1", name: "Zoë" },
});
const t = 1_800_000_000;
const at = (seconds: number) => new Date(seconds * 1000);

function failure(fn: () => unknown): WebhookVerificationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return err as WebhookVerificationError;
  }
  throw new Error("expected verification to fail");
}

describe("verifyWebhook", () => {
  it("accepts what the service signs, from a string or the raw bytes, and returns the event", () => {
    const header = signPayload(secret, body, t);
    expect(verifyWebhook(body, header, secret, { now: at(t + 10) })).toEqual(JSON.parse(body));
    expect(verifyWebhook(Buffer.from(body, "utf8"), header, secret, { now: at(t - 10) }).eventId).toBe(
      "evt_01",
    );
  });

  it("accepts any one matching v1 value and ignores unknown schemes", () => {
    const good = signPayload(secret, body, t).split(",")[1]!;
    const header = `t=${t},v0=abc,v1=${"0".repeat(64)},${good}`;
    expect(verifyWebhook(body, header, secret, { now: at(t) }).event).toBe("verification.completed");
  });

  it("enforces the 300 s tolerance by default, configurable", () => {
    const header = signPayload(secret, body, t);
    expect(verifyWebhook(body, header, secret, { now: at(t + 300) }).eventId).toBe("evt_01");
    expect(failure(() => verifyWebhook(body, header, secret, { now: at(t + 301) })).reason).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(failure(() => verifyWebhook(body, header, secret, { now: at(t - 301) })).reason).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(verifyWebhook(body, header, secret, { now: at(t + 3000), toleranceSeconds: 3600 }).eventId).toBe(
      "evt_01",
    );
  });

  it("refuses a changed body, another secret, a changed timestamp and missing or malformed headers", () => {
    const header = signPayload(secret, body, t);
    const now = { now: at(t) };
    expect(failure(() => verifyWebhook(`${body} `, header, secret, now)).reason).toBe("signature_mismatch");
    expect(failure(() => verifyWebhook(body, header, "whsec_other", now)).reason).toBe("signature_mismatch");
    const shifted = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(failure(() => verifyWebhook(body, shifted, secret, now)).reason).toBe("signature_mismatch");
    expect(failure(() => verifyWebhook(body, null, secret, now)).reason).toBe("missing_signature");
    expect(failure(() => verifyWebhook(body, "", secret, now)).reason).toBe("missing_signature");
    for (const bad of ["t=abc,v1=00", `v1=${"a".repeat(64)}`, `t=${t}`, `t=${t},v1=${"A".repeat(64)}`])
      expect(failure(() => verifyWebhook(body, bad, secret, now)).reason).toBe("malformed_signature");
  });

  it("matches the spec's recipe: hex HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret", () => {
    const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    expect(verifyWebhook(body, `t=${t},v1=${v1}`, secret, { now: at(t) }).eventId).toBe("evt_01");
  });

  it("refuses a correctly signed body that is not an event", () => {
    const notEvent = '{"hello":"world"}';
    const header = signPayload(secret, notEvent, t);
    expect(failure(() => verifyWebhook(notEvent, header, secret, { now: at(t) })).reason).toBe(
      "invalid_payload",
    );
    const notJson = "plain text";
    const header2 = signPayload(secret, notJson, t);
    expect(failure(() => verifyWebhook(notJson, header2, secret, { now: at(t) })).reason).toBe(
      "invalid_payload",
    );
  });
});
