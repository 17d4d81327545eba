import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signPayload } from "@/lib/webhooks/signature";
import { NODE_VERIFY_SNIPPET, SECRET_ENV_VAR } from "./snippet";

type Verify = (rawBody: Buffer, header: string | undefined) => boolean;

describe("NODE_VERIFY_SNIPPET", () => {
  const secret = "whsec_snippetTestSecret0123456789abcdefghijklmn";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "webhook-snippet-"));
  let verify: Verify;

  beforeAll(async () => {
    process.env[SECRET_ENV_VAR] = secret;
    const file = path.join(dir, "verify.mjs");
    fs.writeFileSync(file, NODE_VERIFY_SNIPPET);
    ({ verifySignature: verify } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      verifySignature: Verify;
    });
  });
  afterAll(() => {
    delete process.env[SECRET_ENV_VAR];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const body = '{"event":"webhook.test","eventId":"evt_1","data":{"name":"Jürgen"}}';
  const now = () => Math.floor(Date.now() / 1000);

  it("accepts what the service signs", () => {
    expect(verify(Buffer.from(body), signPayload(secret, body))).toBe(true);
  });

  it("refuses another body, another secret, old or future timestamps and malformed headers", () => {
    expect(verify(Buffer.from(body.replace("Jürgen", "Jurgen")), signPayload(secret, body))).toBe(false);
    expect(verify(Buffer.from(body), signPayload("whsec_other", body))).toBe(false);
    expect(verify(Buffer.from(body), signPayload(secret, body, now() - 301))).toBe(false);
    expect(verify(Buffer.from(body), signPayload(secret, body, now() + 301))).toBe(false);
    expect(verify(Buffer.from(body), signPayload(secret, body, now() - 290))).toBe(true);
    expect(verify(Buffer.from(body), undefined)).toBe(false);
    expect(verify(Buffer.from(body), "t=abc,v1=00")).toBe(false);
  });

  it("holds no secret", () => {
    expect(NODE_VERIFY_SNIPPET).not.toMatch(/whsec_[A-Za-z0-9]/);
    expect(NODE_VERIFY_SNIPPET).toContain(`process.env.${SECRET_ENV_VAR}`);
  });
});
