/**
 * The queue of webhook attempts (lib/webhooks/dispatch/queue.ts has the rules) on the data layer
 * (lib/db/kysely.ts): the dispatcher's one statement that records a batch of outcomes and
 * claims the next batch (prepared: it runs on every round of the dispatcher), and the queueing
 * of a delivery's next attempt.
 */
import { sql } from "kysely";
import { prepared, type Db } from "../../db/kysely";
import { waitsForEarlierSql } from "../dispatch/order";

/** One outcome as the statement reads it (`jsonb_to_recordset`; timestamps as UTC text). */
interface TInputRow {
  deliveryId: string;
  leaseUntil: string;
  attemptId: string | null;
  attemptNumber: number | null;
  trigger: string | null;
  startedAt: string | null;
  durationMs: number | null;
  responseStatus: number | null;
  error: string | null;
  success: boolean;
  requestHeaders: unknown;
  responseHeaders: unknown;
  responseBody: string | null;
  responseBodyTruncated: boolean;
  status: string;
  lastError: string | null;
  url: string | null;
  nextAttemptAt: string | null;
  queuedTrigger: string | null;
}

export interface TDispatchParams {
  /** the outcomes to record: JSON of `recordRow`s */
  input: string;
  now: Date;
  leaseUntil: Date;
  limit: number;
}

/**
 * One statement records a batch of outcomes and claims the next batch (`limit` rows; 0 claims
 * none, an empty `input` records none). The claim sees the table as it was before the
 * statement, so the deliveries this statement records count as finished for the order of their
 * sessions (the `recorded` ids): the next event of a session goes in the same round trip. Its
 * rows: one per delivery recorded (kind `recorded`), one per delivery claimed (`claimed`) and
 * one with when the next queued delivery not yet due falls due (`next`).
 */
// typed NULLs: the branches of DISPATCH's UNION ALL have the same columns, each branch NULL in
// those it does not have (PostgreSQL needs the type of a NULL a UNION cannot infer)
const NULL = {
  text: sql<string | null>`NULL::text`,
  int: sql<number | null>`NULL::int`,
  boolean: sql<boolean | null>`NULL::boolean`,
  timestamp: sql<Date | null>`NULL::timestamp`,
};

/** The delivery columns of a branch that claims no delivery ('next', 'recorded'), in order. */
const NO_DELIVERY = [
  NULL.text.as("appId"),
  NULL.text.as("eventType"),
  NULL.text.as("body"),
  NULL.int.as("attemptCount"),
  NULL.boolean.as("delivered"),
  NULL.text.as("trigger"),
  NULL.int.as("automaticAttempts"),
  NULL.boolean.as("appLive"),
  NULL.boolean.as("webhookEnabled"),
  NULL.text.as("webhookUrl"),
  NULL.text.as("webhookSecretEncrypted"),
] as const;

