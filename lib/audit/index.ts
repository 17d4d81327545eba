/**
 * Audit trail: who did what to which record. Written in the same transaction as the change, and
 * only through `recordAudit` — or, in a hot path's single statement (lib/db/statement.ts), through
 * `auditInsertSql` with `auditValues` — the actor comes from `lib/auth/actor.ts`, and a request's
 * scope (actor, workspace, environment, request id) from `workspaceAudit` / `operatorAudit`.
 */
import type { TActor } from "../auth/actor";
import { operatorActor, workspaceActor } from "../auth/actor";
import type { OperatorAuth } from "../auth/operator-keys";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Tx } from "../db/client";
import type { TSqlValue } from "../db/sql";
import type { TEnvironment } from "../environments";
import { newId } from "../ids";

export interface AuditEntry {
  actor: TActor;
  workspaceId?: string | null;
  environment?: TEnvironment | null;
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Record<string, unknown>;
  requestId?: string;
}

type TAuditScope = Pick<AuditEntry, "actor" | "workspaceId" | "environment" | "requestId">;

/**
 * The scope of an entry written for a workspace request (API key or console user): the actor,
 * the credential's workspace and environment, and the request id when there is one.
 */
export function workspaceAudit(caller: {
  auth: Pick<WorkspaceAuth, "actor" | "workspaceId" | "environment">;
  requestId?: string;
}): TAuditScope {
  return {
    actor: workspaceActor(caller.auth),
    workspaceId: caller.auth.workspaceId,
    environment: caller.auth.environment,
    ...(caller.requestId === undefined ? {} : { requestId: caller.requestId }),
  };
}

/**
 * The scope of an entry about the workspace as a whole (its team, its name): as
 * `workspaceAudit`, but in no environment, so both environments' audit logs show it.
 */
export function workspaceWideAudit(caller: Parameters<typeof workspaceAudit>[0]): TAuditScope {
  return { ...workspaceAudit(caller), environment: null };
}

/** The scope of an entry written for an operator request (no workspace of its own). */
export function operatorAudit(caller: {
  auth: Pick<OperatorAuth, "userId">;
  requestId: string;
}): TAuditScope {
  return { actor: operatorActor(caller.auth), requestId: caller.requestId };
}

export async function recordAudit(db: Tx, entry: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      id: newId("aud"),
      workspaceId: entry.workspaceId ?? null,
      environment: entry.environment ?? null,
      actorType: entry.actor.type,
      actorId: entry.actor.id ?? null,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      data: (entry.data ?? {}) as object,
      requestId: entry.requestId ?? null,
    },
  });
}

/** How many parameters `auditInsertSql` takes. */
export const AUDIT_PARAMS = 10;

/**
 * The INSERT of one audit entry for a statement's WITH clause (`name AS (…)`), its parameters at
 * $first … $first + AUDIT_PARAMS - 1 (values from `auditValues`); written once per row of `from`
 * when given (a CTE of the statement: the entry only when the change it records happened).
 */
export function auditInsertSql(first: number, from?: string): string {
  const $ = (i: number) => `$${first + i}`;
  return `INSERT INTO audit_events (id, workspace_id, environment, actor_type, actor_id, action, target_type,
      target_id, data, request_id, created_at)
    SELECT ${$(0)}::text, ${$(1)}::text, ${$(2)}::text::"Environment", ${$(3)}::text, ${$(4)}::text, ${$(5)}::text,
      ${$(6)}::text, ${$(7)}::text, ${$(8)}::jsonb, ${$(9)}::text, (now() AT TIME ZONE 'UTC')${from ? ` FROM ${from}` : ""}`;
}

/** The values of `auditInsertSql`'s parameters for `entry`. */
export function auditValues(entry: AuditEntry): TSqlValue[] {
  return [
    newId("aud"),
    entry.workspaceId ?? null,
    entry.environment ?? null,
    entry.actor.type,
    entry.actor.id ?? null,
    entry.action,
    entry.targetType ?? null,
    entry.targetId ?? null,
    JSON.stringify(entry.data ?? {}),
    entry.requestId ?? null,
  ];
}
