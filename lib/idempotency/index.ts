/**
 * Idempotency-Key handling (docs/design.md §5).
 * Rules:
 * - scope: workspace + environment + key; a record also remembers method, path and body hash;
 *   records live 24 h.
 * - the body hash ignores key order and whitespace, and an empty body is hashed as `{}`: every
 *   endpoint treats the two alike (no body = no fields), so they are the same request.
 * - same key, same method/path/body → the stored status, headers and body, replayed with
 *   `Idempotency-Replayed: true`; different method, path or body → 409 IDEMPOTENCY_KEY_CONFLICT;
 *   the first request still running → 409 IDEMPOTENCY_KEY_IN_USE (retryable).
 * - the claim is an INSERT … ON CONFLICT DO NOTHING committed on its own, so two concurrent
 *   duplicates cannot both run; the stored response is written in the same transaction as the
 *   work it describes, so a crash leaves either both or neither.
 * - a claim whose lock expired (its request crashed before committing) can be taken over.
 * - a request that fails (any error) releases its claim, so the client may retry with the key.
 * - stored bodies are encrypted at rest (they can hold one-time secrets).
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/kysely";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import type { TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";
import {
  completeRecord,
  deleteExpiredRecords,
  insertClaim,
  readRecord,
  releaseRecord,
  takeOverRecord,
} from "./store";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;
export const IDEMPOTENCY_KEY_MAX = 255;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  { kind: "claimed"; recordId: string } | { kind: "replay"; response: StoredResponse };

export interface IdempotencyScope {
  workspaceId: string;
  environment: TEnvironment;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Hash of the parsed body with keys sorted: whitespace and key order do not matter, and no body
 * (`undefined`) is the empty object. JSON `null` is a body of its own (endpoints refuse it).
 */
export function hashRequestBody(json: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(canonical(json === undefined ? {} : json)))
    .digest("hex");
}

export function validateIdempotencyKey(key: string | null): string | undefined {
  if (key === null) return undefined;
  if (key.trim() === "" || key.length > IDEMPOTENCY_KEY_MAX || /[^\x21-\x7e]/.test(key)) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_INVALID",
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters without spaces`,
      {
        details: [
          { path: "Idempotency-Key", message: `must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters` },
        ],
      },
    );
  }
  return key;
}

/** The stored headers as written by completeIdempotencyKey (a JSON object of strings). */
function storedHeaders(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<IdempotencyClaim> {
  const now = Date.now();
  const values = {
    ...scope,
    lockedUntil: new Date(now + IDEMPOTENCY_LOCK_MS),
    expiresAt: new Date(now + IDEMPOTENCY_TTL_MS),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await insertClaim(db, values);
    if (inserted) return { kind: "claimed", recordId: inserted };

    const existing = await readRecord(db, scope);
    if (!existing) continue; // released between our insert and select: try again

    if (existing.claimable) {
      // expired, or abandoned by a crashed request: take it over atomically
      if (await takeOverRecord(db, existing.id, values)) return { kind: "claimed", recordId: existing.id };
      continue;
    }
    if (
      existing.method !== scope.method ||
      existing.path !== scope.path ||
      existing.requestHash !== scope.requestHash
    ) {
      throw new ApiError(
        "IDEMPOTENCY_KEY_CONFLICT",
        "This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request",
      );
    }
    if (
      existing.state !== "completed" ||
      existing.responseStatus === null ||
      existing.responseBody === null
    ) {
      throw new ApiError(
        "IDEMPOTENCY_KEY_IN_USE",
        "A request with this Idempotency-Key is still being processed. Retry after it completes",
        { headers: { "Retry-After": "1" } },
      );
    }
    return {
      kind: "replay",
      response: {
        status: existing.responseStatus,
        headers: storedHeaders(existing.responseHeaders),
        body: decryptSecret(existing.responseBody),
      },
    };
  }
  throw new ApiError("IDEMPOTENCY_KEY_IN_USE", "The Idempotency-Key is contended. Retry shortly", {
    headers: { "Retry-After": "1" },
  });
}

/** Stores the response; call inside the transaction that did the work. */
export async function completeIdempotencyKey(
  tx: Db,
  recordId: string,
  response: StoredResponse,
): Promise<void> {
  await completeRecord(tx, recordId, {
    status: response.status,
    headers: response.headers,
    bodyEncrypted: encryptSecret(response.body),
  });
}

/** Frees the key after a failed request so the client can retry it. */
export async function releaseIdempotencyKey(tx: Db, recordId: string): Promise<void> {
  await releaseRecord(tx, recordId);
}

/** Housekeeping (hourly job `idempotency_purge`): deletes expired records in bounded batches. */
export async function purgeExpiredIdempotencyRecords(
  db: Db,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  return deleteInBatches((limit) => deleteExpiredRecords(db, now, limit), batchSize);
}
