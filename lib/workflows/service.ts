/**
 * Workflows of an app, its default workflow and the verification settings derived from it.
 * Rules:
 * - the app is loaded through getOwnedApp (404 unknown/deleted/other environment, 403 other
 *   workspace); a workflow id that is not one of this app's workflows is 404;
 * - every create and every change of entryNodeId or nodes is validated against the app's current
 *   providers (validate.ts) before anything is written; a refused request writes nothing;
 * - at creation, verification nodes get branding.useAppBranding = true unless it was given (spec);
 *   later PATCHes store nodes as sent;
 * - the default workflow cannot be deleted (400 DEFAULT_WORKFLOW_DELETE): set another default
 *   first. Delete and set-default lock the app row, so a concurrent pair cannot leave the app
 *   pointing at a deleted workflow;
 * - creating a workflow never changes the default (spec, App rule 2);
 * - the verification settings are written into the default workflow's first verification node
 *   (PATCH …/verification) and validated like any workflow change; a refusal names the settings'
 *   fields, not the node's;
 * - every change writes an audit record in the same transaction;
 * - versions (versions.ts): create writes version 1, every change of the content (name,
 *   entryNodeId, nodes, positions) writes the next one in the same transaction; a request that
 *   changes nothing writes nothing. Writers lock the workflow row first, so concurrent changes get
 *   consecutive numbers and an `If-Match` precondition (versioning.ts) is checked against the
 *   version the change would replace;
 * - positions are the editor's, keyed by node ids of the workflow (400 `positions.<id>`
 *   otherwise); when nodes change without positions, positions of removed nodes are dropped;
 * - a restore validates the old content against the app's current providers and saves it as the
 *   newest version.
 */
import { recordAudit, workspaceAudit } from "../audit";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/kysely";
import { ApiError, notFound } from "../errors";
import { validationError } from "../errors/validation";
import { newId } from "../ids";
import { getOwnedApp } from "../apps/service";
import type { WorkspaceActor } from "../auth/actor";
import { toAppJson, toWorkflowJson, type AppRow, type TAppJson, type TWorkflowJson } from "../apps/serialize";
import { applyCreationDefaults, normalizeNodes } from "./defaults";
import { runnableWorkflow, storedContent, storedNodes } from "./row";
import {
  ZWorkflowName,
  type TCreateWorkflow,
  type TUpdateVerificationSettings,
  type TUpdateWorkflow,
  type TValidateWorkflow,
} from "./schema";
import { firstVerificationNode } from "./graph";
import { deriveVerificationSettings, type TVerificationSettings } from "./settings";
import { validatePositions, validateWorkflow, withNodeIds, type TWorkflowDraft } from "./validate";
import type { TWorkflowIssue } from "./validate-issues";
import { listWorkflowTemplates, type TWorkflowTemplateJson } from "./templates";
import { assertIfMatch, keepPositionsOf, sameContent, type TWorkflowContent } from "./versioning";
import { versionAuthor, writeWorkflowVersion } from "./version-record";
import {
  deleteWorkflowRow,
  insertWorkflow,
  lockApp,
  lockWorkflowRow,
  setDefaultWorkflowOf,
  updateWorkflowContent,
  type TWorkflowRow,
} from "./store";
import { readApp } from "../apps/store/read";
import { loadWorkflowVersion, parseVersionParam } from "./versions";

type Auth = Pick<WorkspaceAuth, "workspaceId" | "environment">;

function assertValid(app: AppRow, draft: TWorkflowDraft): void {
  const issues = validateWorkflow(draft, { appProviderIds: app.providers.map((p) => p.providerId) });
  if (issues.length > 0) throw validationError(withNodeIds(issues, draft.nodes), "Invalid workflow");
}

/**
 * Locks the workflow row for the rest of the transaction and reads it afresh: the version a
 * change replaces is then the one stored, whatever ran concurrently.
 */
async function lockWorkflow(db: Db, workflowId: string): Promise<TWorkflowRow> {
  const workflow = await lockWorkflowRow(db, workflowId);
  // gone since the app was read (a concurrent delete): a missing row answers 404 RESOURCE_NOT_FOUND
  if (!workflow) throw resourceGone();
  return workflow;
}

