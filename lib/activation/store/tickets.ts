/**
 * Activation tickets on the data layer (lib/db/kysely.ts): their reads (one ticket, the
 * operators' queue, a ticket's history, the queue's workspace names), their insert and their
 * moves. The rules are the services' (submit.ts, review.ts, tickets.ts, demo.ts).
 * Rules of its rows:
 * - a ticket is read with its app's name and deletion (one statement, a join, as
 *   `ticket.app`), every column of its own row;
 * - `submitted` (json) is `unknown`, checked by its readers (lib/providers/requirements.ts); its
 *   keys come back as stored (requirement ids); it is written as JSON text;
 * - timestamps (`createdAt` of a new row, `updatedAt` of every change) are set here, from this
 *   process's clock;
 * - the reads on every request are `prepared`.
 */
import type { Selectable } from "kysely";
import { prepared, type Db, type DB } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

/** A row of activation_tickets. */
export type TTicketRow = Selectable<DB["activationTickets"]>;

/** A ticket with what its answers show of its app. */
export type TTicketWithApp = TTicketRow & { app: { id: string; name: string; deletedAt: Date | null } };

function withApp(row: TTicketRow & { appName: string; appDeletedAt: Date | null }): TTicketWithApp {
  const { appName, appDeletedAt, ...ticket } = row;
  return { ...ticket, app: { id: ticket.appId, name: appName, deletedAt: appDeletedAt } };
}

const ticketsWithApp = (db: Db) =>
  db
    .selectFrom("activationTickets as t")
    .innerJoin("apps as a", "a.id", "t.appId")
    .selectAll("t")
    .select(["a.name as appName", "a.deletedAt as appDeletedAt"]);

// ---------------------------------------------------------------------------------------------
// Tickets

const READ_TICKET = prepared("activation_read_ticket", (db, p: { ticketId: string }) =>
  ticketsWithApp(db).where("t.id", "=", p.ticketId),
);

/** Ticket `ticketId` with its app, whatever its environment; undefined when there is none. */
export async function readTicket(db: Db, ticketId: string): Promise<TTicketWithApp | undefined> {
  const [row] = await READ_TICKET.run(db, { ticketId });
  return row && withApp(row);
}

const READ_TICKET_STATUS = prepared("activation_ticket_status", (db, p: { ticketId: string }) =>
  db.selectFrom("activationTickets").select("status").where("id", "=", p.ticketId),
);

/** The status of ticket `ticketId`; undefined when there is none. */
export async function readTicketStatus(db: Db, ticketId: string): Promise<string | undefined> {
  const [row] = await READ_TICKET_STATUS.run(db, { ticketId });
  return row?.status;
}

/** The queue's filter: one environment and status, optionally one provider; live apps only. */
export interface TQueueFilter {
  environment: TEnvironment;
  status: string;
  providerId: string | null;
}

const QUEUE_COUNT = prepared("activation_queue_count", (db, p: TQueueFilter) =>
  db
    .selectFrom("activationTickets as t")
    .innerJoin("apps as a", "a.id", "t.appId")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("t.environment", "=", p.environment)
    .where("t.status", "=", p.status)
    .where((eb) =>
      eb.or([eb(eb.cast(eb.val(p.providerId), "text"), "is", null), eb("t.providerId", "=", p.providerId)]),
    )
    .where("a.deletedAt", "is", null),
);

const QUEUE_PAGE = prepared(
  "activation_queue_page",
  (db, p: TQueueFilter & { limit: number; offset: number }) =>
    ticketsWithApp(db)
      .where("t.environment", "=", p.environment)
      .where("t.status", "=", p.status)
      .where((eb) =>
        eb.or([eb(eb.cast(eb.val(p.providerId), "text"), "is", null), eb("t.providerId", "=", p.providerId)]),
      )
      .where("a.deletedAt", "is", null)
      // a queue: the oldest request first
      .orderBy("t.requestedAt", "asc")
      .orderBy("t.id", "asc")
      .limit(p.limit)
      .offset(p.offset),
);

/** How many tickets the filter keeps. */
export async function countQueue(db: Db, filter: TQueueFilter): Promise<number> {
  const [row] = await QUEUE_COUNT.run(db, filter);
  return Number(row?.n ?? 0);
}

/** A page of the tickets the filter keeps, the oldest request first. */
export async function listQueue(
  db: Db,
  filter: TQueueFilter,
  { limit, offset }: { limit: number; offset: number },
): Promise<TTicketWithApp[]> {
  return (await QUEUE_PAGE.run(db, { ...filter, limit, offset })).map(withApp);
}

const HISTORY = prepared(
  "activation_ticket_history",
  (db, p: { ticketId: string; appId: string; providerId: string }) =>
    ticketsWithApp(db)
      .where("t.appId", "=", p.appId)
      .where("t.providerId", "=", p.providerId)
      .where("t.id", "!=", p.ticketId)
      .orderBy("t.requestedAt", "desc")
      .orderBy("t.id", "desc")
      .limit(50),
);

/** Up to 50 other tickets of the ticket's app and provider, the newest first. */
export async function listEarlierTickets(db: Db, ticket: TTicketRow): Promise<TTicketWithApp[]> {
  const rows = await HISTORY.run(db, {
    ticketId: ticket.id,
    appId: ticket.appId,
    providerId: ticket.providerId,
  });
  return rows.map(withApp);
}

/** What a new ticket records beyond the app and the provider it is for. */
export interface TNewTicket {
  status: string;
  /** requirement id → submitted value */
  submitted: Record<string, unknown>;
  demo?: boolean;
  requestedAt: Date;
  reviewStartedAt?: Date | null;
  activatedAt?: Date | null;
  reviewerUserId?: string | null;
}

/** Inserts ticket `id` of `app` for `providerId`. */
export async function insertTicket(
  db: Db,
  id: string,
  app: { id: string; workspaceId: string; environment: TEnvironment },
  providerId: string,
  ticket: TNewTicket,
): Promise<void> {
  const now = new Date();
  await db
    .insertInto("activationTickets")
    .values({
      ...ticket,
      id,
      appId: app.id,
      workspaceId: app.workspaceId,
      environment: app.environment,
      providerId,
      submitted: JSON.stringify(ticket.submitted),
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

/** What a move changes on a ticket beside its status. */
export interface TTicketChange {
  reviewStartedAt?: Date;
  activatedAt?: Date;
  rejectedAt?: Date;
  rejectionReason?: string;
  reviewerUserId?: string;
}

/** Moves ticket `ticketId` from status `from` to `to`: whether it still was in `from`. */
export async function updateTicketStatus(
  db: Db,
  ticketId: string,
  move: { from: string; to: string; change?: TTicketChange },
): Promise<boolean> {
  const result = await db
    .updateTable("activationTickets")
    .set({ ...move.change, status: move.to, updatedAt: new Date() })
    .where("id", "=", ticketId)
    .where("status", "=", move.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// ---------------------------------------------------------------------------------------------
// The queue's workspace names

const WORKSPACE_NAMES = prepared("activation_workspace_names", (db, p: { ids: string[] }) =>
  db
    .selectFrom("workspaces")
    .select(["id", "name"])
    .where((eb) => eb("id", "=", eb.fn.any(eb.val(p.ids)))),
);

/** The names of workspaces `ids` (those that exist), by id. */
export async function readWorkspaceNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await WORKSPACE_NAMES.run(db, { ids });
  return new Map(rows.map((w) => [w.id, w.name]));
}
