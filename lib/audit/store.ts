/**
 * The audit_events table (lib/audit/index.ts has the rules): the one form of an entry's row, on
 * the data layer (lib/db/kysely.ts): `INSERT INTO audit_events (AUDIT_COLUMNS) SELECT
 * auditSelection(…)`, on its own (`insertAudit`, which `recordAudit` runs) or in a hot path's
 * single statement, in a CTE that selects from the change it records (the entry then exists only
 * when that change happened: lib/oidc/store/grant.ts). The reads of the log (log.ts) are below.
 */
import type { ExpressionBuilder, Selectable } from "kysely";
import { nowUtc } from "../db/timestamps";
import { countRows, likeLiteral, type Db } from "../db/kysely";
import type { AuditEvent } from "../db/generated/kysely/types";
import type { TEnvironment } from "../environments";
import { newId } from "../ids";
import type { AuditEntry } from "./entry";

/** An entry's row: its values as a statement sends them (`data` as JSON text). */
export interface TAuditValues {
  auditId: string;
  auditWorkspaceId: string | null;
  auditEnvironment: AuditEntry["environment"] | null;
  auditActorType: string;
  auditActorId: string | null;
  auditAction: string;
  auditTargetType: string | null;
  auditTargetId: string | null;
  auditData: string;
  auditRequestId: string | null;
}

/** The values of `entry`'s row, with a new id (flat, so they can be a prepared statement's parameters). */
export function auditValues(entry: AuditEntry): TAuditValues {
  return {
    auditId: newId("aud"),
    auditWorkspaceId: entry.workspaceId ?? null,
    auditEnvironment: entry.environment ?? null,
    auditActorType: entry.actor.type,
    auditActorId: entry.actor.id ?? null,
    auditAction: entry.action,
    auditTargetType: entry.targetType ?? null,
    auditTargetId: entry.targetId ?? null,
    auditData: JSON.stringify(entry.data ?? {}),
    auditRequestId: entry.requestId ?? null,
  };
}

/** The columns `auditSelection` selects, in its order (`insertInto("auditEvents").columns(…)`). */
export const AUDIT_COLUMNS = [
  "id",
  "workspaceId",
  "environment",
  "actorType",
  "actorId",
  "action",
  "targetType",
  "targetId",
  "data",
  "requestId",
  "createdAt",
] as const satisfies readonly (keyof AuditEvent)[];

/**
 * The row of `v` as a select list, for `INSERT INTO audit_events (AUDIT_COLUMNS) SELECT … FROM
 * <cte>` in a statement's WITH clause: one entry per row of the CTE. `v` may be a prepared
 * statement's parameters.
 */
export function auditSelection<D, TB extends keyof D>(eb: ExpressionBuilder<D, TB>, v: TAuditValues) {
  return [
    eb.val(v.auditId).as("id"),
    eb.val(v.auditWorkspaceId).as("workspaceId"),
    eb.val(v.auditEnvironment).as("environment"),
    eb.val(v.auditActorType).as("actorType"),
    eb.val(v.auditActorId).as("actorId"),
    eb.val(v.auditAction).as("action"),
    eb.val(v.auditTargetType).as("targetType"),
    eb.val(v.auditTargetId).as("targetId"),
    eb.val(v.auditData).as("data"),
    eb.val(v.auditRequestId).as("requestId"),
    nowUtc.as("createdAt"),
  ] as const;
}

/** Writes `entry` (in `db`'s transaction when it is one). */
export async function insertAudit(db: Db, entry: AuditEntry): Promise<void> {
  const values = auditValues(entry);
  await db
    .insertInto("auditEvents")
    .columns(AUDIT_COLUMNS)
    .expression(db.selectNoFrom((eb) => auditSelection(eb, values)))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Reading the log (lib/audit/log.ts: GET /v1/audit-events and the operators' view)

/** An entry's row, every column. */
export type TAuditEventRow = Selectable<AuditEvent>;

/** Which entries: of `environment` or of none, narrowed by the other fields present. */
export interface TAuditFilter {
  environment: TEnvironment;
  workspaceId?: string;
  actorType?: string;
  actorId?: string;
  targetType?: string;
  targetId?: string;
  /** `action` exactly, or (`prefix`) every action starting with it (`%` and `_` literal) */
  action?: { exact: string } | { prefix: string };
  /** createdAt from (inclusive) and to (exclusive) */
  from?: Date;
  to?: Date;
}

function auditEventsOf(db: Db, f: TAuditFilter) {
  let query = db
    .selectFrom("auditEvents")
    .where((eb) => eb.or([eb("environment", "=", f.environment), eb("environment", "is", null)]));
  if (f.workspaceId !== undefined) query = query.where("workspaceId", "=", f.workspaceId);
  if (f.actorType !== undefined) query = query.where("actorType", "=", f.actorType);
  if (f.actorId !== undefined) query = query.where("actorId", "=", f.actorId);
  if (f.targetType !== undefined) query = query.where("targetType", "=", f.targetType);
  if (f.targetId !== undefined) query = query.where("targetId", "=", f.targetId);
  if (f.action && "exact" in f.action) query = query.where("action", "=", f.action.exact);
  if (f.action && "prefix" in f.action)
    query = query.where("action", "like", `${likeLiteral(f.action.prefix)}%`);
  if (f.from) query = query.where("createdAt", ">=", f.from);
  if (f.to) query = query.where("createdAt", "<", f.to);
  return query;
}

/** How many entries `filter` selects. */
export async function countAuditEvents(db: Db, filter: TAuditFilter): Promise<number> {
  return countRows(auditEventsOf(db, filter));
}

/** One page of the entries `filter` selects, newest first (ids break ties). */
export function listAuditEventRows(
  db: Db,
  filter: TAuditFilter,
  { limit, offset }: { limit: number; offset: number },
): Promise<TAuditEventRow[]> {
  return auditEventsOf(db, filter)
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The emails of the users `ids` (those that exist). */
export function readUserEmails(db: Db, ids: readonly string[]): Promise<{ id: string; email: string }[]> {
  return db
    .selectFrom("users")
    .select(["id", "email"])
    .where("id", "in", [...ids])
    .execute();
}

/** The names of the workspace's API keys among `ids`. */
export function readKeyNames(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom("apiKeys")
    .select(["id", "name"])
    .where("id", "in", [...ids])
    .where("workspaceId", "=", workspaceId)
    .execute();
}

/** The names of the workspace's apps among `ids` (deleted ones too). */
export function readAppNames(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom("apps")
    .select(["id", "name"])
    .where("id", "in", [...ids])
    .where("workspaceId", "=", workspaceId)
    .execute();
}
