/**
 * The API request log's writer. Rules:
 * - a request only appends to an in-memory buffer (no await, no query on its path); the buffer
 *   is written with one multi-row INSERT when it holds 200 entries or 1 s after the first one;
 * - never bodies, personal data or secrets: method, path, status, duration, error code, the
 *   credential's id and display name, the app and the verification the path names;
 * - a write that fails is logged and dropped (the log is a debugging aid, not a record of
 *   anyone's data); a process that crashes loses at most the last second;
 * - the batch is one prepared statement over arrays (lib/db/sql.ts: `unnest`), not Prisma's
 *   createMany, whose query compiler cost more CPU per request than the rest of a status read.
 */
import { config } from "../config";
import type { PrismaClient } from "../db/generated/client";
import { defineCommand, execute } from "../db/sql";
import type { TEnvironment } from "../environments";
import type { TCredentialType } from "./endpoints";
import { logger } from "../log";

export interface RequestLogEntry {
  id: string;
  workspaceId: string | null;
  environment: TEnvironment;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  errorCode: string | null;
  credentialType: TCredentialType;
  credentialId: string | null;
  credentialName: string | null;
  appId: string | null;
  verificationId: string | null;
  createdAt: Date;
}

// the columns of api_request_logs, one array each; ON CONFLICT: a row already written is skipped
const INSERT_BATCH = defineCommand<
  [
    id: string[],
    workspaceId: (string | null)[],
    environment: string[],
    method: string[],
    path: string[],
    status: number[],
    durationMs: number[],
    errorCode: (string | null)[],
    credentialType: string[],
    credentialId: (string | null)[],
    credentialName: (string | null)[],
    appId: (string | null)[],
    verificationId: (string | null)[],
    createdAt: Date[],
  ]
>({
  name: "request_log_insert",
  text: `INSERT INTO api_request_logs (id, workspace_id, environment, method, path, status, duration_ms,
           error_code, credential_type, credential_id, credential_name, app_id, verification_id, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::"Environment"[], $4::text[], $5::text[],
           $6::int[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
           $13::text[], $14::timestamp(3)[])
         ON CONFLICT DO NOTHING`,
});

function insertBatch(db: PrismaClient, batch: RequestLogEntry[]): Promise<number> {
  return execute(db, INSERT_BATCH, [
    batch.map((e) => e.id),
    batch.map((e) => e.workspaceId),
    batch.map((e) => e.environment),
    batch.map((e) => e.method),
    batch.map((e) => e.path),
    batch.map((e) => e.status),
    batch.map((e) => e.durationMs),
    batch.map((e) => e.errorCode),
    batch.map((e) => e.credentialType),
    batch.map((e) => e.credentialId),
    batch.map((e) => e.credentialName),
    batch.map((e) => e.appId),
    batch.map((e) => e.verificationId),
    batch.map((e) => e.createdAt),
  ]);
}

const MAX_BATCH = 200;
const FLUSH_AFTER_MS = 1000;
const MAX_BUFFER = 10_000;

let buffer: RequestLogEntry[] = [];
let timer: NodeJS.Timeout | undefined;
let dbRef: (() => PrismaClient) | undefined;
let inFlight: Promise<void> = Promise.resolve();

/** Off by IDV_REQUEST_LOG=off (for example a benchmark of the bare API). */
export function requestLogEnabled(): boolean {
  return config().requestLog;
}

export function appendRequestLog(getDb: () => PrismaClient, entry: RequestLogEntry): void {
  if (!requestLogEnabled()) return;
  dbRef = getDb;
  // under a flood that the database cannot absorb, drop the oldest rather than grow without bound
  if (buffer.length >= MAX_BUFFER) buffer.shift();
  buffer.push(entry);
  if (buffer.length >= MAX_BATCH) void flushRequestLog();
  else if (!timer) {
    timer = setTimeout(() => void flushRequestLog(), FLUSH_AFTER_MS);
    timer.unref();
  }
}

/** Writes what is buffered; resolves when it (and any earlier write) is done. */
export function flushRequestLog(): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = undefined;
  }
  const batch = buffer;
  buffer = [];
  const db = dbRef;
  if (batch.length === 0 || !db) return inFlight;
  inFlight = inFlight.then(async () => {
    try {
      await insertBatch(db(), batch);
    } catch (err) {
      logger.warn({ err, dropped: batch.length }, "request log write failed");
    }
  });
  return inFlight;
}
