/**
 * Running the checks of a session once the source has answered: from the session's verification
 * node through check-claim, check-min-loa, evaluate and if nodes to a response.
 * Rules:
 * - the first failing check ends the session failed with a machine-readable reason:
 *   missing_claim (check-claim; every missing field named in the message), loa_too_low
 *   (check-min-loa), the evaluate node's reasonCode (default evaluation_failed);
 * - checks read what the source vouched for (identity.claims), also claims that are not
 *   disclosed (age_verification mode, or claims the node did not request); failure messages name
 *   claims and the workflow's own operands but never the person's values;
 * - pii mode: `user` is the requested claims the source gave; `missingClaims` the requested OIDC
 *   standard claims (claims.ts isStandardClaim) it did not give;
 * - match providers: `user` is identity.claims as the adapter left it — the verified subset of the
 *   caller's own matchData (spec) — and `missingClaims` is [] (no catalog match provider discloses
 *   claims of its own);
 * - age_verification mode: `user` is only { age_over_<minimumAge>: boolean } and missingClaims [];
 *   under the age the session still completes with false (the mode discloses the result, and a
 *   check node can fail it); no birthdate is missing_claim, an unusable one invalid_claim, a
 *   year-only one that cannot settle the threshold age_undetermined — all failed at the
 *   verification node;
 * - a workflow the engine cannot run (broken link, cycle, unparseable config, a second
 *   verification node) fails the session with reason workflow_error rather than throwing: the
 *   end-user has already authenticated and the session must still reach a terminal state.
 */
import type { TProviderDefinition } from "../../providers/catalog";
import type { TSourceIdentity } from "../../providers/adapters/types";
import { isStandardClaim } from "../claims";
import { loaLabel } from "../../verifications/loa";
import {
  DEFAULT_REASON_CODE,
  ZCheckClaimConfig,
  ZCheckMinLoaConfig,
  ZEvaluateConfig,
  ZIfConfig,
  ZVerificationConfig,
  type TVerificationConfig,
} from "../schema";
import { isAtLeast } from "./age";
import {
  describeCondition,
  evaluateCondition,
  isClaimPresent,
  readClaim,
  type TClaimFacts,
  type TConditionContext,
} from "./conditions";
import { WorkflowDefect } from "./defect";
import { NodeWalk, parseConfig, type TRunnableWorkflow } from "./nodes";

export const FAILURE_REASONS = {
  missingClaim: "missing_claim",
  invalidClaim: "invalid_claim",
  ageUndetermined: "age_undetermined",
  loaTooLow: "loa_too_low",
  evaluationFailed: DEFAULT_REASON_CODE,
  workflowError: "workflow_error",
} as const;

export interface TRunInput {
  provider: TProviderDefinition;
  identity: TSourceIdentity;
  /** effective LoA: identity.loa ?? provider.defaultLoa */
  loa: number;
  now?: Date;
  /**
   * what-if re-runs of a decision record: identity.claims hold placeholders for the claims that
   * were present, and the facts answer every test of a value (conditions.ts)
   */
  facts?: TClaimFacts;
}

export type TCheckResult =
  | {
      outcome: "completed";
      /** what userinfo discloses as `user` */
      user: Record<string, unknown>;
      /** requested standard claims the source did not give */
      missingClaims: string[];
      /** node ids visited, from the verification node to the response */
      path: string[];
    }
  | {
      outcome: "failed";
      reason: string;
      failedNodeId: string;
      message: string;
      /** node ids visited, from the verification node to the failing one */
      path: string[];
    };

class CheckFailure {
  constructor(
    readonly reason: string,
    readonly nodeId: string,
    readonly message: string,
  ) {}
}

function quoteList(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}

/** What the verification node itself yields: the disclosed user and the missing claims. */
function disclose(
  nodeId: string,
  config: TVerificationConfig,
  input: TRunInput,
  now: Date,
): { user: Record<string, unknown>; missingClaims: string[] } {
  const claims = input.identity.claims;
  if (config.mode === "age_verification") {
    const minimumAge = config.minimumAge;
    if (minimumAge === undefined)
      throw new WorkflowDefect(
        `node "${nodeId}": config.minimumAge: is required in age_verification mode`,
        nodeId,
      );
    const birthdate = readClaim(claims, "birthdate");
    if (!isClaimPresent(birthdate))
      throw new CheckFailure(
        FAILURE_REASONS.missingClaim,
        nodeId,
        `Missing claim "birthdate": node "${nodeId}" verifies the age from it`,
      );
    const atLeast = input.facts ? input.facts.atLeast(minimumAge) : isAtLeast(birthdate, minimumAge, now);
    if (atLeast === undefined)
      throw new CheckFailure(
        FAILURE_REASONS.invalidClaim,
        nodeId,
        `Claim "birthdate" is not a usable date (YYYY-MM-DD or YYYY): node "${nodeId}" verifies the age from it`,
      );
    if (atLeast === "undetermined")
      throw new CheckFailure(
        FAILURE_REASONS.ageUndetermined,
        nodeId,
        `The source gave only the year of birth, which does not settle whether the person is at least ${minimumAge} (node "${nodeId}")`,
      );
    return { user: { [`age_over_${minimumAge}`]: atLeast }, missingClaims: [] };
  }
  if (input.provider.verificationModel === "match") {
    const user = Object.fromEntries(Object.entries(claims).filter(([, v]) => isClaimPresent(v)));
    return { user, missingClaims: [] };
  }
  const user: Record<string, unknown> = {};
  const missingClaims: string[] = [];
  for (const claim of config.claims) {
    const value = readClaim(claims, claim);
    if (isClaimPresent(value)) user[claim] = value;
    else if (isStandardClaim(claim)) missingClaims.push(claim);
  }
  return { user, missingClaims };
}

