/**
 * The audit_events table (lib/audit/index.ts has the rules): the one form of an entry's row, on
 * the data layer (lib/db/kysely.ts): `INSERT INTO audit_events (AUDIT_COLUMNS) SELECT
 * auditSelection(…)`, on its own (`insertAudit`, which `recordAudit` runs) or in a hot path's
 * single statement, in a CTE that selects from the change it records (the entry then exists only
 * when that change happened: lib/oidc/store.ts).
 */
import type { ExpressionBuilder } from "kysely";
import { nowUtc } from "../db/timestamps";
import type { Db } from "../db/kysely";
import type { AuditEvent } from "../db/generated/kysely/types";
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
