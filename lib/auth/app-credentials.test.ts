import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Tx } from "../db/client";
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

interface FakeApp {
  id: string;
  workspaceId: string;
  environment: "sandbox" | "production";
  clientSecretHash: string | null;
  deletedAt: Date | null;
}

/** A database holding the given apps, looked up by id. */
function dbWith(...apps: FakeApp[]): Tx {
  return {
    app: {
      findUnique: async ({ where }: { where: { id: string } }) => apps.find((a) => a.id === where.id) ?? null,
    },
  } as unknown as Tx;
}

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

describe("authenticateApp", () => {
  const [SANDBOX, PROD, GONE, NOSECRET, UNKNOWN] = ["app", "app", "app", "app", "app"].map(() =>
    newId("app"),
  ) as [string, string, string, string, string];
  const sandbox = generateClientSecret("sandbox");
  const production = generateClientSecret("production");
  const apps = [
    {
      id: SANDBOX,
      workspaceId: "ws_1",
      environment: "sandbox",
      clientSecretHash: sandbox.hash,
      deletedAt: null,
    },
    {
      id: PROD,
      workspaceId: "ws_1",
      environment: "production",
      clientSecretHash: production.hash,
      deletedAt: null,
    },
    {
      id: GONE,
      workspaceId: "ws_1",
      environment: "sandbox",
      clientSecretHash: sandbox.hash,
      deletedAt: new Date(),
    },
    {
      id: NOSECRET,
      workspaceId: "ws_1",
      environment: "sandbox",
      clientSecretHash: null,
      deletedAt: null,
    },
  ] satisfies FakeApp[];
  const db = dbWith(...apps);

  it("accepts the app's id and current secret in its environment", async () => {
    await expect(authenticateApp(db, basic(SANDBOX, sandbox.secret), "sandbox")).resolves.toEqual({
      kind: "app",
      clientId: SANDBOX,
      workspaceId: "ws_1",
      environment: "sandbox",
    });
    await expect(authenticateApp(db, basic(PROD, production.secret), "production")).resolves.toMatchObject({
      clientId: PROD,
      environment: "production",
    });
  });

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

  it("refuses wrong, rotated-away, cross-environment, deleted and unknown credentials alike", async () => {
    const cases: [string, string, "sandbox" | "production"][] = [
      [SANDBOX, generateClientSecret("sandbox").secret, "sandbox"], // another secret
      [SANDBOX, `${sandbox.secret}x`, "sandbox"],
      [SANDBOX, sandbox.secret, "production"], // other environment
      [PROD, production.secret, "sandbox"],
      [GONE, sandbox.secret, "sandbox"], // deleted
      [NOSECRET, sandbox.secret, "sandbox"],
      [UNKNOWN, sandbox.secret, "sandbox"],
      [SANDBOX, "x".repeat(200), "sandbox"],
    ];
    for (const [id, secret, env] of cases) {
      const error = await rejection(authenticateApp(db, basic(id, secret), env));
      expect(error.code).toBe("INVALID_CLIENT_CREDENTIALS");
      expect(error.message).toBe("Invalid client credentials");
    }
  });

  it("refuses a username that is not an app id before any lookup (NUL, other kinds, padding)", async () => {
    const failing = {
      app: {
        findUnique: async () => {
          throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
        },
      },
    } as unknown as Tx;
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
