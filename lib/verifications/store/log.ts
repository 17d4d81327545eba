/**
 * The workspace's view of verification sessions (./service.ts has the rules), on the data layer
 * (lib/db/kysely.ts): the list and its count, one session with its app's name, and a session's
 * activity — its events, their webhook deliveries, the request log's rows that named it.
 * Rules of its statements:
 * - a session comes with its app's name by a join (one statement);
 * - the list's filters are optional, so the list and its count are built per request; the reads
 *   of one session and of its activity are prepared (named);
 * - orders are total (ids break ties), as before: the list newest first, events by their
 *   sequence, deliveries oldest first, requests newest first (the caller reverses them).
 */
import type { SelectQueryBuilder } from "kysely";
import type { DB } from "../../db/generated/kysely/types";
import { countRows, prepared, type Db } from "../../db/kysely";
import type { TEnvironment } from "../../environments";

/** Which sessions the list shows (every field but the scope optional). */
export interface TVerificationFilter {
  workspaceId: string;
  environment: TEnvironment;
  status?: readonly string[];
  providerId?: string;
  appId?: string;
  /** createdAt from (inclusive) */
  from?: Date;
  /** createdAt to (exclusive) */
  to?: Date;
}

type TFrom = DB & { v: DB["verifications"] };

/** `query` restricted to the sessions of `filter`. */
function filtered<O>(
  query: SelectQueryBuilder<TFrom, "v", O>,
  filter: TVerificationFilter,
): SelectQueryBuilder<TFrom, "v", O> {
  let q = query
    .where("v.workspaceId", "=", filter.workspaceId)
    .where("v.environment", "=", filter.environment)
    // an OpenID Provider session no end-user acted on is nobody's session yet (create.ts)
    .where("v.untouched", "=", false);
  const { status, providerId, appId, from, to } = filter;
  if (status) q = q.where((eb) => eb("v.status", "=", eb.fn.any(eb.val([...status]))));
  if (providerId !== undefined) q = q.where("v.providerId", "=", providerId);
  if (appId !== undefined) q = q.where("v.appId", "=", appId);
  if (from) q = q.where("v.createdAt", ">=", from);
  if (to) q = q.where("v.createdAt", "<", to);
  return q;
}

/** How many sessions `filter` shows. */
export async function countVerifications(db: Db, filter: TVerificationFilter): Promise<number> {
  return countRows(filtered(db.selectFrom("verifications as v"), filter));
}

/** A session row with its app's name. */
function withAppName<T extends { appName: string }>({ appName, ...v }: T) {
  return { ...v, app: { name: appName } };
}

/** A page of the sessions `filter` shows, newest first, each with its app's name. */
export async function listVerifications(db: Db, filter: TVerificationFilter, limit: number, offset: number) {
  const rows = await filtered(db.selectFrom("verifications as v"), filter)
    .innerJoin("apps as a", "a.id", "v.appId")
    .selectAll("v")
    .select("a.name as appName")
    // ids are ULIDs: the tie-break keeps sessions of the same millisecond in creation order
    .orderBy("v.createdAt", "desc")
    .orderBy("v.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(withAppName);
}

const READ_WITH_APP = prepared("verification_log_read", (db, p: { verificationId: string }) =>
  db
    .selectFrom("verifications as v")
    .innerJoin("apps as a", "a.id", "v.appId")
    .selectAll("v")
    .select("a.name as appName")
    .where("v.id", "=", p.verificationId),
);

/** Session `id` with its app's name; undefined: none. */
export async function readVerificationWithApp(db: Db, id: string) {
  const [row] = await READ_WITH_APP.run(db, { verificationId: id });
  return row && withAppName(row);
}

const EVENTS = prepared("verification_log_events", (db, p: { verificationId: string }) =>
  db
    .selectFrom("verificationEvents")
    .select(["id", "type", "createdAt", "payload"])
    .where("verificationId", "=", p.verificationId)
    .orderBy("seq", "asc"),
);

/** The events of session `id`, in the order they happened. */
export function listEvents(db: Db, id: string) {
  return EVENTS.run(db, { verificationId: id });
}

const DELIVERIES = prepared("verification_log_deliveries", (db, p: { verificationId: string }) =>
  db
    .selectFrom("webhookDeliveries as d")
    .innerJoin("verificationEvents as e", "e.id", "d.eventId")
    .select([
      "d.id",
      "d.eventId",
      "d.eventType",
      "d.status",
      "d.attemptCount",
      "d.lastStatus",
      "d.createdAt",
      "d.deliveredAt",
      "d.nextAttemptAt",
    ])
    .where("e.verificationId", "=", p.verificationId)
    .orderBy("d.createdAt", "asc")
    .orderBy("d.id", "asc"),
);

/** The webhook deliveries of the events of session `id`, oldest first. */
export function listDeliveries(db: Db, id: string) {
  return DELIVERIES.run(db, { verificationId: id });
}

const REQUESTS = prepared(
  "verification_log_requests",
  (db, p: { verificationId: string; workspaceId: string; environment: TEnvironment; limit: number }) =>
    db
      .selectFrom("apiRequestLogs")
      .select([
        "id",
        "method",
        "path",
        "status",
        "durationMs",
        "errorCode",
        "credentialType",
        "credentialName",
        "createdAt",
      ])
      .where("verificationId", "=", p.verificationId)
      .where("workspaceId", "=", p.workspaceId)
      .where("environment", "=", p.environment)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(p.limit),
);

/** The newest `limit` rows of the request log that named session `id`, of this workspace and environment. */
export function listRequests(
  db: Db,
  scope: { workspaceId: string; environment: TEnvironment },
  id: string,
  limit: number,
) {
  return REQUESTS.run(db, { verificationId: id, ...scope, limit });
}
