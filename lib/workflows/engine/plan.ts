/**
 * Planning a session: which verification node of the workflow runs for the chosen provider, and
 * what it asks for. Runs when the session is created, before the end-user does anything.
 * Rules:
 * - the walk starts at the entry node and follows `next`; an `if` before the verification node
 *   can only test the provider (nothing else is known yet) and takes `then` or `else`;
 * - an `evaluate` before the verification node (provider conditions only) that fails means this
 *   workflow does not accept the provider: PROVIDER_NOT_AVAILABLE, like an opted-out provider;
 * - the provider must be enabled for the app, and the node's per-provider overrides must not opt
 *   it out (opt-out model: a provider not listed is in; listed with enabled false is out);
 * - anything else before the verification node (a check, a response, a second request, a broken
 *   link, a cycle) is a workflow validation refuses: 400 VALIDATION_ERROR naming workflowId;
 * - mode defaults to pii; age_verification always asks the source for the birthdate, which the
 *   age is computed from, even when the node does not list it.
 */
import { ApiError } from "../../errors";
import type { TProviderDefinition } from "../../providers/catalog";
import { walkFromEntry } from "../graph";
import {
  DEFAULT_REASON_CODE,
  ZCheckClaimConfig,
  ZEvaluateConfig,
  ZIfConfig,
  ZVerificationConfig,
  type TCondition,
  type TVerificationConfig,
} from "../schema";
import { describeCondition, evaluateCondition, type TConditionContext } from "./conditions";
import { WorkflowDefect } from "./defect";
import { NodeWalk, parseConfig, type TRunnableWorkflow } from "./nodes";

export interface TVerificationBranding {
  /** true: the app's name and logo apply (and name/logo below are omitted) */
  useAppBranding: boolean;
  name?: string;
  /** a data:image URL; omitted when the node has none */
  logo?: string;
}

export interface TVerificationPlan {
  verificationNodeId: string;
  config: TVerificationConfig;
  /** the node's `claims`: what the integrator asked for (missing_claims is computed from these) */
  requestedClaims: string[];
  mode: "pii" | "age_verification";
  /** age_verification only */
  minimumAge?: number;
  channel: "oidc" | "api";
  branding: TVerificationBranding;
  /** node ids from the entry up to and including the verification node */
  path: string[];
  /**
   * Every claim to ask the source for: the requested claims, the birthdate in age_verification
   * mode, and the claims the checks after the node read. Only requestedClaims are disclosed.
   */
  sourceClaims: string[];
}

export interface TPlanInput {
  providerId: string;
  provider: TProviderDefinition;
  appProviders: Record<string, { enabled: boolean }>;
}

function providerNotAvailable(message: string): ApiError {
  return new ApiError("PROVIDER_NOT_AVAILABLE", message, { details: [{ path: "providerId", message }] });
}

function failingConditions(conditions: TCondition[], results: boolean[]): string {
  return conditions
    .filter((_, i) => !results[i])
    .map(describeCondition)
    .join("; ");
}

function brandingOf(config: TVerificationConfig): TVerificationBranding {
  if (config.branding?.useAppBranding === true) return { useAppBranding: true };
  const branding: TVerificationBranding = { useAppBranding: false };
  if (config.branding?.name) branding.name = config.branding.name;
  if (config.branding?.logo) branding.logo = config.branding.logo;
  return branding;
}

/** The claims the nodes after the verification node read (check-claim fields, claim conditions). */
function claimsReadAfter(workflow: TRunnableWorkflow, verificationNodeId: string): string[] {
  const read: string[] = [];
  for (const node of walkFromEntry(workflow.nodes, verificationNodeId)) {
    const conditions: TCondition[] = [];
    if (node.type === "check-claim") {
      const parsed = ZCheckClaimConfig.safeParse(node.config ?? {});
      if (parsed.success) read.push(...parsed.data.claimChecks.map((c) => c.field));
    } else if (node.type === "evaluate") {
      const parsed = ZEvaluateConfig.safeParse(node.config ?? {});
      if (parsed.success) conditions.push(...parsed.data.conditions);
    } else if (node.type === "if") {
      const parsed = ZIfConfig.safeParse(node.config ?? {});
      if (parsed.success) conditions.push(parsed.data.condition);
    }
    for (const c of conditions) if (c.source === "claim" && c.field) read.push(c.field);
  }
  return read;
}

