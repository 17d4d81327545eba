/**
 * Operator keys on the data layer (lib/auth/store/keys.ts): a key is made as Prisma made it, and
 * the check (one prepared statement, the key with its user's operator flag) accepts exactly a
 * live operator key of a user who is still an operator, and refuses the rest with one error.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/hash";
import { kysely } from "../db/client";
import { ApiError } from "../errors";
import { makeOperator, makeWorkspace } from "../testing/factories";
import { statementsOf } from "../testing/statements";
import { authenticateOperator, createOperatorKey } from "./operator-keys";

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("operator keys on the database", () => {
  it("stores a new key as Prisma did: its hash, prefix, name, owner and creation time", async () => {
    const operator = await makeOperator();
    const before = Date.now();
    const { id, key } = await createOperatorKey(kysely(), operator.userId);
    const row = await kysely()
      .selectFrom("apiKeys")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: "operator",
      userId: operator.userId,
      workspaceId: null,
      environment: null,
      name: "Operator key",
      keyHash: sha256Hex(key),
      keyPrefix: key.slice(0, "sk_operator_".length + 4),
      lastUsedAt: null,
      revokedAt: null,
    });
    // written as UTC: read back, the time it was made
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(row.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1);
  });

  it("accepts an operator's live key in one statement", async () => {
    const operator = await makeOperator();
    const { result, statements } = await statementsOf(() =>
      authenticateOperator(kysely(), `Bearer ${operator.operatorKey}`),
    );
    expect(result).toEqual({ kind: "operator", userId: operator.userId, keyId: operator.keyId, via: "key" });
    expect(statements).toEqual(["auth_operator_key"]);
  });

  it("refuses a revoked key, a key of a user no longer an operator, a key without its user, and unknown keys", async () => {
    const db = kysely();
    const revoked = await makeOperator();
    await db.updateTable("apiKeys").set({ revokedAt: new Date() }).where("id", "=", revoked.keyId).execute();
    const demoted = await makeOperator();
    await db
      .updateTable("users")
      .set({ isOperator: false, updatedAt: new Date() })
      .where("id", "=", demoted.userId)
      .execute();
    const orphaned = await makeOperator();
    await db.updateTable("apiKeys").set({ userId: null }).where("id", "=", orphaned.keyId).execute();
    const unknown = `sk_operator_${"A".repeat(40)}`;
    // a workspace key's hash under an operator key's form: a workspace key is never an operator's
    const ws = await makeWorkspace();
    const workspaceKey = await db
      .selectFrom("apiKeys")
      .selectAll()
      .where("keyHash", "=", sha256Hex(ws.keys.sandbox))
      .executeTakeFirstOrThrow();
    const disguised = `sk_operator_${"B".repeat(40)}`;
    await db
      .updateTable("apiKeys")
      .set({ keyHash: sha256Hex(disguised) })
      .where("id", "=", workspaceKey.id)
      .execute();

    for (const key of [revoked.operatorKey, demoted.operatorKey, orphaned.operatorKey, unknown, disguised]) {
      const error = await refusal(authenticateOperator(db, `Bearer ${key}`));
      expect(error.code).toBe("INVALID_OPERATOR_KEY");
      expect(error.message).toBe("A valid operator key is required (Authorization: Bearer sk_operator_…)");
    }
  });
});
