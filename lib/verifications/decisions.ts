/**
 * Decision records: what the workflow decided for a session, written when the session ends
 * completed or failed, with that transition (outcome.ts builds it, store/session.ts writes it in
 * the statement of the change).
 * Rules:
 * - one row per session (verification_decisions, keyed by the verification id);
 * - never a personal value: the provider, the effective LoA, the NAMES of the claims the source
 *   vouched for, match verdicts as booleans (never submitted_value or similarity), the
 *   workflow's tests of claim values as booleans (lib/workflows/facts.ts), outcome, reason code,
 *   the path of node ids, the workflow id and the version the session ran;
 * - the path runs from the entry node: the part up to the verification node is planned again
 *   from the stored workflow with the session's provider (only provider conditions decide it);
 *   when the workflow no longer leads that provider to the session's verification node (edited
 *   since), the path starts at the verification node;
 * - a session the provider did not authenticate (authentication_failed, provider_error …) has
 *   no LoA and no claims; its path ends at the verification node with the provider's reason;
 * - cancelled and expired sessions get no record: nothing was decided.
 */
import type { Verification } from "../db/rows";
import type { TMatchResult, TSourceIdentity } from "../providers/adapters/types";
import type { TProviderDefinition } from "../providers/catalog";
import { planVerification } from "../workflows/engine/plan";
import { isClaimPresent } from "../workflows/engine/conditions";
import type { TRunnableWorkflow } from "../workflows/engine/nodes";
import {
  traceChecks,
  traceUnauthenticated,
  type TCheckAnswer,
  type TWorkflowTrace,
} from "../workflows/engine/trace";
import { collectFacts, type TRecordedFacts } from "../workflows/facts";

/** Match verdicts without the submitted values: booleans per field (per_field) and the aggregate. */
export type TMatchVerdicts = {
  matched: boolean;
  granularity: "per_field" | "aggregate";
  fields: Record<string, boolean>;
};

export interface TDecisionRecord {
  verificationId: string;
  workflowId: string;
  workflowVersion: number | null;
  providerId: string;
  verificationNodeId: string;
  loa: number | null;
  claimsPresent: string[];
  match: TMatchVerdicts | null;
  facts: TRecordedFacts;
  outcome: "completed" | "failed";
  reasonCode: string | null;
  path: string[];
}

/** Names of the claims with a value, sorted. */
export function claimsPresentOf(claims: Record<string, unknown>): string[] {
  return Object.keys(claims)
    .filter((name) => isClaimPresent(claims[name]))
    .sort();
}

export function matchVerdicts(match: TMatchResult | undefined): TMatchVerdicts | null {
  if (!match) return null;
  const fields: Record<string, boolean> = {};
  for (const [field, detail] of Object.entries(match.details))
    if (typeof detail.matched === "boolean") fields[field] = detail.matched;
  return { matched: match.matched, granularity: match.granularity, fields };
}

/** The path from the entry up to the session's verification node, when the workflow still leads there. */
export function planPathTo(
  workflow: TRunnableWorkflow | null,
  provider: TProviderDefinition,
  verificationNodeId: string,
): string[] {
  if (!workflow) return [];
  try {
    const plan = planVerification(workflow, {
      providerId: provider.id,
      provider,
      // the session ran, so the provider was usable: only the workflow's own rules decide the path
      appProviders: { [provider.id]: { enabled: true } },
    });
    return plan.verificationNodeId === verificationNodeId ? plan.path : [];
  } catch {
    return [];
  }
}

export type TDecisionInput =
  | {
      kind: "checked";
      provider: TProviderDefinition;
      identity: TSourceIdentity;
      loa: number;
      checks: TCheckAnswer;
      now?: Date;
    }
  | { kind: "unauthenticated"; provider: TProviderDefinition; reason: string };

/** The record of an ended session, without touching the database (tests read it directly). */
export function buildDecision(
  v: Pick<Verification, "id" | "workflowId" | "workflowVersion" | "verificationNodeId">,
  workflow: TRunnableWorkflow | null,
  input: TDecisionInput,
): TDecisionRecord {
  const planPath = planPathTo(workflow, input.provider, v.verificationNodeId);
  let trace: TWorkflowTrace;
  let loa: number | null = null;
  let claimsPresent: string[] = [];
  let match: TMatchVerdicts | null = null;
  let facts: TRecordedFacts = {};
  if (input.kind === "checked") {
    trace = traceChecks(planPath, v.verificationNodeId, input.checks);
    loa = input.loa;
    claimsPresent = claimsPresentOf(input.identity.claims);
    match = matchVerdicts(input.identity.match);
    if (workflow)
      facts = collectFacts(workflow, {
        providerId: input.provider.id,
        claims: input.identity.claims,
        loa: input.loa,
        now: input.now ?? new Date(),
      });
  } else {
    trace = traceUnauthenticated(planPath, v.verificationNodeId, input.reason);
  }
  return {
    verificationId: v.id,
    workflowId: v.workflowId,
    workflowVersion: v.workflowVersion ?? null,
    providerId: input.provider.id,
    verificationNodeId: v.verificationNodeId,
    loa,
    claimsPresent,
    match,
    facts,
    outcome: trace.outcome,
    reasonCode: trace.reason ?? null,
    path: trace.path,
  };
}

/** The stored row of a decision record: the record, its session's owner and when it was decided. */
export interface TDecisionRow extends TDecisionRecord {
  appId: string;
  workspaceId: string;
  environment: Verification["environment"];
  decidedAt: Date;
}

/**
 * The decision row of `v`, which has just ended completed or failed: `workflow` is the one its
 * checks ran on (the planned version) for a checked session, the current one for a session the
 * provider did not authenticate.
 */
export function decisionRow(
  v: Pick<
    Verification,
    | "id"
    | "appId"
    | "workspaceId"
    | "workflowId"
    | "workflowVersion"
    | "verificationNodeId"
    | "environment"
    | "endedAt"
  >,
  workflow: TRunnableWorkflow | null,
  input: TDecisionInput,
): TDecisionRow {
  return {
    ...buildDecision(v, workflow, input),
    appId: v.appId,
    workspaceId: v.workspaceId,
    environment: v.environment,
    decidedAt: v.endedAt ?? new Date(),
  };
}