const DISPATCH = prepared("webhooks_record_and_claim", (db, p: TDispatchParams) =>
  db
    .with("input", (qc) =>
      qc
        .selectFrom(
          sql<TInputRow>`jsonb_to_recordset(${p.input}::jsonb)`.as<"r">(
            sql`r(delivery_id text, lease_until text, attempt_id text, attempt_number int, trigger text,
      started_at text, duration_ms int, response_status int, error text, success boolean,
      request_headers jsonb, response_headers jsonb, response_body text, response_body_truncated boolean,
      status text, last_error text, url text, next_attempt_at text, queued_trigger text)`,
          ),
        )
        .selectAll(),
    )
    .with("attempts", (qc) =>
      qc
        .insertInto("webhookDeliveryAttempts")
        .columns([
          "id",
          "deliveryId",
          "attemptNumber",
          "trigger",
          "startedAt",
          "durationMs",
          "responseStatus",
          "error",
          "success",
          "requestHeaders",
          "responseHeaders",
          "responseBody",
          "responseBodyTruncated",
        ])
        .expression(
          qc
            .selectFrom("input as i")
            .select([
              "i.attemptId",
              "i.deliveryId",
              "i.attemptNumber",
              "i.trigger",
              sql<Date>`i.started_at::timestamp`.as("startedAt"),
              "i.durationMs",
              "i.responseStatus",
              "i.error",
              "i.success",
              "i.requestHeaders",
              "i.responseHeaders",
              "i.responseBody",
              "i.responseBodyTruncated",
            ])
            .where("i.attemptId", "is not", null)
            .where((eb) =>
              eb.exists(
                eb
                  .selectFrom("webhookDeliveries as x")
                  .select(sql.lit(1).as("one"))
                  .whereRef("x.id", "=", "i.deliveryId"),
              ),
            ),
        )
        .onConflict((oc) => oc.column("id").doNothing()),
    )
    .with("recorded", (qc) =>
      qc
        .updateTable("webhookDeliveries as d")
        .from("input as i")
        .set((eb) => ({
          status: eb.ref("i.status"),
          attemptCount: eb.fn.coalesce("i.attemptNumber", "d.attemptCount"),
          lastStatus: eb
            .case()
            .when("i.attemptId", "is", null)
            .then(eb.ref("d.lastStatus"))
            .else(eb.ref("i.responseStatus"))
            .end(),
          lastError: eb.ref("i.lastError"),
          url: eb.fn.coalesce("i.url", "d.url"),
          nextAttemptAt: sql<Date | null>`i.next_attempt_at::timestamp`,
          leaseUntil: sql.lit(null),
          queuedTrigger: eb.ref("i.queuedTrigger"),
          deliveredAt: eb
            .case()
            .when(eb.ref("i.success"))
            .then(sql<Date>`i.started_at::timestamp`)
            .else(eb.ref("d.deliveredAt"))
            .end(),
          updatedAt: sql<Date>`${p.now}::timestamp`,
        }))
        .whereRef("d.id", "=", "i.deliveryId")
        .where("d.leaseUntil", "=", sql<Date>`i.lease_until::timestamp`)
        .returning("d.id"),
    )
    .with("due", (qc) =>
      qc
        .selectFrom("webhookDeliveries as d")
        .select(["d.id", "d.queuedTrigger"])
        .where("d.queuedTrigger", "is not", null)
        .where("d.nextAttemptAt", "<=", sql<Date>`${p.now}::timestamp`)
        // constants as literals, as the plan of a prepared statement may depend on them
        .where("d.status", "=", sql.lit("pending"))
        .where((eb) =>
          eb.or([eb("d.leaseUntil", "is", null), eb("d.leaseUntil", "<", sql<Date>`${p.now}::timestamp`)]),
        )
        // the order of a session's events (dispatch/order.ts): a statement-level condition
        .where(sql<boolean>`NOT ${sql.raw(waitsForEarlierSql("d", "recorded"))}`)
        .orderBy("d.nextAttemptAt")
        .limit(p.limit)
        .forUpdate("d")
        .skipLocked(),
    )
    .with("claimed", (qc) =>
      qc
        .updateTable("webhookDeliveries as d")
        .from("due")
        .set({
          leaseUntil: sql<Date>`${p.leaseUntil}::timestamp`,
          queuedTrigger: sql.lit(null),
          updatedAt: sql<Date>`${p.now}::timestamp`,
        })
        .whereRef("d.id", "=", "due.id")
        .returning([
          "d.id",
          "d.appId",
          "d.eventType",
          "d.body",
          "d.attemptCount",
          sql<boolean>`d.delivered_at IS NOT NULL`.as("delivered"),
          "due.queuedTrigger as trigger",
        ]),
    )
    .selectNoFrom((eb) => [
      sql<string>`'next'`.as("kind"),
      NULL.text.as("id"),
      ...NO_DELIVERY,
      eb
        .selectFrom("webhookDeliveries as q")
        .select((eb) => eb.fn.min("q.nextAttemptAt").as("at"))
        .where("q.queuedTrigger", "is not", null)
        .where("q.nextAttemptAt", ">", sql<Date>`${p.now}::timestamp`)
        .as("nextDueAt"),
    ])
    .unionAll((eb) =>
      eb
        .selectFrom("recorded as r")
        .select([sql<string>`'recorded'`.as("kind"), "r.id", ...NO_DELIVERY, NULL.timestamp.as("nextDueAt")]),
    )
    .unionAll((eb) =>
      eb
        .selectFrom("claimed as c")
        .leftJoin("apps as a", "a.id", "c.appId")
        .select((eb) => [
          sql<string>`'claimed'`.as("kind"),
          "c.id",
          "c.appId",
          "c.eventType",
          "c.body",
          "c.attemptCount",
          "c.delivered",
          "c.trigger",
          // a delivery never attempted has made no automatic attempt: no need to count them
          eb
            .case()
            .when("c.attemptCount", "=", sql.lit(0))
            .then(sql<number>`0`)
            .else(
              eb
                .selectFrom("webhookDeliveryAttempts as t")
                .select(sql<number>`count(*)::int`.as("n"))
                .whereRef("t.deliveryId", "=", "c.id")
                .where("t.trigger", "=", sql.lit("automatic")),
            )
            .end()
            .as("automaticAttempts"),
          sql<boolean>`(a.id IS NOT NULL AND a.deleted_at IS NULL)`.as("appLive"),
          eb.fn.coalesce("a.webhookEnabled", sql<boolean>`false`).as("webhookEnabled"),
          "a.webhookUrl",
          "a.webhookSecretEncrypted",
          NULL.timestamp.as("nextDueAt"),
        ]),
    ),
);

/** A row of the dispatcher's statement (see DISPATCH). */
export type TDispatchRow = Awaited<ReturnType<typeof DISPATCH.run>>[number];

/** Records the outcomes of `p.input` and claims up to `p.limit` due deliveries: one statement. */
export async function recordAndClaimRows(db: Db, p: TDispatchParams): Promise<TDispatchRow[]> {
  return DISPATCH.run(db, p);
}

/** Queues the next attempt of the pending deliveries `ids` at `now`: how many it queued. */
export async function queuePendingAttempts(
  db: Db,
  ids: readonly string[],
  trigger: string,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable("webhookDeliveries")
    .set({ queuedTrigger: trigger, nextAttemptAt: now, updatedAt: new Date() })
    .where("id", "in", ids)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Ends the leases in `held` (each delivery with the lease its claim set) at `now`, those still
 * held as set: a lease another claim took since is left alone. The dispatchers' recovery then
 * queues the deliveries again (an expired lease). How many it ended.
 */
export async function endLeases(
  db: Db,
  held: readonly { deliveryId: string; leaseUntil: Date }[],
  now: Date,
): Promise<number> {
  if (held.length === 0) return 0;
  const result = await db
    .updateTable("webhookDeliveries")
    .set({ leaseUntil: now, updatedAt: now })
    .where((eb) =>
      eb.or(held.map((h) => eb.and([eb("id", "=", h.deliveryId), eb("leaseUntil", "=", h.leaseUntil)]))),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
