/**
 * Workspace API keys as the console manages them (the keys themselves: lib/auth/workspace-keys.ts).
 * Rules:
 * - a request sees and manages only the keys of its workspace and of the URL's environment;
 *   any other key id is 404, so key ids of other tenants are not confirmed;
 * - creating and revoking need `credentials` (a developer only in sandbox; enforced by withApi);
 * - the secret is returned once, at creation; lists show the prefix only;
 * - revoking is immediate (every request looks the key up) and idempotent; revoked keys stay
 *   listed, so the audit trail keeps a name for them;
 * - the creating console user is recorded (`userId`); keys made by another API key have none.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { createWorkspaceKey } from "../auth/workspace-keys";
import { recordAudit, workspaceAudit } from "../audit";
import type { Db } from "../db/client";
import { ApiError, notFound } from "../errors";
import { page, type TPage } from "../http/pagination";
import type { TApiKeyJson, TCreatedApiKeyJson } from "./endpoints";
import {
  countKeys,
  listKeys,
  readKey,
  readScopedKey,
  revokeKey,
  type TKeyRow,
  type TKeyScope,
} from "./store";

export interface KeyActor {
  auth: WorkspaceAuth;
  requestId: string;
}

function toApiKeyJson(row: TKeyRow, environment: TKeyScope["environment"]): TApiKeyJson {
  return {
    keyId: row.id,
    name: row.name,
    environment: row.environment ?? environment,
    prefix: row.keyPrefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdBy: row.user ? { userId: row.user.id, email: row.user.email } : null,
  };
}

function scope(auth: WorkspaceAuth): TKeyScope {
  return { workspaceId: auth.workspaceId, environment: auth.environment };
}

export async function listApiKeys(
  db: Db,
  auth: WorkspaceAuth,
  { limit, offset }: { limit: number; offset: number },
): Promise<TPage<TApiKeyJson>> {
  const [total, rows] = await Promise.all([
    countKeys(db, scope(auth)),
    listKeys(db, scope(auth), { limit, offset }),
  ]);
  return page(
    rows.map((r) => toApiKeyJson(r, auth.environment)),
    total,
    limit,
    offset,
  );
}

export async function createApiKey(
  db: Db,
  actor: KeyActor,
  input: { name: string },
): Promise<TCreatedApiKeyJson> {
  const { auth } = actor;
  const created = await createWorkspaceKey(db, {
    workspaceId: auth.workspaceId,
    environment: auth.environment,
    userId: auth.actor.type === "user" ? auth.actor.id : undefined,
    name: input.name,
  });
  const row = await readKey(db, created.id);
  // a missing row answers 404 RESOURCE_NOT_FOUND
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "api_key.created",
    targetType: "api_key",
    targetId: created.id,
    data: { name: input.name, prefix: row.keyPrefix },
  });
  return { ...toApiKeyJson(row, auth.environment), key: created.key };
}

export async function revokeApiKey(db: Db, actor: KeyActor, keyId: string): Promise<{ revoked: true }> {
  const { auth } = actor;
  const row = await readScopedKey(db, scope(auth), keyId);
  if (!row) throw notFound(`API key ${keyId}`);
  // conditional, so that of two concurrent revocations only one is recorded
  if (!(await revokeKey(db, keyId, new Date()))) return { revoked: true };
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "api_key.revoked",
    targetType: "api_key",
    targetId: keyId,
    data: { name: row.name },
  });
  return { revoked: true };
}
