import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { authenticateApp, generateClientSecret } from "./app-credentials";

describe("generateClientSecret", () => {
  it("prefixes sandbox secrets cs_test_ and production secrets cs_prod_, then 43 random characters", () => {
    expect(generateClientSecret("sandbox").secret).toMatch(/^cs_test_[A-Za-z0-9]{43}$/);
    expect(generateClientSecret("production").secret).toMatch(/^cs_prod_[A-Za-z0-9]{43}$/);
  });

  it("returns the SHA-256 hex of the secret as its hash", () => {
    for (const env of ["sandbox", "production"] as const) {
      const { secret, hash } = generateClientSecret(env);
      expect(hash).toBe(createHash("sha256").update(secret, "utf8").digest("hex"));
      expect(hash).not.toContain(secret.slice(8));
    }
  });

  it("never repeats a secret", () => {
    const secrets = new Set(Array.from({ length: 500 }, () => generateClientSecret("sandbox").secret));
    expect(secrets.size).toBe(500);
  });
});

/**
 * Not a database client: a lookup through it fails with a TypeError (it has no query methods), so a
 * refusal that is an ApiError was decided before any query. Lookups against real rows:
 * app-credentials.integration.test.ts.
 */
const noLookups = {} as Db;

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(apiError.status).toBe(401);
  expect(apiError.headers["WWW-Authenticate"]).toMatch(/^Basic /);
  return apiError;
}

describe("authenticateApp: refusals before any lookup", () => {
  const SANDBOX = newId("app");
  const sandbox = generateClientSecret("sandbox");
  const db = noLookups;

  it("refuses Bearer with the spec's message", async () => {
    const error = await rejection(authenticateApp(db, `Bearer ${sandbox.secret}`, "sandbox"));
    expect(error.code).toBe("INVALID_AUTHORIZATION_SCHEME");
    expect(error.message).toBe("Invalid authorization scheme. Use Basic authentication");
  });

  it("refuses a missing or malformed header", async () => {
    const missing = await rejection(authenticateApp(db, null, "sandbox"));
    expect(missing.code).toBe("INVALID_CLIENT_CREDENTIALS");
    expect(missing.message).toMatch(/^Missing Authorization header/);
    const malformed = await rejection(authenticateApp(db, "Basic bm9jb2xvbg==", "sandbox"));
    expect(malformed.code).toBe("INVALID_CLIENT_CREDENTIALS");
    expect(malformed.message).toMatch(/^Malformed Authorization header/);
  });

  it("refuses an over-long secret", async () => {
    const error = await rejection(authenticateApp(db, basic(SANDBOX, "x".repeat(200)), "sandbox"));
    expect(error.message).toBe("Invalid client credentials");
  });

  it("refuses a username that is not an app id before any lookup (NUL, other kinds, padding)", async () => {
    const failing = noLookups;
    for (const id of [
      `app_\u0000x`,
      `${SANDBOX}\u0000`,
      `${SANDBOX} `,
      SANDBOX.toLowerCase(),
      newId("ver"),
      "app_",
    ]) {
      const error = await rejection(authenticateApp(failing, basic(id, sandbox.secret), "sandbox"));
      expect(error.message).toBe("Invalid client credentials");
    }
  });
});
