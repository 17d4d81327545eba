/**
 * Writes one version of a workflow (table workflow_versions; the rules are in versions.ts): the
 * workflow row's content as it is after the change, in the transaction of that change. Kept apart
 * from the reads of versions.ts: they check the app with getOwnedApp (lib/apps/service.ts), and
 * creating an app writes version 1 of its starter workflow here, so one module for both would
 * import apps/service.ts and be imported by it.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/kysely";
import { insertWorkflowVersion, type TWorkflowRow } from "./store";
import type { TVersionAuthorType } from "./versioning";

/** The author of a change made with a workspace credential. */
export function versionAuthor(auth: Pick<WorkspaceAuth, "actor">): { type: TVersionAuthorType; id: string } {
  return { type: auth.actor.type === "user" ? "user" : "api_key", id: auth.actor.id };
}

/** Writes the workflow row's current content as its version `workflow.version`. */
export async function writeWorkflowVersion(
  db: Db,
  workflow: TWorkflowRow,
  author: { type: TVersionAuthorType; id: string | null },
  restoredFrom?: number,
): Promise<void> {
  await insertWorkflowVersion(db, {
    workflowId: workflow.id,
    version: workflow.version,
    name: workflow.name,
    entryNodeId: workflow.entryNodeId,
    nodes: workflow.nodes,
    positions: workflow.positions ?? {},
    actorType: author.type,
    actorId: author.id,
    restoredFrom: restoredFrom ?? null,
    createdAt: workflow.updatedAt,
  });
}
