/**
 * The credential lookups against real rows (lib/auth/store/credentials.ts prepared statements): App API Basic
 * credentials and workspace API keys accept exactly what they accepted on Prisma and refuse the
 * rest with the same errors.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/hash";
import { kysely } from "../db/client";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { makeApp, makeWorkspace } from "../testing/factories";
import { bearer, call } from "../testing/router";
import { authenticateApp, generateClientSecret } from "./app-credentials";
import { authenticateWorkspace, createWorkspaceKey } from "./workspace-keys";

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("authenticateApp on the database", () => {
  it("accepts the app's id and current secret in its environment", async () => {
    const ws = await makeWorkspace();
    const sandbox = await makeApp(ws.keys.sandbox, "sandbox");
    const production = await makeApp(ws.keys.production, "production");
    await expect(
      authenticateApp(kysely(), basic(sandbox.clientId, sandbox.clientSecret), "sandbox"),
    ).resolves.toEqual({
      kind: "app",
      clientId: sandbox.clientId,
      workspaceId: ws.workspaceId,
      environment: "sandbox",
    });
    await expect(
      authenticateApp(kysely(), basic(production.clientId, production.clientSecret), "production"),
    ).resolves.toEqual({
      kind: "app",
      clientId: production.clientId,
      workspaceId: ws.workspaceId,
      environment: "production",
    });
  });

  it("refuses wrong, rotated-away, cross-environment, deleted, secret-less and unknown credentials alike", async () => {
    const db = kysely();
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox, "sandbox");
    const production = await makeApp(ws.keys.production, "production");
    const rotated = await makeApp(ws.keys.sandbox, "sandbox");
    const rotation = await call("POST", `/api/sandbox/v1/apps/${rotated.clientId}/rotate-client-secret`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(rotation.status).toBe(200);
    // deleted with its hash still stored, and one whose hash is gone: each refused on its own
    const gone = await makeApp(ws.keys.sandbox, "sandbox");
    await db
      .updateTable("apps")
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where("id", "=", gone.clientId)
      .execute();
    const secretless = await makeApp(ws.keys.sandbox, "sandbox");
    await db
      .updateTable("apps")
      .set({ clientSecretHash: null, updatedAt: new Date() })
      .where("id", "=", secretless.clientId)
      .execute();

    const cases: [string, string, "sandbox" | "production"][] = [
      [app.clientId, generateClientSecret("sandbox").secret, "sandbox"],
      [app.clientId, `${app.clientSecret}x`, "sandbox"],
      [app.clientId, app.clientSecret, "production"],
      [production.clientId, production.clientSecret, "sandbox"],
      [rotated.clientId, rotated.clientSecret, "sandbox"],
      [gone.clientId, gone.clientSecret, "sandbox"],
      [secretless.clientId, secretless.clientSecret, "sandbox"],
      [newId("app"), app.clientSecret, "sandbox"],
    ];
    for (const [id, secret, env] of cases) {
      const error = await refusal(authenticateApp(db, basic(id, secret), env));
      expect([error.status, error.code, error.message]).toEqual([
        401,
        "INVALID_CLIENT_CREDENTIALS",
        "Invalid client credentials",
      ]);
      expect(error.headers["WWW-Authenticate"]).toMatch(/^Basic /);
    }
    // the rotated secret works
    const fresh = (rotation.body as { clientSecret: string }).clientSecret;
    await expect(authenticateApp(db, basic(rotated.clientId, fresh), "sandbox")).resolves.toMatchObject({
      clientId: rotated.clientId,
    });
  });
});

describe("authenticateWorkspace on the database", () => {
  it("accepts a key of its environment as an admin API-key actor, and notes its use", async () => {
    const ws = await makeWorkspace();
    const db = kysely();
    const { id, key } = await createWorkspaceKey(db, {
      workspaceId: ws.workspaceId,
      environment: "sandbox",
      name: "CI key",
    });
    await expect(authenticateWorkspace(db, `Bearer ${key}`, "sandbox")).resolves.toEqual({
      kind: "workspace",
      workspaceId: ws.workspaceId,
      environment: "sandbox",
      role: "admin",
      actor: { type: "api_key", id, name: "CI key" },
    });
    await expect
      .poll(
        async () =>
          (await db.selectFrom("apiKeys").selectAll().where("id", "=", id).executeTakeFirstOrThrow())
            .lastUsedAt,
      )
      .not.toBeNull();
  });

  it("refuses revoked, unknown, non-workspace and mismatched rows with 401 INVALID_API_KEY", async () => {
    const ws = await makeWorkspace();
    const db = kysely();
    const revoked = await createWorkspaceKey(db, { workspaceId: ws.workspaceId, environment: "sandbox" });
    await db.updateTable("apiKeys").set({ revokedAt: new Date() }).where("id", "=", revoked.id).execute();
    // rows that a well-formed key could hash to but that are not this environment's workspace key
    const shaped = () => `sk_workspace_test_${newId("key").slice(4, 30)}${"A".repeat(14)}`;
    const operatorShaped = shaped();
    await db
      .insertInto("apiKeys")
      .values({
        id: newId("key"),
        kind: "operator",
        name: "op",
        keyHash: sha256Hex(operatorShaped),
        keyPrefix: "x",
      })
      .execute();
    const wrongEnvironment = shaped();
    await db
      .insertInto("apiKeys")
      .values({
        id: newId("key"),
        kind: "workspace",
        workspaceId: ws.workspaceId,
        environment: "production",
        name: "k",
        keyHash: sha256Hex(wrongEnvironment),
        keyPrefix: "x",
      })
      .execute();
    const noWorkspace = shaped();
    await db
      .insertInto("apiKeys")
      .values({
        id: newId("key"),
        kind: "workspace",
        environment: "sandbox",
        name: "k",
        keyHash: sha256Hex(noWorkspace),
        keyPrefix: "x",
      })
      .execute();
    for (const key of [revoked.key, shaped(), operatorShaped, wrongEnvironment, noWorkspace]) {
      expect(key).toMatch(/^sk_workspace_test_[A-Za-z0-9]{40}$/);
      const error = await refusal(authenticateWorkspace(db, `Bearer ${key}`, "sandbox"));
      expect([error.status, error.code, error.message]).toEqual([401, "INVALID_API_KEY", "Invalid API key"]);
      expect(error.headers["WWW-Authenticate"]).toMatch(/^Bearer /);
    }
  });
});