function walkChecks(
  walk: NodeWalk,
  verificationNodeId: string,
  input: TRunInput,
  now: Date,
): Extract<TCheckResult, { outcome: "completed" }> {
  const verification = walk.enter(verificationNodeId);
  if (verification.type !== "verification")
    throw new WorkflowDefect(
      `node "${verificationNodeId}" is a ${verification.type} node, not a verification node`,
      verificationNodeId,
    );
  const config = parseConfig(verification, ZVerificationConfig);
  const { user, missingClaims } = disclose(verification.id, config, input, now);
  const claims = input.identity.claims;
  const ctx: TConditionContext = {
    providerId: input.provider.id,
    claims,
    loa: input.loa,
    now,
    ...(input.facts ? { facts: input.facts } : {}),
  };

  let node = walk.enter(verification.next, { nodeId: verification.id, link: "next" });
  for (;;) {
    switch (node.type) {
      case "check-claim": {
        const { claimChecks } = parseConfig(node, ZCheckClaimConfig);
        const missing = [
          ...new Set(claimChecks.map((c) => c.field).filter((f) => !isClaimPresent(readClaim(claims, f)))),
        ];
        if (missing.length > 0)
          throw new CheckFailure(
            FAILURE_REASONS.missingClaim,
            node.id,
            `Missing claim${missing.length > 1 ? "s" : ""} ${quoteList(missing)} (required by node "${node.id}")`,
          );
        node = walk.enter(node.next, { nodeId: node.id, link: "next" });
        break;
      }
      case "check-min-loa": {
        const { minLoa } = parseConfig(node, ZCheckMinLoaConfig);
        if (input.loa < minLoa)
          throw new CheckFailure(
            FAILURE_REASONS.loaTooLow,
            node.id,
            `Level of assurance ${input.loa} (${loaLabel(input.loa)}) is below the minimum ${minLoa} (${loaLabel(minLoa)}) of node "${node.id}"`,
          );
        node = walk.enter(node.next, { nodeId: node.id, link: "next" });
        break;
      }
      case "evaluate": {
        const { conditions, operator, reasonCode } = parseConfig(node, ZEvaluateConfig);
        const nodeId = node.id;
        const results = conditions.map((c) => evaluateCondition(c, ctx, nodeId));
        const passed = operator === "any" ? results.some(Boolean) : results.every(Boolean);
        if (!passed) {
          const failing = conditions.filter((_, i) => !results[i]).map(describeCondition);
          throw new CheckFailure(
            reasonCode ?? DEFAULT_REASON_CODE,
            nodeId,
            operator === "any"
              ? `None of the conditions of node "${nodeId}" holds: ${failing.join("; ")}`
              : `Condition${failing.length > 1 ? "s" : ""} of node "${nodeId}" not met: ${failing.join("; ")}`,
          );
        }
        node = walk.enter(node.next, { nodeId, link: "next" });
        break;
      }
      case "if": {
        const { condition } = parseConfig(node, ZIfConfig);
        const link = evaluateCondition(condition, ctx, node.id) ? "then" : "else";
        node = walk.enter(node[link], { nodeId: node.id, link });
        break;
      }
      case "response":
        return { outcome: "completed", user, missingClaims, path: [...walk.path] };
      default:
        throw new WorkflowDefect(
          `node "${node.id}": a ${node.type} node cannot follow the verification node`,
          node.id,
        );
    }
  }
}

/** Checks the source's answer against the workflow from the session's verification node on. */
export function runChecks(
  workflow: TRunnableWorkflow,
  verificationNodeId: string,
  input: TRunInput,
): TCheckResult {
  const walk = new NodeWalk(workflow);
  try {
    return walkChecks(walk, verificationNodeId, input, input.now ?? new Date());
  } catch (error) {
    if (error instanceof CheckFailure)
      return {
        outcome: "failed",
        reason: error.reason,
        failedNodeId: error.nodeId,
        message: error.message,
        path: [...walk.path],
      };
    if (error instanceof WorkflowDefect)
      return {
        outcome: "failed",
        reason: FAILURE_REASONS.workflowError,
        failedNodeId: error.nodeId ?? verificationNodeId,
        message: `The workflow cannot run: ${error.message}`,
        path: [...walk.path],
      };
    throw error;
  }
}
