/**
 * The webhook delivery log of an app (lib/webhooks/log/service.ts) and the sweeper's read
 * (lib/webhooks/dispatch/sweep.ts), on the data layer (lib/db/kysely.ts). A delivery comes with
 * its attempts in one statement (`jsonArrayFrom` of one `jsonBuildObject` per attempt, `o`: the
 * data layer maps only a result row's own columns, so a nested row names its keys itself), in
 * attempt order; their timestamps travel as epoch milliseconds (lib/db/timestamps.ts), their
 * header maps as JSON (`unknown`, checked by the service).
 */
import type { ExpressionBuilder, Selectable } from "kysely";
import { jsonArrayFrom, jsonBuildObject } from "kysely/helpers/postgres";
import type { DB, WebhookDelivery } from "../../db/generated/kysely/types";
import { countRows, prepared, type Db } from "../../db/kysely";
import { epochMs, fromEpochMs } from "../../db/timestamps";

/** What the log shows of an attempt. */
export interface TAttemptSummaryRow {
  attemptNumber: number;
  trigger: string;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  success: boolean;
}

/** An attempt with what its detail adds: the request's headers and the receiver's answer. */
export interface TAttemptRow extends TAttemptSummaryRow {
  id: string;
  deliveryId: string;
  requestHeaders: unknown;
  responseHeaders: unknown;
  responseBody: string | null;
  responseBodyTruncated: boolean;
}

/** A delivery with its attempts. */
export type TDeliveryRow<A extends TAttemptSummaryRow = TAttemptRow> = Selectable<WebhookDelivery> & {
  attempts: A[];
};

/** The attempts of delivery `d.id` in order, with the detail's columns or without. */
function attemptsOf(eb: ExpressionBuilder<DB & { d: DB["webhookDeliveries"] }, "d">) {
  return jsonArrayFrom(
    eb
      .selectFrom("webhookDeliveryAttempts as t")
      .select((te) =>
        jsonBuildObject({
          id: te.ref("t.id"),
          deliveryId: te.ref("t.deliveryId"),
          attemptNumber: te.ref("t.attemptNumber"),
          trigger: te.ref("t.trigger"),
          startedAtMs: epochMs(te.ref("t.startedAt")),
          durationMs: te.ref("t.durationMs"),
          responseStatus: te.ref("t.responseStatus"),
          error: te.ref("t.error"),
          success: te.ref("t.success"),
          requestHeaders: te.ref("t.requestHeaders"),
          responseHeaders: te.ref("t.responseHeaders"),
          responseBody: te.ref("t.responseBody"),
          responseBodyTruncated: te.ref("t.responseBodyTruncated"),
        }).as("o"),
      )
      .whereRef("t.deliveryId", "=", "d.id")
      .orderBy("t.attemptNumber"),
  ).as("attempts");
}

type TAttemptJson = { o: Omit<TAttemptRow, "startedAt"> & { startedAtMs: number } };

function withAttempts(row: Selectable<WebhookDelivery> & { attempts: TAttemptJson[] }): TDeliveryRow {
  return {
    ...row,
    attempts: row.attempts.map(({ o: { startedAtMs, ...attempt } }) => ({
      ...attempt,
      startedAt: fromEpochMs(startedAtMs),
    })),
  };
}

export interface TDeliveryFilter {
  appId: string;
  status?: string;
  eventType?: string;
}

function filtered(db: Db, f: TDeliveryFilter) {
  let query = db.selectFrom("webhookDeliveries as d").where("d.appId", "=", f.appId);
  if (f.status !== undefined) query = query.where("d.status", "=", f.status);
  if (f.eventType !== undefined) query = query.where("d.eventType", "=", f.eventType);
  return query;
}

/**
 * A page of the app's deliveries with their attempts, newest first (ids are ULIDs: the
 * tie-break keeps deliveries of the same millisecond in creation order).
 */
export async function listDeliveryRows(
  db: Db,
  f: TDeliveryFilter,
  page: { limit: number; offset: number },
): Promise<TDeliveryRow[]> {
  const rows = await filtered(db, f)
    .selectAll("d")
    .select((eb) => attemptsOf(eb))
    .orderBy("d.createdAt", "desc")
    .orderBy("d.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(withAttempts);
}

/** How many deliveries of the app the filter finds. */
export async function countDeliveries(db: Db, f: TDeliveryFilter): Promise<number> {
  return countRows(filtered(db, f));
}

const DELIVERY = prepared("webhooks_delivery_read", (db, p: { id: string; appId: string }) =>
  db
    .selectFrom("webhookDeliveries as d")
    .selectAll("d")
    .select((eb) => attemptsOf(eb))
    .where("d.id", "=", p.id)
    .where("d.appId", "=", p.appId),
);

/** Delivery `id` of app `appId` with its attempts; undefined when the app has none of that id. */
export async function readDeliveryRow(db: Db, appId: string, id: string): Promise<TDeliveryRow | undefined> {
  const [row] = await DELIVERY.run(db, { id, appId });
  return row && withAttempts(row);
}

/**
 * Puts finished delivery `id` (dead or succeeded) back to pending, due `now` and unleased:
 * whether it was finished (of two concurrent redeliveries only one finds it so).
 */
export async function reopenFinishedDelivery(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("webhookDeliveries")
    .set({ status: "pending", nextAttemptAt: now, leaseUntil: null, updatedAt: new Date() })
    .where("id", "=", id)
    .where("status", "in", ["dead", "succeeded"])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Up to `limit` pending deliveries stuck at `now`, the most overdue first: a lease that ran out,
 * or on no queue and held by nobody with the next attempt (or, without one, the last change)
 * before `overdue`. Each with whether it was delivered and its attempts' triggers.
 */
export async function readStuckDeliveries(db: Db, now: Date, overdue: Date, limit: number) {
  return db
    .selectFrom("webhookDeliveries as d")
    .select((eb) => [
      "d.id",
      "d.deliveredAt",
      jsonArrayFrom(
        eb
          .selectFrom("webhookDeliveryAttempts as t")
          .select("t.trigger")
          .whereRef("t.deliveryId", "=", "d.id"),
      ).as("attempts"),
    ])
    .where("d.status", "=", "pending")
    .where((eb) =>
      eb.or([
        eb("d.leaseUntil", "<", now),
        eb.and([
          eb("d.leaseUntil", "is", null),
          eb("d.queuedTrigger", "is", null),
          eb("d.nextAttemptAt", "<", overdue),
        ]),
        eb.and([
          eb("d.leaseUntil", "is", null),
          eb("d.queuedTrigger", "is", null),
          eb("d.nextAttemptAt", "is", null),
          eb("d.updatedAt", "<", overdue),
        ]),
      ]),
    )
    .orderBy("d.nextAttemptAt")
    .limit(limit)
    .execute();
}
