/**
 * A session's whole way through a workflow: planVerification (entry → verification node) and
 * runChecks (verification node → response) joined into one path, with each visited node's result.
 * The test run, the decision records and the what-if re-runs all describe a run this way.
 * Rules:
 * - the path lists node ids in the order visited, from the entry node to the response or to the
 *   node that ended the session; the verification node appears once;
 * - every node on the path passed except the one that ended a failed session, which carries the
 *   engine's reason code (missing_claim, loa_too_low, an evaluate node's reasonCode, …); an `if`
 *   node passes whichever branch it takes (the path shows the branch);
 * - a session the provider never authenticated (authentication_failed, a cancel, an expiry) ends
 *   at its verification node with that reason: the checks never ran;
 * - planVerification's errors (PROVIDER_NOT_AVAILABLE, VALIDATION_ERROR) propagate unchanged.
 */
import { planVerification, type TPlanInput, type TVerificationPlan } from "./plan";
import { runChecks, type TCheckResult, type TRunInput } from "./run";
import type { TRunnableWorkflow } from "./nodes";

export interface TNodeResult {
  result: "passed" | "failed";
  /** the reason code of the node that failed the session */
  reason?: string;
}

export interface TWorkflowTrace {
  outcome: "completed" | "failed";
  /** failed only: the machine-readable reason (the session's statusReason) */
  reason?: string;
  /** failed only: the node that ended the session */
  failedNodeId?: string;
  /** failed only: the engine's message (names claims and operands, never values) */
  message?: string;
  /** node ids from the entry to the response or the failing node */
  path: string[];
  nodes: Record<string, TNodeResult>;
  /** what userinfo discloses as `user`; {} when failed */
  user: Record<string, unknown>;
  /** requested standard claims the source did not give; [] when failed */
  missingClaims: string[];
  verificationNodeId: string;
}

/** The plan's path ends with the verification node, the checks' path starts with it. */
export function joinPaths(planPath: readonly string[], checkPath: readonly string[]): string[] {
  if (planPath.length === 0) return [...checkPath];
  if (checkPath.length === 0) return [...planPath];
  const last = planPath[planPath.length - 1];
  return last === checkPath[0] ? [...planPath, ...checkPath.slice(1)] : [...planPath, ...checkPath];
}

/** Every node of the path passed, except `failure.nodeId`. */
export function nodeResults(
  path: readonly string[],
  failure?: { nodeId: string; reason: string },
): Record<string, TNodeResult> {
  const nodes: Record<string, TNodeResult> = {};
  for (const id of path) nodes[id] = { result: "passed" };
  if (failure && failure.nodeId !== "") nodes[failure.nodeId] = { result: "failed", reason: failure.reason };
  return nodes;
}

/** The trace of a session whose checks ran: `planPath` is the path up to its verification node. */
export function traceChecks(
  planPath: readonly string[],
  verificationNodeId: string,
  checks: TCheckAnswer,
): TWorkflowTrace {
  const path = joinPaths(planPath, checks.path);
  if (checks.outcome === "completed")
    return {
      outcome: "completed",
      path,
      nodes: nodeResults(path),
      user: checks.user,
      missingClaims: checks.missingClaims,
      verificationNodeId,
    };
  return {
    outcome: "failed",
    reason: checks.reason,
    failedNodeId: checks.failedNodeId,
    message: checks.message,
    path,
    nodes: nodeResults(path, { nodeId: checks.failedNodeId, reason: checks.reason }),
    user: {},
    missingClaims: [],
    verificationNodeId,
  };
}

/** The trace of a session the provider did not authenticate: it ends at the verification node. */
export function traceUnauthenticated(
  planPath: readonly string[],
  verificationNodeId: string,
  reason: string,
  message?: string,
): TWorkflowTrace {
  const path = [...planPath];
  if (path[path.length - 1] !== verificationNodeId) path.push(verificationNodeId);
  return {
    outcome: "failed",
    reason,
    failedNodeId: verificationNodeId,
    ...(message ? { message } : {}),
    path,
    nodes: nodeResults(path, { nodeId: verificationNodeId, reason }),
    user: {},
    missingClaims: [],
    verificationNodeId,
  };
}

/** runChecks' result, or a caller's own failure of the same shape (e.g. workflow_deleted). */
export type TCheckAnswer =
  | (Omit<Extract<TCheckResult, { outcome: "completed" }>, "path"> & { path: readonly string[] })
  | (Omit<Extract<TCheckResult, { outcome: "failed" }>, "path"> & { path: readonly string[] });

export type TTraceInput = TPlanInput & Omit<TRunInput, "provider">;

/** Plans and runs `workflow` for one answer of the source, as a session would. */
export function traceWorkflow(
  workflow: TRunnableWorkflow,
  input: TTraceInput,
): { plan: TVerificationPlan; trace: TWorkflowTrace } {
  const plan = planVerification(workflow, input);
  const checks = runChecks(workflow, plan.verificationNodeId, input);
  return { plan, trace: traceChecks(plan.path, plan.verificationNodeId, checks) };
}