/** The answer to a resource that is not (or no longer) there: 404 RESOURCE_NOT_FOUND on these paths. */
function resourceGone(): ApiError {
  return new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
}

/** Stores `content` as the workflow's next version (row and history). */
async function saveVersion(
  db: Db,
  actor: WorkspaceActor,
  current: TWorkflowRow,
  content: TWorkflowContent,
  restoredFrom?: number,
): Promise<TWorkflowRow> {
  const updated = await updateWorkflowContent(db, current.id, content, current.version + 1);
  if (!updated) throw resourceGone();
  await writeWorkflowVersion(db, updated, versionAuthor(actor.auth), restoredFrom);
  return updated;
}

function findAppWorkflow(app: AppRow, workflowId: string): TWorkflowRow {
  const workflow = app.workflows.find((w) => w.id === workflowId);
  if (!workflow) throw notFound(`Workflow "${workflowId}" of app "${app.id}"`);
  return workflow;
}

function sortWorkflows(workflows: TWorkflowRow[]): TWorkflowRow[] {
  return [...workflows].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
}

export async function listWorkflows(db: Db, auth: Auth, clientId: string): Promise<TWorkflowJson[]> {
  const app = await getOwnedApp(db, auth, clientId);
  return sortWorkflows(app.workflows).map(toWorkflowJson);
}

export async function getWorkflow(
  db: Db,
  auth: Auth,
  clientId: string,
  workflowId: string,
): Promise<TWorkflowJson> {
  const app = await getOwnedApp(db, auth, clientId);
  return toWorkflowJson(findAppWorkflow(app, workflowId));
}

/** GET …/workflows/templates: the templates with the providers each still needs on this app. */
export async function listTemplates(db: Db, auth: Auth, clientId: string): Promise<TWorkflowTemplateJson[]> {
  const app = await getOwnedApp(db, auth, clientId);
  return listWorkflowTemplates(app.providers);
}

export interface TValidationResult {
  valid: boolean;
  details: TWorkflowIssue[];
}

/**
 * POST …/workflows/validate: the checks of create (after the same normalization), nothing
 * stored. The name is only checked when given.
 */
export async function validateWorkflowDraft(
  db: Db,
  auth: Auth,
  clientId: string,
  input: TValidateWorkflow,
): Promise<TValidationResult> {
  const app = await getOwnedApp(db, auth, clientId);
  const issues: TWorkflowIssue[] = [];
  if (input.name !== undefined) {
    const name = ZWorkflowName.safeParse(input.name);
    if (!name.success) issues.push({ path: "name", message: name.error.issues[0]!.message });
  }
  const nodes = applyCreationDefaults(normalizeNodes(input.nodes));
  issues.push(
    ...validateWorkflow(
      { entryNodeId: input.entryNodeId, nodes, positions: input.positions ?? {} },
      { appProviderIds: app.providers.map((p) => p.providerId) },
    ),
  );
  const details = withNodeIds(issues, nodes);
  return { valid: details.length === 0, details };
}

export async function createWorkflow(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  input: TCreateWorkflow,
): Promise<TWorkflowJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const nodes = applyCreationDefaults(normalizeNodes(input.nodes));
  const positions = input.positions ?? {};
  assertValid(app, { entryNodeId: input.entryNodeId, nodes, positions });
  const workflow = await insertWorkflow(db, {
    id: newId("wf"),
    appId: app.id,
    name: input.name,
    entryNodeId: input.entryNodeId,
    nodes,
    positions,
  });
  await writeWorkflowVersion(db, workflow, versionAuthor(actor.auth));
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "workflow.created",
    targetType: "workflow",
    targetId: workflow.id,
    data: { clientId: app.id, name: workflow.name, nodeCount: nodes.length, version: 1 },
  });
  return toWorkflowJson(workflow);
}

