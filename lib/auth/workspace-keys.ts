/**
 * Workspace API keys.
 * Rules: a key is `sk_workspace_test_…` (sandbox) or `sk_workspace_prod_…` (production) followed
 * by 40 random characters; only its SHA-256 is stored; a key works only in its own environment;
 * missing, malformed, unknown, revoked or wrong-environment keys are all 401 INVALID_API_KEY;
 * Basic credentials on the Workspace API are 401 too. One indexed lookup per request, no slow hash.
 * Failed checks count per address (lib/rate-limit/credentials.ts: 429 over the limit).
 */
import type { Db } from "../db/client";
import { digestEquals, sha256Hex } from "../crypto/hash";
import { ENV_TAG, type TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { newId, randomToken } from "../ids";
import { limitCredentialCheck } from "../rate-limit/credentials";
import { parseAuthorization } from "./header";
import type { TRole } from "./roles";
import { insertApiKey, readKeyByHash, touchKeyLastUsed } from "./store/keys";

// lastUsedAt is written at most once a minute per key and process, off the request's path
const LAST_USED_INTERVAL_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

function touchLastUsed(db: Db, keyId: string): void {
  const now = Date.now();
  if ((lastUsedWritten.get(keyId) ?? 0) > now - LAST_USED_INTERVAL_MS) return;
  lastUsedWritten.set(keyId, now);
  if (lastUsedWritten.size > 10_000) lastUsedWritten.clear();
  void touchKeyLastUsed(db, keyId, new Date(now)).catch(() => undefined);
}

/** Who acts: an API key (acting as `admin` within its environment) or a console user. */
export type TWorkspaceActor =
  { type: "api_key"; id: string; name: string } | { type: "user"; id: string; name: string };

export interface WorkspaceAuth {
  kind: "workspace";
  workspaceId: string;
  environment: TEnvironment;
  role: TRole;
  actor: TWorkspaceActor;
}

const KEY_PATTERN = /^sk_workspace_(test|prod)_[A-Za-z0-9]{40}$/;

export function workspaceKeyPrefix(environment: TEnvironment): string {
  return `sk_workspace_${ENV_TAG[environment]}_`;
}

export async function createWorkspaceKey(
  db: Db,
  input: { workspaceId: string; environment: TEnvironment; userId?: string; name?: string },
): Promise<{ id: string; key: string }> {
  const key = `${workspaceKeyPrefix(input.environment)}${randomToken(40)}`;
  const id = newId("key");
  await insertApiKey(db, {
    id,
    kind: "workspace",
    workspaceId: input.workspaceId,
    environment: input.environment,
    userId: input.userId ?? null,
    name: input.name ?? "Default key",
    keyHash: sha256Hex(key),
    keyPrefix: key.slice(0, workspaceKeyPrefix(input.environment).length + 4),
  });
  return { id, key };
}

function invalidKey(message: string): ApiError {
  return new ApiError("INVALID_API_KEY", message, {
    headers: { "WWW-Authenticate": 'Bearer realm="workspace-api"' },
  });
}

/** `ip`: the caller's address, for the limits of failed checks; null outside a request. */
export async function authenticateWorkspace(
  db: Db,
  authorization: string | null,
  environment: TEnvironment,
  ip: string | null = null,
): Promise<WorkspaceAuth> {
  return limitCredentialCheck(ip, authorization !== null && authorization.trim() !== "", () =>
    checkWorkspaceKey(db, authorization, environment),
  );
}

async function checkWorkspaceKey(
  db: Db,
  authorization: string | null,
  environment: TEnvironment,
): Promise<WorkspaceAuth> {
  const parsed = parseAuthorization(authorization);
  if (parsed.scheme === "none") {
    throw invalidKey("Missing Authorization header. Use Bearer authentication with a workspace API key");
  }
  if (parsed.scheme === "basic") {
    throw invalidKey("Invalid authorization scheme. Use Bearer authentication with a workspace API key");
  }
  if (parsed.scheme !== "bearer") throw invalidKey("Malformed Authorization header. Use: Bearer <API_KEY>");

  const match = KEY_PATTERN.exec(parsed.token);
  if (!match) throw invalidKey("Invalid API key");
  if (match[1] !== ENV_TAG[environment]) {
    const other = environment === "sandbox" ? "production" : "sandbox";
    throw invalidKey(
      `This API key belongs to the ${other} environment and cannot be used against the ${environment} API`,
    );
  }
  const hash = sha256Hex(parsed.token);
  // one prepared statement on every Workspace API request with a key
  const row = await readKeyByHash(db, hash);
  if (
    !row ||
    row.kind !== "workspace" ||
    row.revokedAt !== null ||
    row.environment !== environment ||
    !row.workspaceId ||
    !digestEquals(row.keyHash, hash)
  ) {
    throw invalidKey("Invalid API key");
  }
  touchLastUsed(db, row.id);
  return {
    kind: "workspace",
    workspaceId: row.workspaceId,
    environment,
    role: "admin",
    actor: { type: "api_key", id: row.id, name: row.name },
  };
}
