/**
 * What-if: a draft workflow re-run over an app's recent ended sessions, from their decision
 * records (lib/verifications/decisions.ts), to show what would have changed.
 * Rules:
 * - the sessions are the app's most recent ones with a decision record (completed or failed),
 *   newest first, at most `limit` (1–1000, default 1000), only those of `workflowId` when given;
 * - each record is re-run through the real engine (planVerification + runChecks) rebuilt from the
 *   record: its provider (treated as enabled — the session ran with it), its LoA, a placeholder
 *   for every claim that was present (presence is all the checks and exists/not_exists need) and
 *   the recorded claim facts for tests of values (lib/workflows/facts.ts);
 * - a session whose provider never authenticated stays failed with its reason, ending at the
 *   draft's verification node; a provider the draft does not accept is failed
 *   provider_not_available with an empty path;
 * - when the draft tests a claim value the record cannot answer, the session is "cannot tell":
 *   counted in `cannotTell`, left out of the change counts and the examples — never guessed;
 * - changedOutcomes counts completed ↔ failed, changedPaths different node paths; examples
 *   (at most 20) show sessions whose outcome, reason or path changed, outcome changes first.
 */
import type { z } from "zod";
import type { Db } from "../db/client";
import type { WorkspaceAuth } from "../auth/workspace-keys";
import { getOwnedApp } from "../apps/service";
import { ApiError } from "../errors";
import { findProvider } from "../providers/catalog";
import type { TSourceIdentity } from "../providers/adapters/types";
import { planVerification, type TVerificationPlan } from "./engine/plan";
import { runChecks } from "./engine/run";
import type { TRunnableWorkflow } from "./engine/nodes";
import { traceChecks, traceUnauthenticated } from "./engine/trace";
import { factsFromRecord, parseRecordedFacts, UnknownFact, type TRecordedFacts } from "./facts";
import { WHAT_IF_MAX_EXAMPLES, WHAT_IF_MAX_SESSIONS, type ZWhatIfJson } from "./run-endpoints";
import { recentDecisions } from "./store";
import { checkedDraft, type TDraftInput } from "./test-run";

/** What a decision record holds that a re-run needs. */
export interface TReplayRecord {
  providerId: string;
  loa: number | null;
  claimsPresent: readonly string[];
  facts: TRecordedFacts;
  outcome: string;
  reasonCode: string | null;
}

export type TWhatIfResult = z.infer<typeof ZWhatIfJson>;
export type TWhatIfExample = TWhatIfResult["examples"][number];
export type TRunSummary = TWhatIfExample["before"];

/** Stands in for a present claim: the engine only tests its presence when facts are given. */
const PRESENT = true;

function summary(
  outcome: "completed" | "failed",
  reasonCode: string | undefined,
  path: string[],
): TRunSummary {
  return { outcome, ...(reasonCode ? { reasonCode } : {}), path };
}

/** The draft's run over one recorded session, or "cannot_tell" when the record cannot answer it. */
export function replayDecision(
  workflow: TRunnableWorkflow,
  record: TReplayRecord,
): TRunSummary | "cannot_tell" {
  const provider = findProvider(record.providerId);
  if (!provider) return "cannot_tell";
  let plan: TVerificationPlan;
  try {
    plan = planVerification(workflow, {
      providerId: provider.id,
      provider,
      appProviders: { [provider.id]: { enabled: true } },
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === "PROVIDER_NOT_AVAILABLE")
      return summary("failed", "provider_not_available", []);
    if (error instanceof ApiError) return summary("failed", "workflow_error", []);
    throw error;
  }
  if (record.loa === null) {
    const trace = traceUnauthenticated(
      plan.path,
      plan.verificationNodeId,
      record.reasonCode ?? "authentication_failed",
    );
    return summary("failed", trace.reason, trace.path);
  }
  const identity: TSourceIdentity = {
    upstreamSubject: "",
    claims: Object.fromEntries(record.claimsPresent.map((name) => [name, PRESENT])),
    loa: record.loa,
    rawClaims: {},
    evidence: {},
  };
  try {
    const checks = runChecks(workflow, plan.verificationNodeId, {
      provider,
      identity,
      loa: record.loa,
      facts: factsFromRecord(record.facts),
    });
    const trace = traceChecks(plan.path, plan.verificationNodeId, checks);
    return summary(trace.outcome, trace.reason, trace.path);
  } catch (error) {
    if (error instanceof UnknownFact) return "cannot_tell";
    throw error;
  }
}

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** Compares the draft's runs with what happened; `records` newest first. */
export function compareRuns(
  workflow: TRunnableWorkflow,
  records: readonly (TReplayRecord & { verificationId: string; createdAt: Date; path: readonly string[] })[],
): TWhatIfResult {
  let changedOutcomes = 0;
  let changedPaths = 0;
  let cannotTell = 0;
  const outcomeChanges: TWhatIfExample[] = [];
  const otherChanges: TWhatIfExample[] = [];
  for (const record of records) {
    const after = replayDecision(workflow, record);
    if (after === "cannot_tell") {
      cannotTell++;
      continue;
    }
    const before = summary(
      record.outcome === "completed" ? "completed" : "failed",
      record.reasonCode ?? undefined,
      [...record.path],
    );
    const outcomeChanged = before.outcome !== after.outcome;
    const pathChanged = !samePath(before.path, after.path);
    if (outcomeChanged) changedOutcomes++;
    if (pathChanged) changedPaths++;
    if (!outcomeChanged && !pathChanged && before.reasonCode === after.reasonCode) continue;
    const example = {
      verificationId: record.verificationId,
      createdAt: record.createdAt.toISOString(),
      before,
      after,
    };
    (outcomeChanged ? outcomeChanges : otherChanges).push(example);
  }
  return {
    total: records.length,
    changedOutcomes,
    changedPaths,
    cannotTell,
    examples: [...outcomeChanges, ...otherChanges].slice(0, WHAT_IF_MAX_EXAMPLES),
  };
}

/** POST …/workflows/what-if. */
export async function whatIf(
  db: Db,
  auth: Pick<WorkspaceAuth, "workspaceId" | "environment">,
  clientId: string,
  input: { workflow: TDraftInput; workflowId?: string; limit?: number },
): Promise<TWhatIfResult> {
  const app = await getOwnedApp(db, auth, clientId);
  const workflow = checkedDraft(app, input.workflow);
  const rows = await recentDecisions(db, {
    appId: app.id,
    environment: auth.environment,
    ...(input.workflowId ? { workflowId: input.workflowId } : {}),
    limit: Math.min(input.limit ?? WHAT_IF_MAX_SESSIONS, WHAT_IF_MAX_SESSIONS),
  });
  return compareRuns(
    workflow,
    rows.map((r) => ({
      verificationId: r.verificationId,
      createdAt: r.createdAt,
      providerId: r.providerId,
      loa: r.loa,
      claimsPresent: r.claimsPresent,
      facts: parseRecordedFacts(r.facts ?? {}),
      outcome: r.outcome,
      reasonCode: r.reasonCode,
      path: r.path,
    })),
  );
}
