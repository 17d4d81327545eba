/**
 * Workflow validation: pure, returns every problem found, each naming the node and the field.
 * Paths follow the request body: `nodes[2].config.claims[1]` (index of the node in `nodes`), and
 * every message starts with the node's id (`node "verify": …`) so both are at hand.
 * Rules:
 * - at most 200 nodes; node ids unique, 1–64 letters, digits, '_' or '-'; types from the catalog;
 * - exactly one `request` node, and entryNodeId names it;
 * - links: `response` has none; `if` has `then` and `else` and no `next`; every other node has
 *   `next` and no `then`/`else`; every link names a node of the workflow;
 * - the graph has no cycle, every node is reachable from the entry, and a response is reachable;
 * - every path from the entry to a response passes exactly one verification node, and check-claim,
 *   check-min-loa and claim/loa conditions come after it (they test its result);
 * - config: required fields present, enums valid, types right, unknown fields refused; claims are
 *   known claim names (claims.ts); verification provider keys are providers of the app (spec,
 *   Workspace API rule 6) and do not opt out all of them; minimumAge exactly with
 *   age_verification mode; branding logos are real image data URLs; check-min-loa minLoa 1..3;
 *   conditions only combine source, field, op and value in ways the engine can evaluate;
 * - canvas positions (optional) are keyed by node ids of the workflow (`positions.<id>`).
 */
import type { z } from "zod";
import { checkLogoDataUrl } from "../apps/logo";
import { findProvider } from "../providers/catalog";
import { nodeLinks, type TLinkKey } from "./graph";
import type { TWorkflowNode } from "./json";
import { findNodeType, NODE_TYPES, type TNodeType } from "./node-types";
import {
  CONDITION_OPS,
  MAX_AGE_LIMIT,
  MAX_IN_VALUES,
  MAX_NODES,
  ZCheckClaimConfig,
  ZCheckMinLoaConfig,
  ZEmptyConfig,
  ZEvaluateConfig,
  ZIfConfig,
  ZVerificationConfig,
  type TCondition,
  type TVerificationConfig,
} from "./schema";

export interface TWorkflowDraft {
  entryNodeId: string;
  nodes: readonly TWorkflowNode[];
  /** the editor's canvas positions by node id; only their keys are checked */
  positions?: Readonly<Record<string, unknown>>;
}

export interface TValidationContext {
  /** providerId of every AppProvider row of the app */
  appProviderIds: readonly string[];
}

export interface TWorkflowIssue {
  path: string;
  message: string;
  /** set by withNodeIds: the id of the node the path points into */
  nodeId?: string;
}

export const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const CONFIG_SCHEMAS: Record<TNodeType, z.ZodType> = {
  request: ZEmptyConfig,
  verification: ZVerificationConfig,
  "check-claim": ZCheckClaimConfig,
  "check-min-loa": ZCheckMinLoaConfig,
  evaluate: ZEvaluateConfig,
  if: ZIfConfig,
  response: ZEmptyConfig,
};

type TOp = (typeof CONDITION_OPS)[number];
const OPS_BY_SOURCE: Record<TCondition["source"], readonly TOp[]> = {
  claim: CONDITION_OPS,
  loa: ["equals", "not_equals", "in", "not_in", "gte", "lte"],
  provider: ["equals", "not_equals", "in", "not_in"],
};

class Issues {
  readonly list: TWorkflowIssue[] = [];
  add(path: string, message: string): void {
    this.list.push({ path, message });
  }
}

function nodeLabel(node: TWorkflowNode, index: number): string {
  return node.id ? `node "${node.id}"` : `node #${index}`;
}

function joinPath(prefix: string, segments: readonly PropertyKey[]): string {
  let out = prefix;
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : `.${String(s)}`;
  return out;
}

