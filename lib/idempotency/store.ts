/**
 * The idempotency_records table (lib/idempotency/index.ts has the rules): every statement on it,
 * on the data layer (lib/db/kysely.ts). The claim runs on every idempotent POST: its three
 * statements are prepared.
 */
import { sql } from "kysely";
import { prepared, type Db } from "../db/kysely";
import type { TEnvironment } from "../environments";

export interface TClaimValues {
  workspaceId: string;
  environment: TEnvironment;
  key: string;
  method: string;
  path: string;
  requestHash: string;
  lockedUntil: Date;
  expiresAt: Date;
}

// a record whose lifetime ended, or whose request crashed before committing, may be taken over
const claimable = sql<boolean>`(expires_at < now() OR (state = 'in_progress' AND locked_until < now()))`;

const INSERT_CLAIM = prepared("idempotency_insert_claim", (db, p: TClaimValues) =>
  db
    .insertInto("idempotencyRecords")
    .values({
      id: sql<string>`gen_random_uuid()::text`,
      workspaceId: p.workspaceId,
      environment: p.environment,
      key: p.key,
      method: p.method,
      path: p.path,
      requestHash: p.requestHash,
      state: "in_progress",
      lockedUntil: p.lockedUntil,
      expiresAt: p.expiresAt,
    })
    .onConflict((oc) => oc.columns(["workspaceId", "environment", "key"]).doNothing())
    .returning("id"),
);

const READ_RECORD = prepared(
  "idempotency_read_record",
  (db, p: Pick<TClaimValues, "workspaceId" | "environment" | "key">) =>
    db
      .selectFrom("idempotencyRecords")
      .select([
        "id",
        "method",
        "path",
        "requestHash",
        "state",
        "responseStatus",
        "responseHeaders",
        "responseBody",
        claimable.as("claimable"),
      ])
      .where("workspaceId", "=", p.workspaceId)
      .where("environment", "=", p.environment)
      .where("key", "=", p.key),
);

const TAKE_OVER = prepared("idempotency_take_over", (db, p: TClaimValues & { id: string }) =>
  db
    .updateTable("idempotencyRecords")
    .set({
      method: p.method,
      path: p.path,
      requestHash: p.requestHash,
      state: "in_progress",
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      createdAt: sql<Date>`now()`,
      lockedUntil: p.lockedUntil,
      expiresAt: p.expiresAt,
    })
    .where("id", "=", p.id)
    .where(claimable)
    .returning("id"),
);

/** Inserts the claim unless the key has a record: the new record's id, or undefined. */
export async function insertClaim(db: Db, values: TClaimValues): Promise<string | undefined> {
  const [row] = await INSERT_CLAIM.run(db, values);
  return row?.id;
}

/** The key's record, and whether it may be taken over. */
export async function readRecord(db: Db, scope: Pick<TClaimValues, "workspaceId" | "environment" | "key">) {
  const [row] = await READ_RECORD.run(db, scope);
  return row;
}

/** Takes over record `id` if it is still claimable: true when it did. */
export async function takeOverRecord(db: Db, id: string, values: TClaimValues): Promise<boolean> {
  return (await TAKE_OVER.run(db, { ...values, id })).length > 0;
}

export async function completeRecord(
  db: Db,
  id: string,
  response: { status: number; headers: Record<string, string>; bodyEncrypted: string },
): Promise<void> {
  await db
    .updateTable("idempotencyRecords")
    .set({
      state: "completed",
      responseStatus: response.status,
      responseHeaders: JSON.stringify(response.headers),
      responseBody: response.bodyEncrypted,
    })
    .where("id", "=", id)
    .execute();
}

/** Deletes record `id` while its request is still in progress. */
export async function releaseRecord(db: Db, id: string): Promise<void> {
  await db.deleteFrom("idempotencyRecords").where("id", "=", id).where("state", "=", "in_progress").execute();
}

/** Deletes at most `limit` records that expired before `before`: how many it deleted. */
export async function deleteExpiredRecords(db: Db, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("idempotencyRecords")
    .where("id", "in", (eb) =>
      eb.selectFrom("idempotencyRecords").select("id").where("expiresAt", "<", before).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
