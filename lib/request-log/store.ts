/**
 * The api_request_logs table's writes on the data layer (lib/db/kysely.ts): a batch of the
 * writer's entries (writer.ts) in one prepared statement over arrays, one per column (`unnest`),
 * not a multi-row VALUES whose text and parameter count would change with the batch's size.
 */
import { sql } from "kysely";
import { prepared, type Db } from "../db/kysely";
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
