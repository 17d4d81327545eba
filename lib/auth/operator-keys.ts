/**
 * Operator keys for the Operator API (back-office): `sk_operator_` + 40 random characters,
 * stored as SHA-256, bound to an operator user. Workspace keys never pass this check. Failed
 * checks count per address (lib/rate-limit/credentials.ts: 429 over the limit).
 */
import type { Db } from "../db/client";
import { digestEquals, sha256Hex } from "../crypto/hash";
import { ApiError } from "../errors";
import { newId, randomToken } from "../ids";
import { limitCredentialCheck } from "../rate-limit/credentials";
import { parseAuthorization } from "./header";
import { insertApiKey, readOperatorKeyByHash } from "./store/keys";

export interface OperatorAuth {
  kind: "operator";
  /** the operator user; audit records name it whichever credential was used */
  userId: string;
  /** the operator key, or null for an operator's console session */
  keyId: string | null;
  via: "key" | "session";
}

const PREFIX = "sk_operator_";

export async function createOperatorKey(db: Db, userId: string): Promise<{ id: string; key: string }> {
  const key = `${PREFIX}${randomToken(40)}`;
  const id = newId("key");
  await insertApiKey(db, {
    id,
    kind: "operator",
    userId,
    name: "Operator key",
    keyHash: sha256Hex(key),
    keyPrefix: key.slice(0, PREFIX.length + 4),
  });
  return { id, key };
}

/** `ip`: the caller's address, for the limits of failed checks; null outside a request. */
export async function authenticateOperator(
  db: Db,
  authorization: string | null,
  ip: string | null = null,
): Promise<OperatorAuth> {
  return limitCredentialCheck(ip, authorization !== null && authorization.trim() !== "", () =>
    checkOperatorKey(db, authorization),
  );
}

async function checkOperatorKey(db: Db, authorization: string | null): Promise<OperatorAuth> {
  const parsed = parseAuthorization(authorization);
  const invalid = new ApiError(
    "INVALID_OPERATOR_KEY",
    "A valid operator key is required (Authorization: Bearer sk_operator_…)",
    {
      headers: { "WWW-Authenticate": 'Bearer realm="operator-api"' },
    },
  );
  if (parsed.scheme !== "bearer" || !/^sk_operator_[A-Za-z0-9]{40}$/.test(parsed.token)) throw invalid;
  const hash = sha256Hex(parsed.token);
  // one prepared statement on every Operator API request with a key (the key and its user)
  const row = await readOperatorKeyByHash(db, hash);
  if (
    !row ||
    row.kind !== "operator" ||
    row.revokedAt ||
    !row.userId ||
    !row.isOperator ||
    !digestEquals(row.keyHash, hash)
  ) {
    throw invalid;
  }
  return { kind: "operator", userId: row.userId, keyId: row.id, via: "key" };
}
