/**
 * Workflow validation (pure): returns every problem found, each naming the node and the field
 * (validate-issues.ts). This module checks the structure and runs the other checks in order:
 * links and graph (validate-graph.ts), each node's config (validate-config.ts).
 * Rules:
 * - at most 200 nodes; node ids unique, 1–64 letters, digits, '_' or '-'; types from the catalog;
 * - exactly one `request` node, and entryNodeId names it; at least one `response` node;
 * - the graph rules run only once every id, type and link is right: before that they would
 *   mostly repeat the problems found in other words;
 * - canvas positions (optional) are keyed by node ids of the workflow (`positions.<id>`).
 */
import type { TWorkflowNode } from "./json";
import { findNodeType, NODE_TYPES } from "./node-types";
import { MAX_NODES } from "./schema";
import { checkNodeConfig, type TValidationContext } from "./validate-config";
import { checkGraph, checkLinks } from "./validate-graph";
import { Issues, nodeLabel, type TWorkflowIssue } from "./validate-issues";

export interface TWorkflowDraft {
  entryNodeId: string;
  nodes: readonly TWorkflowNode[];
  /** the editor's canvas positions by node id; only their keys are checked */
  positions?: Readonly<Record<string, unknown>>;
}

export const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

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
  const testsResult: boolean[] = [];
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
    if (!checkLinks(node, i, def.type, indexById, issues)) structureOk = false;
    const site = { prefix: `nodes[${i}].config`, label, issues };
    testsResult[i] = checkNodeConfig(def.type, node.config, site, ctx).testsResult;
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

  if (!structureOk || entryIndex === undefined) return issues.list;
  checkGraph(nodes, entryIndex, indexById, testsResult, issues);
  return issues.list;
}
