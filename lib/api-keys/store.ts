/**
 * Workspace API keys as the console lists them (lib/api-keys/service.ts has the rules), on the
 * data layer (lib/db/kysely.ts). The keys themselves are made and checked in lib/auth.
 */
import type { Environment } from "../db/generated/kysely/types";
import { prepared, type Db } from "../db/kysely";

/** A key as the console shows it, with the console user who made it (if one did). */
export interface TKeyRow {
  id: string;
  name: string;
  environment: Environment | null;
  keyPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  user: { id: string; email: string } | null;
}

const KEY_COLUMNS = [
  "k.id",
  "k.name",
  "k.environment",
  "k.keyPrefix",
  "k.createdAt",
  "k.lastUsedAt",
  "k.revokedAt",
  "u.id as creatorId",
  "u.email as creatorEmail",
] as const;

function toKeyRow(
  row: Omit<TKeyRow, "user"> & { creatorId: string | null; creatorEmail: string | null },
): TKeyRow {
  const { creatorId, creatorEmail, ...key } = row;
  return {
    ...key,
    user: creatorId !== null && creatorEmail !== null ? { id: creatorId, email: creatorEmail } : null,
  };
}

export interface TKeyScope {
  workspaceId: string;
  environment: Environment;
}

const COUNT_KEYS = prepared("api_keys_count", (db, p: TKeyScope) =>
  db
    .selectFrom("apiKeys")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("kind", "=", "workspace")
    .where("workspaceId", "=", p.workspaceId)
    .where("environment", "=", p.environment),
);

const LIST_KEYS = prepared("api_keys_list", (db, p: TKeyScope & { limit: number; offset: number }) =>
  db
    .selectFrom("apiKeys as k")
    .leftJoin("users as u", "u.id", "k.userId")
    .select(KEY_COLUMNS)
    .where("k.kind", "=", "workspace")
    .where("k.workspaceId", "=", p.workspaceId)
    .where("k.environment", "=", p.environment)
    .orderBy("k.createdAt", "desc")
    .orderBy("k.id", "desc")
    .limit(p.limit)
    .offset(p.offset),
);

const READ_KEY = prepared("api_keys_read", (db, p: { id: string }) =>
  db
    .selectFrom("apiKeys as k")
    .leftJoin("users as u", "u.id", "k.userId")
    .select(KEY_COLUMNS)
    .where("k.id", "=", p.id),
);

const READ_SCOPED_KEY = prepared("api_keys_read_scoped", (db, p: TKeyScope & { id: string }) =>
  db
    .selectFrom("apiKeys")
    .select(["id", "name"])
    .where("id", "=", p.id)
    .where("kind", "=", "workspace")
    .where("workspaceId", "=", p.workspaceId)
    .where("environment", "=", p.environment),
);

export async function countKeys(db: Db, scope: TKeyScope): Promise<number> {
  const [row] = await COUNT_KEYS.run(db, scope);
  return Number(row?.n ?? 0);
}

/** A page of the scope's keys, the newest first. */
export async function listKeys(
  db: Db,
  scope: TKeyScope,
  { limit, offset }: { limit: number; offset: number },
): Promise<TKeyRow[]> {
  return (await LIST_KEYS.run(db, { ...scope, limit, offset })).map(toKeyRow);
}

/** Key `id`, undefined when there is none. */
export async function readKey(db: Db, id: string): Promise<TKeyRow | undefined> {
  const [row] = await READ_KEY.run(db, { id });
  return row && toKeyRow(row);
}

/** Key `id` if it belongs to the scope. */
export async function readScopedKey(db: Db, scope: TKeyScope, id: string) {
  const [row] = await READ_SCOPED_KEY.run(db, { ...scope, id });
  return row;
}

/** Revokes key `id` unless it already is: whether this call did. */
export async function revokeKey(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("apiKeys")
    .set({ revokedAt: now })
    .where("id", "=", id)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
