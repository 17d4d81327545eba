/**
 * The outbox of verification events (lib/webhooks/events.ts has the rules): the events and their
 * webhook deliveries written by one statement, on the data layer (lib/db/kysely.ts); the common
 * table expressions `withOutbox` for a statement of its own (`insertEvents`) or a session's
 * creation or state change (lib/verifications/store); and a delivery of its own (test events).
 */
import { sql, type Insertable } from "kysely";
import type { WebhookDelivery } from "../../db/generated/kysely/types";
import { prepared, type Db } from "../../db/kysely";
import type { TWakeMode } from "../dispatch/wake";

/** The parameters of the outbox (`withOutbox`), from `outboxValues`. */
export interface TOutboxParams {
  verificationId: string;
  appId: string;
  at: Date;
  eventIds: string[];
  eventTypes: string[];
  bodies: string[];
  deliveryIds: string[];
  wake: TWakeMode;
}

/** One event of the batch, numbered in order (`ord`). */
interface TOutboxEvent {
  id: string;
  type: string;
  body: string;
  deliveryId: string;
  ord: string;
}

/**
 * The outbox of a batch of events as common table expressions of one statement on `db` (the
 * statement then goes on with its own CTEs and its final select): the events in order (their
 * `seq` follows the list) and a delivery for each one the app's webhook is enabled and
 * subscribed for, the app's settings read in the same statement. A new delivery row is queued
 * for its first attempt by its own column default, and its insert wakes the dispatchers at
 * commit (lib/webhooks/dispatch/queue.ts; the dispatcher of this process directly where it can,
 * lib/webhooks/dispatch/wake.ts): no job. An empty batch writes nothing. `outboxDeliveries` holds the ids
 * of the deliveries it queued.
 */
export function withOutbox(db: Db, p: TOutboxParams) {
  // timestamps sent as UTC text, cast where no column gives the parameter its type
  const at = sql<Date>`${p.at}::timestamp`;
  return db
    .with("outboxEvents", (qc) =>
      qc
        .selectFrom(
          sql<TOutboxEvent>`unnest(${p.eventIds}::text[], ${p.eventTypes}::text[], ${p.bodies}::text[], ${p.deliveryIds}::text[]) WITH ORDINALITY`.as<"e">(
            sql`e(id, type, body, delivery_id, ord)`,
          ),
        )
        .select(["e.id", "e.type", "e.body", "e.deliveryId", "e.ord"]),
    )
    .with("outboxInsertedEvents", (qc) =>
      qc
        .insertInto("verificationEvents")
        .columns(["id", "verificationId", "appId", "type", "payload", "createdAt"])
        .expression(
          qc
            .selectFrom("outboxEvents as e")
            .select([
              "e.id",
              sql<string>`${p.verificationId}::text`.as("verificationId"),
              sql<string>`${p.appId}::text`.as("appId"),
              "e.type",
              sql<unknown>`e.body::jsonb`.as("payload"),
              at.as("createdAt"),
            ])
            .orderBy("e.ord"),
        )
        .returning(["id", "seq"]),
    )
    .with("outboxWebhook", (qc) =>
      qc
        .selectFrom("apps as a")
        .select(["a.webhookUrl", "a.webhookEvents"])
        .where("a.id", "=", p.appId)
        .where("a.deletedAt", "is", null)
        .where((eb) => eb.ref("a.webhookEnabled"))
        .where("a.webhookUrl", "is not", null),
    )
    .with("outboxWake", (qc) =>
      qc.selectNoFrom(sql<string>`set_config('idv.webhook_wake', ${p.wake}::text, true)`.as("mode")),
    )
    .with("outboxDeliveries", (qc) =>
      qc
        .insertInto("webhookDeliveries")
        .columns([
          "id",
          "appId",
          "eventId",
          "verificationId",
          "eventSeq",
          "eventType",
          "url",
          "body",
          "nextAttemptAt",
          "createdAt",
          "updatedAt",
        ])
        .expression(
          qc
            .selectFrom("outboxEvents as e")
            .innerJoin("outboxInsertedEvents as ie", "ie.id", "e.id")
            .crossJoin("outboxWebhook as w")
            .crossJoin("outboxWake")
            .select([
              "e.deliveryId",
              sql<string>`${p.appId}::text`.as("appId"),
              "e.id",
              sql<string>`${p.verificationId}::text`.as("verificationId"),
              "ie.seq",
              "e.type",
              "w.webhookUrl",
              "e.body",
              at.as("nextAttemptAt"),
              at.as("createdAt"),
              at.as("updatedAt"),
            ])
            .where((eb) => eb("e.type", "=", eb.fn.any("w.webhookEvents")))
            .orderBy("e.ord"),
        )
        .returning("id"),
    );
}

const INSERT_EVENTS = prepared("webhooks_emit_events", (db, p: TOutboxParams) =>
  withOutbox(db, p)
    .selectFrom("outboxDeliveries")
    .select(sql<number>`count(*)::int`.as("deliveries")),
);

/** Writes the events of `p` and queues their deliveries (one statement): how many it queued. */
export async function insertEvents(db: Db, p: TOutboxParams): Promise<number> {
  const [row] = await INSERT_EVENTS.run(db, p);
  return row?.deliveries ?? 0;
}

/** Inserts one delivery (queued for its first automatic attempt by the column's default). */
export async function insertDelivery(db: Db, row: Insertable<WebhookDelivery>): Promise<void> {
  await db.insertInto("webhookDeliveries").values(row).execute();
}
