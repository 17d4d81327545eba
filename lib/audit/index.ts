/**
 * Audit trail: who did what to which record. Written in the same transaction as the change, and
 * only through `recordAudit` — or, in a hot path's single statement, through the CTE form of
 * lib/audit/store.ts (`auditSelection` of `auditValues`) — the actor comes from
 * `lib/auth/actor.ts`, and a request's scope (actor, workspace, environment, request id) from
 * `workspaceAudit` / `operatorAudit`.
 */
import { operatorActor, workspaceActor } from "../auth/actor";
import type { OperatorAuth } from "../auth/operator-keys";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/client";
import type { AuditEntry } from "./entry";
import { insertAudit } from "./store";

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

/** Writes `entry` on `db` (the caller's transaction, so the entry commits with the change). */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await insertAudit(db, entry);
}
