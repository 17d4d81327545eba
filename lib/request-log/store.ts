/**
 * The api_request_logs table's writes on the data layer (lib/db/kysely.ts): a batch of the
 * writer's entries (writer.ts) in one prepared statement over arrays, one per column (`unnest`),
 * not a multi-row VALUES whose text and parameter count would change with the batch's size.
 */
import { sql } from "kysely";
import { countRows, likeLiteral, prepared, type Db } from "../db/kysely";
import type { RequestLogEntry } from "./entry";

type TColumns = { [K in keyof RequestLogEntry]: RequestLogEntry[K][] };

// ON CONFLICT: a row already written is skipped
const INSERT_BATCH = prepared("request_log_insert", (db, p: TColumns) =>
  db
    .insertInto("apiRequestLogs")
    .columns([
      "id",
      "workspaceId",
      "environment",
      "method",
      "path",
      "status",
      "durationMs",
      "errorCode",
      "credentialType",
      "credentialId",
      "credentialName",
      "appId",
      "verificationId",
      "createdAt",
    ])
    .expression(
      sql`SELECT * FROM unnest(${p.id}::text[], ${p.workspaceId}::text[], ${p.environment}::"Environment"[],
        ${p.method}::text[], ${p.path}::text[], ${p.status}::int[], ${p.durationMs}::int[],
        ${p.errorCode}::text[], ${p.credentialType}::text[], ${p.credentialId}::text[],
        ${p.credentialName}::text[], ${p.appId}::text[], ${p.verificationId}::text[],
        ${p.createdAt}::timestamp(3)[])`,
    )
    .onConflict((oc) => oc.doNothing()),
);

/** Writes `batch` (entries whose id is already written are skipped). */
export async function insertRequestLogs(db: Db, batch: readonly RequestLogEntry[]): Promise<void> {
  await INSERT_BATCH.run(db, {
    id: batch.map((e) => e.id),
    workspaceId: batch.map((e) => e.workspaceId),
    environment: batch.map((e) => e.environment),
    method: batch.map((e) => e.method),
    path: batch.map((e) => e.path),
    status: batch.map((e) => e.status),
    durationMs: batch.map((e) => e.durationMs),
    errorCode: batch.map((e) => e.errorCode),
    credentialType: batch.map((e) => e.credentialType),
    credentialId: batch.map((e) => e.credentialId),
    credentialName: batch.map((e) => e.credentialName),
    appId: batch.map((e) => e.appId),
    verificationId: batch.map((e) => e.verificationId),
    createdAt: batch.map((e) => e.createdAt),
  });
}

/** Deletes at most `limit` entries written before `before`: how many went (purge.ts). */
export async function deleteRequestLogsBefore(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("apiRequestLogs")
    .where("id", "in", (eb) =>
      eb.selectFrom("apiRequestLogs").select("id").where("createdAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------------
// Reading the log (list.ts: GET /v1/request-logs)

/** Which entries: a workspace's of one environment, narrowed by the other fields present. */
export interface TRequestLogFilter {
  workspaceId: string;
  environment: RequestLogEntry["environment"];
  /** status from (inclusive) below (exclusive) */
  status?: { from: number; below: number };
  method?: string;
  /** part of the path, its LIKE wildcards taken literally */
  pathContains?: string;
  appId?: string;
  credentialId?: string;
  verificationId?: string;
  /** createdAt from (inclusive) and to (exclusive) */
  from?: Date;
  to?: Date;
}

function requestLogsOf(db: Db, f: TRequestLogFilter) {
  let query = db
    .selectFrom("apiRequestLogs")
    .where("workspaceId", "=", f.workspaceId)
    .where("environment", "=", f.environment);
  if (f.status) query = query.where("status", ">=", f.status.from).where("status", "<", f.status.below);
  if (f.method !== undefined) query = query.where("method", "=", f.method);
  if (f.pathContains !== undefined) query = query.where("path", "like", `%${likeLiteral(f.pathContains)}%`);
  if (f.appId !== undefined) query = query.where("appId", "=", f.appId);
  if (f.credentialId !== undefined) query = query.where("credentialId", "=", f.credentialId);
  if (f.verificationId !== undefined) query = query.where("verificationId", "=", f.verificationId);
  if (f.from) query = query.where("createdAt", ">=", f.from);
  if (f.to) query = query.where("createdAt", "<", f.to);
  return query;
}

/** How many entries `filter` selects. */
export async function countRequestLogs(db: Db, filter: TRequestLogFilter): Promise<number> {
  return countRows(requestLogsOf(db, filter));
}

/** One page of the entries `filter` selects, newest first (ids break ties), every column. */
export function listRequestLogRows(
  db: Db,
  filter: TRequestLogFilter,
  { limit, offset }: { limit: number; offset: number },
) {
  return requestLogsOf(db, filter)
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}
