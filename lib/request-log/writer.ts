/**
 * The API request log's writer. Rules:
 * - a request only appends to an in-memory buffer (no await, no query on its path); the buffer
 *   is written with one multi-row INSERT when it holds 200 entries or 1 s after the first one;
 * - never bodies, personal data or secrets: method, path, status, duration, error code, the
 *   credential's id and display name, the app and the verification the path names;
 * - a write that fails is logged and dropped (the log is a debugging aid, not a record of
 *   anyone's data); a process that crashes loses at most the last second;
 * - the batch is one prepared statement over arrays (store.ts: `unnest`): one statement and one
 *   plan however many rows, cheap enough for the hottest paths.
 */
import { config } from "../config";
import type { Db } from "../db/kysely";
import { logger } from "../log";
import type { RequestLogEntry } from "./entry";
import { insertRequestLogs } from "./store";

const MAX_BATCH = 200;
const FLUSH_AFTER_MS = 1000;
const MAX_BUFFER = 10_000;

let buffer: RequestLogEntry[] = [];
let timer: NodeJS.Timeout | undefined;
let dbRef: (() => Db) | undefined;
let inFlight: Promise<void> = Promise.resolve();

/** Off by IDV_REQUEST_LOG=off (for example a benchmark of the bare API). */
export function requestLogEnabled(): boolean {
  return config().requestLog;
}

export function appendRequestLog(kysely: () => Db, entry: RequestLogEntry): void {
  if (!requestLogEnabled()) return;
  dbRef = kysely;
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
      await insertRequestLogs(db(), batch);
    } catch (err) {
      logger.warn({ err, dropped: batch.length }, "request log write failed");
    }
  });
  return inFlight;
}