export async function updateWorkflow(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  workflowId: string,
  patch: TUpdateWorkflow,
  ifMatch: string | null = null,
): Promise<TWorkflowJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  findAppWorkflow(app, workflowId);
  const current = await lockWorkflow(db, workflowId);
  assertIfMatch(ifMatch, current.version, current.id);
  const fields = (["name", "entryNodeId", "nodes", "positions"] as const).filter(
    (f) => patch[f] !== undefined,
  );
  if (fields.length === 0) return toWorkflowJson(current);

  const before = storedContent(current);
  const nodes = patch.nodes !== undefined ? normalizeNodes(patch.nodes) : before.nodes;
  const next: TWorkflowContent = {
    name: patch.name ?? before.name,
    entryNodeId: patch.entryNodeId ?? before.entryNodeId,
    nodes,
    positions: patch.positions ?? keepPositionsOf(before.positions, nodes),
  };
  if (patch.entryNodeId !== undefined || patch.nodes !== undefined) {
    assertValid(app, next);
  } else if (patch.positions !== undefined) {
    // only the canvas moved: the stored graph is not re-judged against today's providers
    const issues = validatePositions(next);
    if (issues.length > 0) throw validationError(issues, "Invalid workflow");
  }
  if (sameContent(next, before)) return toWorkflowJson(current);

  const updated = await saveVersion(db, actor, current, next);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "workflow.updated",
    targetType: "workflow",
    targetId: current.id,
    data: { clientId: app.id, fields, version: updated.version },
  });
  return toWorkflowJson(updated);
}

/**
 * POST …/versions/{version}/restore: the stored content of `version` becomes the newest version
 * (validated against the app's current providers, like a PATCH of the nodes).
 */
export async function restoreWorkflowVersion(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  workflowId: string,
  rawVersion: string,
  ifMatch: string | null = null,
): Promise<TWorkflowJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  findAppWorkflow(app, workflowId);
  const current = await lockWorkflow(db, workflowId);
  const source = await loadWorkflowVersion(db, current.id, parseVersionParam(rawVersion, current.id));
  assertIfMatch(ifMatch, current.version, current.id);
  const content = storedContent(source);
  assertValid(app, content);
  const updated = await saveVersion(db, actor, current, content, source.version);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "workflow.restored",
    targetType: "workflow",
    targetId: current.id,
    data: { clientId: app.id, fromVersion: source.version, version: updated.version },
  });
  return toWorkflowJson(updated);
}

export async function deleteWorkflow(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  workflowId: string,
): Promise<{ deleted: true }> {
  // read under the lock: a concurrent set-default must not slip in between check and delete
  await lockApp(db, clientId);
  const app = await getOwnedApp(db, actor.auth, clientId);
  const workflow = findAppWorkflow(app, workflowId);
  if (app.defaultWorkflowId === workflow.id) {
    throw new ApiError(
      "DEFAULT_WORKFLOW_DELETE",
      `Workflow "${workflow.id}" is the app's default workflow and cannot be deleted; set another default first (PUT /v1/apps/${app.id}/default-workflow)`,
    );
  }
  if (!(await deleteWorkflowRow(db, workflow.id))) throw resourceGone();
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "workflow.deleted",
    targetType: "workflow",
    targetId: workflow.id,
    data: { clientId: app.id, name: workflow.name },
  });
  return { deleted: true };
}

export async function setDefaultWorkflow(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  workflowId: string,
): Promise<TAppJson> {
  await lockApp(db, clientId);
  const app = await getOwnedApp(db, actor.auth, clientId);
  const workflow = app.workflows.find((w) => w.id === workflowId);
  if (!workflow) {
    throw new ApiError("RESOURCE_NOT_FOUND", `Workflow "${workflowId}" of app "${app.id}" not found`, {
      details: [{ path: "workflowId", message: "is not a workflow of this app" }],
    });
  }
  if (app.defaultWorkflowId === workflow.id) return toAppJson(app);
  if (!(await setDefaultWorkflowOf(db, app.id, workflow.id))) throw resourceGone();
  const updated = await readApp(db, app.id);
  if (!updated) throw resourceGone();
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "app.default_workflow_set",
    targetType: "app",
    targetId: app.id,
    data: { from: app.defaultWorkflowId, to: workflow.id },
  });
  return toAppJson(updated);
}