/** zod issues of a node's config → issues with full paths and the node's label. */
function configIssues(schema: z.ZodType, config: unknown, prefix: string, label: string, issues: Issues) {
  const result = schema.safeParse(config, { reportInput: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        issues.add(joinPath(prefix, [...issue.path, key]), `${label}: unknown field`);
      continue;
    }
    const missing = "input" in issue && issue.input === undefined;
    issues.add(joinPath(prefix, issue.path), `${label}: ${missing ? "is required" : issue.message}`);
  }
  return undefined;
}

function checkConditionValue(
  c: TCondition,
  value: unknown,
  path: string,
  label: string,
  issues: Issues,
): void {
  if (c.source === "loa") {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 3)
      issues.add(path, `${label}: must be a level of assurance 0, 1, 2 or 3`);
  } else if (c.source === "provider") {
    if (typeof value !== "string") issues.add(path, `${label}: must be a provider id`);
    else if (!findProvider(value)) issues.add(path, `${label}: "${value}" is not a provider of the catalog`);
  } else if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    issues.add(path, `${label}: must be a string, number or boolean`);
  }
}

function checkCondition(c: TCondition, prefix: string, label: string, issues: Issues): void {
  if (c.source === "claim") {
    if (c.field === undefined) issues.add(`${prefix}.field`, `${label}: is required when source is claim`);
  } else if (c.field !== undefined) {
    issues.add(`${prefix}.field`, `${label}: is only used when source is claim`);
  }
  const allowed = OPS_BY_SOURCE[c.source];
  if (!allowed.includes(c.op)) {
    issues.add(
      `${prefix}.op`,
      `${label}: ${c.op} does not apply to source ${c.source}; use one of: ${allowed.join(", ")}`,
    );
    return;
  }
  const valuePath = `${prefix}.value`;
  const hasValue = c.value !== undefined;
  switch (c.op) {
    case "exists":
    case "not_exists":
      if (hasValue) issues.add(valuePath, `${label}: must be absent for ${c.op}`);
      return;
    case "equals":
    case "not_equals":
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else checkConditionValue(c, c.value, valuePath, label, issues);
      return;
    case "in":
    case "not_in":
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else if (!Array.isArray(c.value) || c.value.length === 0 || c.value.length > MAX_IN_VALUES)
        issues.add(valuePath, `${label}: must be an array of 1–${MAX_IN_VALUES} values for ${c.op}`);
      else c.value.forEach((v, k) => checkConditionValue(c, v, `${valuePath}[${k}]`, label, issues));
      return;
    case "gte":
    case "lte":
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else if (c.source === "loa") checkConditionValue(c, c.value, valuePath, label, issues);
      else if (typeof c.value !== "number" && typeof c.value !== "string")
        issues.add(valuePath, `${label}: must be a number or a string for ${c.op}`);
      return;
    case "age_gte":
    case "age_lt":
      if (c.field !== undefined && c.field !== "birthdate")
        issues.add(`${prefix}.field`, `${label}: ${c.op} applies to birthdate only`);
      if (!hasValue) issues.add(valuePath, `${label}: is required for ${c.op}`);
      else if (
        typeof c.value !== "number" ||
        !Number.isInteger(c.value) ||
        c.value < 0 ||
        c.value > MAX_AGE_LIMIT
      )
        issues.add(valuePath, `${label}: must be an age in whole years, 0–${MAX_AGE_LIMIT}`);
      return;
  }
}

function checkVerificationConfig(
  config: TVerificationConfig,
  prefix: string,
  label: string,
  issues: Issues,
): void {
  const seen = new Set<string>();
  config.claims.forEach((claim, k) => {
    if (seen.has(claim)) issues.add(`${prefix}.claims[${k}]`, `${label}: "${claim}" is listed twice`);
    seen.add(claim);
  });
  if (config.mode === "age_verification" && config.minimumAge === undefined)
    issues.add(`${prefix}.minimumAge`, `${label}: is required when mode is age_verification`);
  if (config.mode !== "age_verification" && config.minimumAge !== undefined)
    issues.add(`${prefix}.minimumAge`, `${label}: only applies when mode is age_verification`);
  const logo = config.branding?.logo;
  if (logo) {
    const check = checkLogoDataUrl(logo);
    if (!check.ok) issues.add(`${prefix}.branding.logo`, `${label}: ${check.message}`);
  }
}

