/**
 * The immutable, numbered history of a workflow (table workflow_versions).
 * Rules:
 * - version 1 is written when the workflow is created (with the app for the starter workflow),
 *   and one more on every accepted change of its content (PATCH, restore, PATCH …/verification),
 *   always in the transaction of the change and equal to the workflow row it leaves behind;
 * - rows are never updated or deleted (they go with their workflow); a restore writes the old
 *   content as the newest version and remembers where it came from (`restoredFrom`);
 * - the workflow row's `version` is the number of its newest row; migrating existing workflows
 *   wrote version 1 from their content then, authored by "system";
 * - authors are shown as the audit log shows actors (email of a user, name of an API key).
 * Versions are written by version-record.ts; this module reads them.
 */
import type { z } from "zod";
import { actorDisplayNames } from "../audit/log";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/kysely";
import { notFound } from "../errors";
import { page, type TPage } from "../http/pagination";
import { getOwnedApp } from "../apps/service";
import { memberGuard } from "../state-machine";
import type { ZWorkflowVersionJson, ZWorkflowVersionSummaryJson } from "./endpoints";
import { storedContent } from "./row";
import {
  findWorkflowVersion,
  listWorkflowVersionRows,
  type TWorkflowRow,
  type TWorkflowVersionRow,
} from "./store";
import { VERSION_AUTHOR_TYPES } from "./versioning";

type Auth = Pick<WorkspaceAuth, "workspaceId" | "environment">;

export type TWorkflowVersionSummaryJson = z.infer<typeof ZWorkflowVersionSummaryJson>;
export type TWorkflowVersionJson = z.infer<typeof ZWorkflowVersionJson>;
export type TVersionAuthor = TWorkflowVersionJson["author"];

/** The workflow of this app (404 otherwise), after the app checks of getOwnedApp. */
async function ownedWorkflow(
  db: Db,
  auth: Auth,
  clientId: string,
  workflowId: string,
): Promise<TWorkflowRow> {
  const app = await getOwnedApp(db, auth, clientId);
  const workflow = app.workflows.find((w) => w.id === workflowId);
  if (!workflow) throw notFound(`Workflow "${workflowId}" of app "${app.id}"`);
  return workflow;
}

/** A version number from the URL; anything but a positive integer names no version. */
export function parseVersionParam(raw: string, workflowId: string): number {
  const version = /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(version)) throw notFound(`Version "${raw}" of workflow "${workflowId}"`);
  return version;
}

/** A stored version of this app's workflow, or 404. */
export async function loadWorkflowVersion(
  db: Db,
  workflowId: string,
  version: number,
): Promise<TWorkflowVersionRow> {
  const row = await findWorkflowVersion(db, workflowId, version);
  if (!row) throw notFound(`Version ${version} of workflow "${workflowId}"`);
  return row;
}

const isVersionAuthorType = memberGuard(VERSION_AUTHOR_TYPES);

function authorOf(row: TWorkflowVersionRow, names: Map<string, string>): TVersionAuthor {
  // `workflow_versions.actor_type`; a type this version does not know shows as `system`
  const type = isVersionAuthorType(row.actorType) ? row.actorType : "system";
  return { type, id: row.actorId, display: row.actorId ? (names.get(row.actorId) ?? null) : null };
}

/** GET …/workflows/{workflow_id}/versions: newest first. */
export async function listWorkflowVersions(
  db: Db,
  auth: Auth,
  clientId: string,
  workflowId: string,
  { limit, offset }: { limit: number; offset: number },
): Promise<TPage<TWorkflowVersionSummaryJson>> {
  const workflow = await ownedWorkflow(db, auth, clientId, workflowId);
  const { total, rows } = await listWorkflowVersionRows(db, workflow.id, { limit, offset });
  const names = await actorDisplayNames(
    db,
    auth.workspaceId,
    rows.map((r) => r.actorId),
  );
  return page(
    rows.map((r) => ({
      version: r.version,
      name: r.name,
      nodeCount: Array.isArray(r.nodes) ? r.nodes.length : 0,
      createdAt: r.createdAt.toISOString(),
      author: authorOf(r, names),
      restoredFrom: r.restoredFrom,
    })),
    total,
    limit,
    offset,
  );
}

/** GET …/workflows/{workflow_id}/versions/{version}. */
export async function getWorkflowVersion(
  db: Db,
  auth: Auth,
  clientId: string,
  workflowId: string,
  rawVersion: string,
): Promise<TWorkflowVersionJson> {
  const workflow = await ownedWorkflow(db, auth, clientId, workflowId);
  const row = await loadWorkflowVersion(db, workflow.id, parseVersionParam(rawVersion, workflow.id));
  const names = await actorDisplayNames(db, auth.workspaceId, [row.actorId]);
  return {
    version: row.version,
    ...storedContent(row),
    createdAt: row.createdAt.toISOString(),
    author: authorOf(row, names),
    restoredFrom: row.restoredFrom,
  };
}
