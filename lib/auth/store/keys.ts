/**
 * API keys (api_keys) on the data layer (lib/db/kysely.ts): a workspace key and an operator key,
 * made (workspace-keys.ts, operator-keys.ts) and checked by hash. A check runs on every request
 * with a key: prepared (named) statements, one per request.
 */
import type { Insertable } from "kysely";
import type { ApiKey } from "../../db/generated/kysely/types";
import { prepared, type Db } from "../../db/kysely";

const KEY_BY_HASH = prepared("auth_workspace_key", (db, p: { keyHash: string }) =>
  db
    .selectFrom("apiKeys")
    .select(["id", "kind", "name", "workspaceId", "environment", "keyHash", "revokedAt"])
    .where("keyHash", "=", p.keyHash),
);

/** The API key of hash `keyHash` (undefined: none). */
export async function readKeyByHash(db: Db, keyHash: string) {
  const [row] = await KEY_BY_HASH.run(db, { keyHash });
  return row;
}

/** Records a key's use at `at` (at most once a minute per key: workspace-keys.ts). */
export async function touchKeyLastUsed(db: Db, keyId: string, at: Date): Promise<void> {
  await db.updateTable("apiKeys").set({ lastUsedAt: at }).where("id", "=", keyId).execute();
}

const OPERATOR_KEY_BY_HASH = prepared("auth_operator_key", (db, p: { keyHash: string }) =>
  db
    .selectFrom("apiKeys as k")
    .leftJoin("users as u", "u.id", "k.userId")
    .select(["k.id", "k.kind", "k.userId", "k.keyHash", "k.revokedAt", "u.isOperator"])
    .where("k.keyHash", "=", p.keyHash),
);

/** The key of hash `keyHash` with whether its user is an operator (null: no user); undefined: none. */
export async function readOperatorKeyByHash(db: Db, keyHash: string) {
  const [row] = await OPERATOR_KEY_BY_HASH.run(db, { keyHash });
  return row;
}

/** A new key's columns (made now, never used, not revoked). */
export type TNewApiKey = Omit<Insertable<ApiKey>, "createdAt" | "lastUsedAt" | "revokedAt">;

/** Stores a new key, made now. */
export async function insertApiKey(db: Db, key: TNewApiKey): Promise<void> {
  await db
    .insertInto("apiKeys")
    .values({ ...key, createdAt: new Date() })
    .execute();
}
