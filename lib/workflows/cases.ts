/**
 * Regression cases of a workflow (sandbox only): saved test runs — a provider's test identity and
 * the outcome the workflow should give it — that the editor re-runs beside Save.
 * Rules:
 * - the app is loaded through getOwnedApp (404 unknown / other environment, 403 other workspace)
 *   and the workflow must be one of its workflows (404); a case id of another workflow is 404;
 * - a case names a catalog provider (400 naming providerId), one of that provider's test
 *   identities (400 naming identityId) and expectedOutcome completed | failed; the provider need
 *   not be usable by the app today: the case then fails, which is what a regression must show;
 * - results are computed when read, never stored: the list and a new case against the latest
 *   saved workflow, `…/cases/run` against the caller's draft (validated: 400 with the details);
 *   each through the same test run as POST …/workflows/test-run;
 * - a case the workflow cannot run at all (provider not enabled or refused by the workflow) gets
 *   outcome failed with reasonCode provider_not_available instead of failing the whole list;
 * - `passed` is outcome === expectedOutcome;
 * - create and delete write an audit record in the same transaction.
 */
import type { z } from "zod";
import { recordAudit, workspaceAudit } from "../audit";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import type { Db } from "../db/client";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { getOwnedApp } from "../apps/service";
import type { WorkspaceActor } from "../auth/actor";
import { memberParser } from "../state-machine";
import type { AppRow } from "../apps/serialize";
import type { TRunnableWorkflow } from "./engine/nodes";
import { runnableWorkflow } from "./row";
import { deleteCaseRow, insertCase, listCaseRows, type TWorkflowCaseRow, type TWorkflowRow } from "./store";
import { EXPECTED_OUTCOMES, type ZCaseJson, type ZCreateCaseBody } from "./run-endpoints";
import {
  checkedDraft,
  findTestIdentity,
  findTestProvider,
  traceTestIdentity,
  type TDraftInput,
} from "./test-run";

/** `workflow_cases.expected_outcome` as read from its row. */
const parseExpectedOutcome = memberParser(EXPECTED_OUTCOMES, "workflow_cases.expected_outcome");

type Auth = Pick<WorkspaceAuth, "workspaceId" | "environment">;

export type TCaseJson = z.infer<typeof ZCaseJson>;
export type TCaseResult = TCaseJson["result"];
export type TCreateCase = z.infer<typeof ZCreateCaseBody>;

function findAppWorkflow(app: AppRow, workflowId: string): TWorkflowRow {
  const workflow = app.workflows.find((w) => w.id === workflowId);
  if (!workflow) throw notFound(`Workflow "${workflowId}" of app "${app.id}"`);
  return workflow;
}

function resultOf(app: AppRow, workflow: TRunnableWorkflow, c: TWorkflowCaseRow, now: Date): TCaseResult {
  let outcome: "completed" | "failed";
  let reasonCode: string | undefined;
  try {
    const { trace } = traceTestIdentity(app, workflow, c.providerId, c.identityId, now);
    outcome = trace.outcome;
    reasonCode = trace.reason;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // the provider is not usable, or the stored identity no longer exists in the catalog
    outcome = "failed";
    reasonCode = error.code === "PROVIDER_NOT_AVAILABLE" ? "provider_not_available" : "invalid_case";
  }
  return { outcome, ...(reasonCode ? { reasonCode } : {}), passed: outcome === c.expectedOutcome };
}

function toCaseJson(app: AppRow, workflow: TRunnableWorkflow, c: TWorkflowCaseRow, now: Date): TCaseJson {
  return {
    id: c.id,
    name: c.name,
    providerId: c.providerId,
    identityId: c.identityId,
    expectedOutcome: parseExpectedOutcome(c.expectedOutcome),
    result: resultOf(app, workflow, c, now),
  };
}

async function loadCases(db: Db, workflowId: string): Promise<TWorkflowCaseRow[]> {
  return listCaseRows(db, workflowId);
}

/** GET …/workflows/{workflow_id}/cases: results against the latest saved workflow. */
export async function listCases(
  db: Db,
  auth: Auth,
  clientId: string,
  workflowId: string,
): Promise<TCaseJson[]> {
  const app = await getOwnedApp(db, auth, clientId);
  const workflow = findAppWorkflow(app, workflowId);
  const saved = runnableWorkflow(workflow);
  const now = new Date();
  return (await loadCases(db, workflow.id)).map((c) => toCaseJson(app, saved, c, now));
}

/** POST …/workflows/{workflow_id}/cases/run: results against the caller's draft. */
export async function runCases(
  db: Db,
  auth: Auth,
  clientId: string,
  workflowId: string,
  draft: TDraftInput,
): Promise<TCaseJson[]> {
  const app = await getOwnedApp(db, auth, clientId);
  const workflow = findAppWorkflow(app, workflowId);
  const runnable = checkedDraft(app, draft);
  const now = new Date();
  return (await loadCases(db, workflow.id)).map((c) => toCaseJson(app, runnable, c, now));
}

export async function createCase(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  workflowId: string,
  input: TCreateCase,
): Promise<TCaseJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const workflow = findAppWorkflow(app, workflowId);
  const provider = findTestProvider(input.providerId);
  findTestIdentity(provider, input.identityId);
  const created = await insertCase(db, {
    id: newId("wfc"),
    workflowId: workflow.id,
    name: input.name,
    providerId: provider.id,
    identityId: input.identityId,
    expectedOutcome: input.expectedOutcome,
  });
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "workflow_case.created",
    targetType: "workflow",
    targetId: workflow.id,
    data: { clientId: app.id, caseId: created.id, name: created.name },
  });
  return toCaseJson(app, runnableWorkflow(workflow), created, new Date());
}

export async function deleteCase(
  db: Db,
  actor: WorkspaceActor,
  clientId: string,
  workflowId: string,
  caseId: string,
): Promise<{ deleted: true }> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const workflow = findAppWorkflow(app, workflowId);
  if (!(await deleteCaseRow(db, workflow.id, caseId)))
    throw notFound(`Case "${caseId}" of workflow "${workflow.id}"`);
  await recordAudit(db, {
    ...workspaceAudit(actor),
    action: "workflow_case.deleted",
    targetType: "workflow",
    targetId: workflow.id,
    data: { clientId: app.id, caseId },
  });
  return { deleted: true };
}
