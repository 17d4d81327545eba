/**
 * Idempotency-Key handling (DESIGN.md §5).
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
import type { Tx } from "../db/client";
import { decryptSecret, encryptSecret } from "../crypto/encryption";
import type { TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { deleteInBatches, type TPurgeOptions } from "../jobs/batches";

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

interface RecordRow {
  id: string;
  method: string;
  path: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  claimable: boolean;
}

export async function claimIdempotencyKey(db: Tx, scope: IdempotencyScope): Promise<IdempotencyClaim> {
  const now = Date.now();
  const lockedUntil = new Date(now + IDEMPOTENCY_LOCK_MS);
  const expiresAt = new Date(now + IDEMPOTENCY_TTL_MS);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO idempotency_records (id, workspace_id, environment, key, method, path, request_hash, state, locked_until, expires_at)
      VALUES (gen_random_uuid()::text, ${scope.workspaceId}, ${scope.environment}::"Environment", ${scope.key}, ${scope.method},
              ${scope.path}, ${scope.requestHash}, 'in_progress', ${lockedUntil}, ${expiresAt})
      ON CONFLICT (workspace_id, environment, key) DO NOTHING
      RETURNING id`;
    if (inserted[0]) return { kind: "claimed", recordId: inserted[0].id };

    const rows = await db.$queryRaw<RecordRow[]>`
      SELECT id, method, path, request_hash, state, response_status, response_headers, response_body,
             (expires_at < now() OR (state = 'in_progress' AND locked_until < now())) AS claimable
      FROM idempotency_records
      WHERE workspace_id = ${scope.workspaceId} AND environment = ${scope.environment}::"Environment" AND key = ${scope.key}`;
    const existing = rows[0];
    if (!existing) continue; // released between our insert and select: try again

    if (existing.claimable) {
      // expired, or abandoned by a crashed request: take it over atomically
      const taken = await db.$queryRaw<{ id: string }[]>`
        UPDATE idempotency_records
        SET method = ${scope.method}, path = ${scope.path}, request_hash = ${scope.requestHash}, state = 'in_progress',
            response_status = NULL, response_headers = NULL, response_body = NULL,
            created_at = now(), locked_until = ${lockedUntil}, expires_at = ${expiresAt}
        WHERE id = ${existing.id} AND (expires_at < now() OR (state = 'in_progress' AND locked_until < now()))
        RETURNING id`;
      if (taken[0]) return { kind: "claimed", recordId: taken[0].id };
      continue;
    }
    if (
      existing.method !== scope.method ||
      existing.path !== scope.path ||
      existing.request_hash !== scope.requestHash
    ) {
      throw new ApiError(
        "IDEMPOTENCY_KEY_CONFLICT",
        "This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request",
      );
    }
    if (
      existing.state !== "completed" ||
      existing.response_status === null ||
      existing.response_body === null
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
        status: existing.response_status,
        headers: existing.response_headers ?? {},
        body: decryptSecret(existing.response_body),
      },
    };
  }
  throw new ApiError("IDEMPOTENCY_KEY_IN_USE", "The Idempotency-Key is contended. Retry shortly", {
    headers: { "Retry-After": "1" },
  });
}

/** Stores the response; call inside the transaction that did the work. */
export async function completeIdempotencyKey(
  db: Tx,
  recordId: string,
  response: StoredResponse,
): Promise<void> {
  await db.idempotencyRecord.update({
    where: { id: recordId },
    data: {
      state: "completed",
      responseStatus: response.status,
      responseHeaders: response.headers,
      responseBody: encryptSecret(response.body),
    },
  });
}

/** Frees the key after a failed request so the client can retry it. */
export async function releaseIdempotencyKey(db: Tx, recordId: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId, state: "in_progress" } });
}

/** Housekeeping (hourly job `idempotency_purge`): deletes expired records in bounded batches. */
export async function purgeExpiredIdempotencyRecords(
  db: Pick<Tx, "$executeRaw">,
  { now = new Date(), batchSize }: TPurgeOptions = {},
): Promise<number> {
  // expires_at is a UTC `timestamp without time zone`: the literal's Z is ignored on the cast
  const before = now.toISOString();
  return deleteInBatches(
    (limit) => db.$executeRaw`
      DELETE FROM idempotency_records
       WHERE id IN (SELECT id FROM idempotency_records
                     WHERE expires_at < ${before}::timestamp LIMIT ${limit})`,
    batchSize,
  );
}