/**
 * Provider keys are checked on the raw config, so a caller learns about a provider the app lacks
 * even when another field of the node is wrong too.
 */
function checkProviderKeys(
  config: Record<string, unknown> | undefined,
  prefix: string,
  label: string,
  ctx: TValidationContext,
  issues: Issues,
): void {
  const providers = config?.providers;
  if (typeof providers !== "object" || providers === null || Array.isArray(providers)) return;
  const appProviders = new Set(ctx.appProviderIds);
  const listed = appProviders.size > 0 ? ` (its providers: ${[...appProviders].sort().join(", ")})` : "";
  for (const key of Object.keys(providers)) {
    if (!appProviders.has(key))
      issues.add(`${prefix}.providers.${key}`, `${label}: "${key}" is not a provider of this app${listed}`);
  }
  const optedOut = new Set(
    Object.entries(providers as Record<string, unknown>)
      .filter(([, o]) => (o as { enabled?: unknown } | null)?.enabled === false)
      .map(([id]) => id),
  );
  if (appProviders.size > 0 && [...appProviders].every((id) => optedOut.has(id)))
    issues.add(`${prefix}.providers`, `${label}: opts out every provider of the app; keep at least one`);
}

/** Conditions that test the verification's result (claims, LoA) need a verification before them. */
function needsVerificationResult(type: TNodeType, config: unknown): boolean {
  if (type === "check-claim" || type === "check-min-loa") return true;
  const conditions =
    type === "evaluate"
      ? (config as { conditions?: TCondition[] } | undefined)?.conditions
      : type === "if"
        ? [(config as { condition?: TCondition } | undefined)?.condition]
        : undefined;
  return (conditions ?? []).some((c) => c !== undefined && c.source !== "provider");
}

function linkRules(type: TNodeType): Record<TLinkKey, "required" | string> {
  if (type === "response")
    return {
      next: "a response node ends the workflow and has no next",
      then: "a response node ends the workflow and has no then",
      else: "a response node ends the workflow and has no else",
    };
  if (type === "if")
    return { next: "an if node branches with then/else and has no next", then: "required", else: "required" };
  return { next: "required", then: "only if nodes have then", else: "only if nodes have else" };
}

export function validateWorkflow(draft: TWorkflowDraft, ctx: TValidationContext): TWorkflowIssue[] {
  return [...validateNodes(draft, ctx), ...validatePositions(draft)];
}

/** Positions of nodes the workflow does not have are refused: the editor would lose track of them. */
export function validatePositions(draft: Pick<TWorkflowDraft, "nodes" | "positions">): TWorkflowIssue[] {
  if (!draft.positions) return [];
  const ids = new Set(draft.nodes.map((n) => n.id));
  return Object.keys(draft.positions)
    .filter((id) => !ids.has(id))
    .map((id) => ({ path: `positions.${id}`, message: `"${id}" is not a node of this workflow` }));
}

/**
 * Adds `nodeId` to every issue whose path points into a node (`nodes[2]…`), so an editor can mark
 * the node without parsing paths.
 */
export function withNodeIds(
  issues: readonly TWorkflowIssue[],
  nodes: readonly TWorkflowNode[],
): TWorkflowIssue[] {
  return issues.map((issue) => {
    const m = /^nodes\[(\d+)\]/.exec(issue.path);
    const id = m ? nodes[Number(m[1])]?.id : undefined;
    return typeof id === "string" && id !== "" ? { ...issue, nodeId: id } : issue;
  });
}

