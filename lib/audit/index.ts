/** Audit trail: who did what to which record. Written in the same transaction as the change. */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Tx } from "../db/client";
import type { TEnvironment } from "../environments";
import { newId } from "../ids";

export interface AuditEntry {
  workspaceId?: string | null;
  environment?: TEnvironment | null;
  actorType: "api_key" | "user" | "operator" | "system" | "cli";
  actorId?: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Record<string, unknown>;
  requestId?: string;
}

/** The actor fields of an audit entry for a workspace credential (API key or console user). */
export function auditActor(
  auth: WorkspaceAuth,
): Pick<AuditEntry, "actorType" | "actorId" | "workspaceId" | "environment"> {
  return {
    workspaceId: auth.workspaceId,
    environment: auth.environment,
    actorType: auth.actor.type === "user" ? "user" : "api_key",
    actorId: auth.actor.id,
  };
}

export async function recordAudit(db: Tx, entry: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      id: newId("aud"),
      workspaceId: entry.workspaceId ?? null,
      environment: entry.environment ?? null,
      actorType: entry.actorType,
      actorId: entry.actorId ?? null,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      data: (entry.data ?? {}) as object,
      requestId: entry.requestId ?? null,
    },
  });
}