export async function getVerificationSettings(
  db: Db,
  auth: Auth,
  clientId: string,
): Promise<TVerificationSettings> {
  const app = await getOwnedApp(db, auth, clientId);
  const workflow = app.workflows.find((w) => w.id === app.defaultWorkflowId);
  return deriveVerificationSettings(app.providers, workflow && runnableWorkflow(workflow));
}

/** Node config paths → the settings record's field names, for errors the caller can act on. */
const SETTINGS_PATHS: [RegExp, string][] = [
  [/^config\.claims/, "request_attributes"],
  [/^config\.minimumAge/, "minimum_age"],
  [/^config\.mode/, "verification_type"],
  [/^config\.branding\.(name|logo|useAppBranding)/, "branding.$1"],
];

function settingsPath(nodePath: string, nodeIndex: number): string {
  const prefix = `nodes[${nodeIndex}].`;
  if (!nodePath.startsWith(prefix)) return nodePath;
  const rest = nodePath.slice(prefix.length);
  for (const [pattern, name] of SETTINGS_PATHS) {
    const m = rest.match(pattern);
    if (m) return name.replace("$1", m[1] ?? "");
  }
  return nodePath;
}

/**
 * PATCH /v1/apps/{client_id}/verification: writes verification type, minimum age, requested
 * claims and hosted-page branding into the default workflow's first verification node.
 */
export async function updateVerificationSettings(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  patch: TUpdateVerificationSettings,
): Promise<TVerificationSettings> {
  await lockApp(db, clientId);
  const app = await getOwnedApp(db, actor.auth, clientId);
  const listed = app.workflows.find((w) => w.id === app.defaultWorkflowId);
  // the settings live in the workflow's nodes: the change is a workflow version like any other
  const workflow = listed ? await lockWorkflow(db, listed.id) : undefined;
  const nodes = workflow ? storedNodes(workflow.nodes) : [];
  const node = workflow ? firstVerificationNode(nodes, workflow.entryNodeId) : undefined;
  if (!workflow || !node) {
    throw new ApiError(
      "VALIDATION_ERROR",
      "The default workflow has no verification node to hold these settings; add one in the workflow editor",
      { details: [{ path: "defaultWorkflowId", message: "has no verification node" }] },
    );
  }
  const config: Record<string, unknown> = { ...node.config };
  const type =
    patch.verification_type ?? (config.mode === "age_verification" ? "age_verification" : "identity");
  if (patch.verification_type !== undefined) {
    if (type === "age_verification") config.mode = "age_verification";
    else delete config.mode;
  }
  if (type === "identity") delete config.minimumAge;
  else if (patch.minimum_age !== undefined) {
    if (patch.minimum_age === null) delete config.minimumAge;
    else config.minimumAge = patch.minimum_age;
  }
  if (patch.request_attributes !== undefined) config.claims = patch.request_attributes;
  if (patch.branding !== undefined) {
    const stored = config.branding;
    const branding: Record<string, unknown> =
      typeof stored === "object" && stored !== null ? { ...stored } : {};
    for (const key of ["useAppBranding", "name", "logo"] as const) {
      const value = patch.branding[key];
      if (value === undefined) continue;
      if (value === null) delete branding[key];
      else branding[key] = value;
    }
    config.branding = branding;
  }
  const index = nodes.findIndex((n) => n.id === node.id);
  const updatedNodes = nodes.map((n, i) => (i === index ? { ...n, config } : n));
  const issues = validateWorkflow(
    { entryNodeId: workflow.entryNodeId, nodes: updatedNodes },
    { appProviderIds: app.providers.map((p) => p.providerId) },
  );
  if (issues.length > 0) {
    throw validationError(
      issues.map((i) => ({ ...i, path: settingsPath(i.path, index) })),
      "Invalid verification settings",
    );
  }
  const before = storedContent(workflow);
  const next = { ...before, nodes: updatedNodes };
  if (!sameContent(next, before)) await saveVersion(db, actor, workflow, next);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "verification_settings.updated",
    targetType: "workflow",
    targetId: workflow.id,
    data: { clientId: app.id, fields: Object.keys(patch) },
  });
  return deriveVerificationSettings(app.providers, {
    entryNodeId: workflow.entryNodeId,
    nodes: updatedNodes,
  });
}