function planNode(
  workflow: TRunnableWorkflow,
  walk: NodeWalk,
  nodeId: string,
  config: TVerificationConfig,
  input: TPlanInput,
): TVerificationPlan {
  const { providerId } = input;
  if (input.appProviders[providerId]?.enabled !== true)
    throw providerNotAvailable(`Provider "${providerId}" is not enabled for this app`);
  if (config.providers?.[providerId]?.enabled === false)
    throw providerNotAvailable(
      `Provider "${providerId}" is not available in this workflow (node "${nodeId}" opts it out)`,
    );
  const mode = config.mode ?? "pii";
  const requestedClaims: string[] = [...config.claims];
  const sourceClaims = new Set(requestedClaims);
  if (mode === "age_verification") sourceClaims.add("birthdate");
  for (const claim of claimsReadAfter(workflow, nodeId)) sourceClaims.add(claim);
  if (mode === "age_verification" && config.minimumAge === undefined)
    throw new WorkflowDefect(
      `node "${nodeId}": config.minimumAge: is required in age_verification mode`,
      nodeId,
    );
  return {
    verificationNodeId: nodeId,
    config,
    requestedClaims,
    mode,
    ...(mode === "age_verification" ? { minimumAge: config.minimumAge } : {}),
    channel: config.channel,
    branding: brandingOf(config),
    path: [...walk.path],
    sourceClaims: [...sourceClaims],
  };
}

function walkToVerification(workflow: TRunnableWorkflow, input: TPlanInput): TVerificationPlan {
  const walk = new NodeWalk(workflow);
  // only the provider is known before the verification node; claims and LoA stay undefined so a
  // condition on them is reported as a defect instead of silently being false
  const ctx: TConditionContext = { providerId: input.providerId, now: new Date() };
  let node = walk.enter(workflow.entryNodeId);
  if (node.type !== "request")
    throw new WorkflowDefect(`the entry node "${node.id}" is a ${node.type} node, not a request`, node.id);
  for (;;) {
    switch (node.type) {
      case "request":
        if (walk.path.length > 1)
          throw new WorkflowDefect(`node "${node.id}": a second request node`, node.id);
        node = walk.enter(node.next, { nodeId: node.id, link: "next" });
        break;
      case "if": {
        const { condition } = parseConfig(node, ZIfConfig);
        const holds = evaluateCondition(condition, ctx, node.id);
        const link = holds ? "then" : "else";
        node = walk.enter(node[link], { nodeId: node.id, link });
        break;
      }
      case "evaluate": {
        const config = parseConfig(node, ZEvaluateConfig);
        const results = config.conditions.map((c) => evaluateCondition(c, ctx, node.id));
        const passed = config.operator === "any" ? results.some(Boolean) : results.every(Boolean);
        if (!passed)
          throw providerNotAvailable(
            `Provider "${input.providerId}" is not accepted by this workflow: node "${node.id}" ` +
              `(${config.reasonCode ?? DEFAULT_REASON_CODE}) requires ${failingConditions(config.conditions, results)}`,
          );
        node = walk.enter(node.next, { nodeId: node.id, link: "next" });
        break;
      }
      case "verification":
        return planNode(workflow, walk, node.id, parseConfig(node, ZVerificationConfig), input);
      default:
        throw new WorkflowDefect(
          `node "${node.id}": a ${node.type} node cannot come before the verification node`,
          node.id,
        );
    }
  }
}

/**
 * The verification node this session runs and its settings. Throws PROVIDER_NOT_AVAILABLE (400,
 * naming providerId) when the provider may not be used, VALIDATION_ERROR (400, naming workflowId)
 * when the workflow cannot run.
 */
export function planVerification(workflow: TRunnableWorkflow, input: TPlanInput): TVerificationPlan {
  try {
    return walkToVerification(workflow, input);
  } catch (error) {
    if (!(error instanceof WorkflowDefect)) throw error;
    const message = `The workflow cannot run: ${error.message}`;
    throw new ApiError("VALIDATION_ERROR", message, { details: [{ path: "workflowId", message }] });
  }
}