function validateNodes(draft: TWorkflowDraft, ctx: TValidationContext): TWorkflowIssue[] {
  const issues = new Issues();
  const { nodes } = draft;
  if (nodes.length > MAX_NODES) {
    issues.add("nodes", `must contain at most ${MAX_NODES} nodes (has ${nodes.length})`);
    return issues.list;
  }

  // ---- ids
  const indexById = new Map<string, number>();
  let structureOk = true;
  nodes.forEach((node, i) => {
    const path = `nodes[${i}].id`;
    if (node.id === "") issues.add(path, `node #${i}: must not be empty`);
    else if (!NODE_ID_PATTERN.test(node.id))
      issues.add(path, `${nodeLabel(node, i)}: must be 1–64 letters, digits, '_' or '-'`);
    else if (indexById.has(node.id))
      issues.add(path, `${nodeLabel(node, i)}: duplicates the id of nodes[${indexById.get(node.id)}]`);
    else {
      indexById.set(node.id, i);
      return;
    }
    structureOk = false;
  });

  // ---- types, links, config
  const parsedConfigs: unknown[] = [];
  nodes.forEach((node, i) => {
    const label = nodeLabel(node, i);
    const def = findNodeType(node.type);
    if (!def) {
      issues.add(
        `nodes[${i}].type`,
        `${label}: unknown type "${node.type}"; one of: ${NODE_TYPES.join(", ")}`,
      );
      structureOk = false;
      return;
    }
    const rules = linkRules(def.type);
    for (const key of ["next", "then", "else"] as const) {
      const target = node[key];
      const path = `nodes[${i}].${key}`;
      if (target === undefined) {
        if (rules[key] === "required") {
          issues.add(path, `${label}: is required`);
          structureOk = false;
        }
      } else if (rules[key] !== "required") {
        issues.add(path, `${label}: ${rules[key]}`);
        structureOk = false;
      } else if (!indexById.has(target)) {
        issues.add(path, `${label}: "${target}" is not a node of this workflow`);
        structureOk = false;
      }
    }
    const prefix = `nodes[${i}].config`;
    const parsed = configIssues(CONFIG_SCHEMAS[def.type], node.config ?? {}, prefix, label, issues);
    parsedConfigs[i] = parsed;
    if (def.type === "verification") checkProviderKeys(node.config, prefix, label, ctx, issues);
    if (parsed === undefined) return;
    if (def.type === "verification")
      checkVerificationConfig(parsed as TVerificationConfig, prefix, label, issues);
    if (def.type === "evaluate")
      (parsed as { conditions: TCondition[] }).conditions.forEach((c, k) =>
        checkCondition(c, `${prefix}.conditions[${k}]`, label, issues),
      );
    if (def.type === "if")
      checkCondition((parsed as { condition: TCondition }).condition, `${prefix}.condition`, label, issues);
  });

  // ---- entry point
  const requestIndexes = nodes.flatMap((n, i) => (n.type === "request" ? [i] : []));
  if (requestIndexes.length === 0) {
    issues.add("nodes", "must contain exactly one request node (the entry point); there is none");
    structureOk = false;
  }
  for (const i of requestIndexes.slice(1)) {
    issues.add(
      `nodes[${i}].type`,
      `${nodeLabel(nodes[i]!, i)}: a workflow has exactly one request node and nodes[${requestIndexes[0]}] is one`,
    );
    structureOk = false;
  }
  if (!nodes.some((n) => n.type === "response")) {
    issues.add("nodes", "must contain a response node (the end of the workflow)");
    structureOk = false;
  }
  const entryIndex = indexById.get(draft.entryNodeId);
  if (draft.entryNodeId === "") {
    issues.add("entryNodeId", "must not be empty");
    structureOk = false;
  } else if (entryIndex === undefined) {
    issues.add("entryNodeId", `"${draft.entryNodeId}" is not a node of this workflow`);
    structureOk = false;
  } else if (nodes[entryIndex]!.type !== "request") {
    issues.add(
      "entryNodeId",
      `must name the request node; "${draft.entryNodeId}" is a ${nodes[entryIndex]!.type} node`,
    );
    structureOk = false;
  }

  // Graph rules only make sense once every id, type and link is right; before that they would
  // mostly repeat the problems above in other words.
  if (!structureOk || entryIndex === undefined) return issues.list;
  checkGraph(nodes, entryIndex, indexById, parsedConfigs, issues);
  return issues.list;
}

