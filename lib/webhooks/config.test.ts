import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { generateWebhookSecret, webhookConfigChanges } from "./config";

const off = { webhookEnabled: false, webhookUrl: null };
const on = { webhookEnabled: true, webhookUrl: "https://hooks.example.com/idv" };

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error("expected a refusal");
}

describe("webhookConfigChanges", () => {
  it("maps the patch onto the app's columns, collapsing duplicate events in order", () => {
    expect(
      webhookConfigChanges(
        off,
        {
          url: " https://hooks.example.com/idv?t=1 ",
          enabled: true,
          retryAttempts: 0,
          timeoutSeconds: 30,
          events: ["verification.failed", "verification.created", "verification.failed"],
        },
        "production",
      ),
    ).toEqual({
      webhookUrl: "https://hooks.example.com/idv?t=1",
      webhookEnabled: true,
      webhookRetryAttempts: 0,
      webhookTimeoutSeconds: 30,
      webhookEvents: ["verification.failed", "verification.created"],
    });
  });

  it("clears the url with null or an empty string, only while disabled", () => {
    expect(webhookConfigChanges(off, { url: "" }, "sandbox")).toEqual({ webhookUrl: null });
    expect(webhookConfigChanges(off, { url: null }, "sandbox")).toEqual({ webhookUrl: null });
    expect(webhookConfigChanges(on, { url: null, enabled: false }, "sandbox")).toEqual({
      webhookUrl: null,
      webhookEnabled: false,
    });
    expect(refusal(() => webhookConfigChanges(on, { url: "  " }, "sandbox")).details[0]!.path).toBe("url");
  });

  it("refuses enabling without a url", () => {
    const err = refusal(() => webhookConfigChanges(off, { enabled: true }, "sandbox"));
    expect(err.details[0]).toEqual({ path: "url", message: "is required while the webhook is enabled" });
    expect(webhookConfigChanges(on, { enabled: true }, "sandbox")).toEqual({ webhookEnabled: true });
  });

  it("allows http in the sandbox but only https in production", () => {
    expect(webhookConfigChanges(off, { url: "http://localhost:4000/hook" }, "sandbox").webhookUrl).toBe(
      "http://localhost:4000/hook",
    );
    const err = refusal(() => webhookConfigChanges(off, { url: "http://hooks.example.com" }, "production"));
    expect(err.details[0]).toEqual({ path: "url", message: "must use https in production" });
  });

  it.each([
    ["/relative/hook", /absolute/],
    ["hooks.example.com/idv", /absolute/],
    ["ftp://hooks.example.com/idv", /https or http/],
    ["https://user:pass@hooks.example.com/idv", /credentials/],
    ["https://token@hooks.example.com/idv", /credentials/],
    ["https://hooks.example.com/idv#frag", /fragment/],
  ])("refuses the url %j", (url, reason) => {
    const err = refusal(() => webhookConfigChanges(off, { url }, "sandbox"));
    expect(err.code).toBe("VALIDATION_ERROR");
    expect(err.details[0]!.path).toBe("url");
    expect(err.details[0]!.message).toMatch(reason);
  });

  it("refuses the secret as read-only, under the caller's field prefix", () => {
    const err = refusal(() =>
      webhookConfigChanges(off, { secret: "whsec_mine" }, "sandbox", "webhookConfig."),
    );
    expect(err.code).toBe("VALIDATION_INVALID_PARAMETER");
    expect(err.details[0]!.path).toBe("webhookConfig.secret");
    expect(
      refusal(() => webhookConfigChanges(off, { url: "x" }, "sandbox", "webhookConfig.")).details[0]!.path,
    ).toBe("webhookConfig.url");
  });
});

describe("generateWebhookSecret", () => {
  it("is whsec_ and 43 random characters, different every time", () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
    expect(generateWebhookSecret()).not.toBe(a);
  });
});
