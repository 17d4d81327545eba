/**
 * The problems workflow validation reports: a path into the request body
 * (`nodes[2].config.claims[1]`, index of the node in `nodes`) and a message that starts with the
 * node's label (`node "verify": …`), so both are at hand. Shared by the structure, link, graph
 * and config checks (validate.ts, validate-graph.ts, validate-config.ts).
 */
import type { TWorkflowNode } from "./json";

export interface TWorkflowIssue {
  path: string;
  message: string;
  /** set by withNodeIds: the id of the node the path points into */
  nodeId?: string;
}

/** Collects the issues of one validation run, in the order they are found. */
export class Issues {
  readonly list: TWorkflowIssue[] = [];
  add(path: string, message: string): void {
    this.list.push({ path, message });
  }
}

/** `node "verify"`, or `node #3` for a node without an id. */
export function nodeLabel(node: Pick<TWorkflowNode, "id">, index: number): string {
  return node.id ? `node "${node.id}"` : `node #${index}`;
}

/** `nodes[2].config` + ["claims", 1] → `nodes[2].config.claims[1]`. */
export function joinPath(prefix: string, segments: readonly PropertyKey[]): string {
  let out = prefix;
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : `.${String(s)}`;
  return out;
}