function checkGraph(
  nodes: readonly TWorkflowNode[],
  entryIndex: number,
  indexById: Map<string, number>,
  parsedConfigs: unknown[],
  issues: Issues,
): void {
  const succ = nodes.map((n) => nodeLinks(n).map((l) => ({ key: l.key, to: indexById.get(l.target)! })));

  // cycles: depth-first over every node (a cycle among unreachable nodes is still reported)
  const WHITE = 0;
  const GREY = 1;
  const BLACK = 2;
  const color = nodes.map(() => WHITE);
  const stack: number[] = [];
  let cyclic = false;
  const visit = (u: number) => {
    color[u] = GREY;
    stack.push(u);
    for (const { key, to } of succ[u]!) {
      if (color[to] === GREY) {
        cyclic = true;
        const loop = [...stack.slice(stack.indexOf(to)), to].map((k) => nodes[k]!.id).join(" → ");
        issues.add(
          `nodes[${u}].${key}`,
          `${nodeLabel(nodes[u]!, u)}: "${nodes[to]!.id}" closes a cycle (${loop})`,
        );
      } else if (color[to] === WHITE) visit(to);
    }
    stack.pop();
    color[u] = BLACK;
  };
  visit(entryIndex);
  nodes.forEach((_, i) => {
    if (color[i] === WHITE) visit(i);
  });

  // reachability
  const reachable = new Set<number>([entryIndex]);
  const queue = [entryIndex];
  while (queue.length > 0) {
    for (const { to } of succ[queue.shift()!]!) {
      if (!reachable.has(to)) {
        reachable.add(to);
        queue.push(to);
      }
    }
  }
  nodes.forEach((node, i) => {
    if (!reachable.has(i))
      issues.add(
        `nodes[${i}]`,
        `${nodeLabel(node, i)}: is not reachable from the entry node "${nodes[entryIndex]!.id}"`,
      );
  });
  if (![...reachable].some((i) => nodes[i]!.type === "response"))
    issues.add("nodes", `no response node is reachable from the entry node "${nodes[entryIndex]!.id}"`);
  if (cyclic) return;

  // verifications along the paths (the graph is now a DAG): for each reachable node, the fewest
  // and the most verification nodes on a path from the entry up to (not including) it
  const order: number[] = [];
  const done = new Set<number>();
  const topo = (u: number) => {
    done.add(u);
    for (const { to } of succ[u]!) if (!done.has(to)) topo(to);
    order.push(u);
  };
  topo(entryIndex);
  order.reverse();
  const fewest = new Map<number, number>([[entryIndex, 0]]);
  const most = new Map<number, number>([[entryIndex, 0]]);
  for (const u of order) {
    const own = nodes[u]!.type === "verification" ? 1 : 0;
    const lo = fewest.get(u)! + own;
    const hi = most.get(u)! + own;
    for (const { to } of succ[u]!) {
      fewest.set(to, Math.min(fewest.get(to) ?? Infinity, lo));
      most.set(to, Math.max(most.get(to) ?? 0, hi));
    }
  }
  for (const u of order) {
    const node = nodes[u]!;
    const label = nodeLabel(node, u);
    if (node.type === "verification" && most.get(u)! > 0)
      issues.add(
        `nodes[${u}]`,
        `${label}: follows another verification node on some path; a verification runs one identity check`,
      );
    if (node.type === "response" && fewest.get(u)! === 0)
      issues.add(`nodes[${u}]`, `${label}: can be reached without passing a verification node`);
    if (
      node.type !== "response" &&
      fewest.get(u)! === 0 &&
      needsVerificationResult(node.type as TNodeType, parsedConfigs[u])
    )
      issues.add(
        `nodes[${u}]`,
        `${label}: tests the verification result, so a verification node must come before it on every path`,
      );
  }
}
