/**
 * Walking a workflow's graph: a node's outgoing links are `next`, or `then` and `else` on an `if`.
 * The walk is breadth-first from the entry in link order (next, then, else), so "the first
 * verification node" is well defined for branching workflows too.
 */
import type { TWorkflowNode } from "./json";

export const LINK_KEYS = ["next", "then", "else"] as const;
export type TLinkKey = (typeof LINK_KEYS)[number];

/** The ids a node links to, in link order. */
export function nodeLinks(node: Pick<TWorkflowNode, TLinkKey>): { key: TLinkKey; target: string }[] {
  const links: { key: TLinkKey; target: string }[] = [];
  for (const key of LINK_KEYS) {
    const target = node[key];
    if (typeof target === "string") links.push({ key, target });
  }
  return links;
}

/** The nodes reachable from the entry, breadth-first; unknown ids and repeated visits are skipped. */
export function walkFromEntry<N extends TWorkflowNode>(nodes: readonly N[], entryNodeId: string): N[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const order: N[] = [];
  const queue = [entryNodeId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    const node = byId.get(id);
    if (!node || seen.has(id)) continue;
    seen.add(id);
    order.push(node);
    for (const link of nodeLinks(node)) queue.push(link.target);
  }
  return order;
}

/** The verification node the workflow reaches first, if any. */
export function firstVerificationNode<N extends TWorkflowNode>(
  nodes: readonly N[],
  entryNodeId: string,
): N | undefined {
  return walkFromEntry(nodes, entryNodeId).find((n) => n.type === "verification");
}
