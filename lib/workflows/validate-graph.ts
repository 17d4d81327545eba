/**
 * Workflow validation, the links and the graph (pure).
 * Rules:
 * - links: `response` has none; `if` has `then` and `else` and no `next`; every other node has
 *   `next` and no `then`/`else`; every link names a node of the workflow;
 * - the graph has no cycle (each one reported with its loop), every node is reachable from the
 *   entry, and a response is reachable;
 * - every path from the entry to a response passes exactly one verification node, and nodes that
 *   test the verification's result (validate-config.ts) come after it on every path.
 * The graph rules run only once ids, types and links are right (validate.ts).
 */
import { nodeLinks, type TLinkKey } from "./graph";
import type { TWorkflowNode } from "./json";
import type { TNodeType } from "./node-types";
import { nodeLabel, type Issues } from "./validate-issues";

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

/** Checks the links of node `index` (of type `type`); false when one is missing, extra or dangling. */
export function checkLinks(
  node: TWorkflowNode,
  index: number,
  type: TNodeType,
  indexById: ReadonlyMap<string, number>,
  issues: Issues,
): boolean {
  const label = nodeLabel(node, index);
  const rules = linkRules(type);
  let ok = true;
  for (const key of ["next", "then", "else"] as const) {
    const target = node[key];
    const path = `nodes[${index}].${key}`;
    if (target === undefined) {
      if (rules[key] === "required") {
        issues.add(path, `${label}: is required`);
        ok = false;
      }
    } else if (rules[key] !== "required") {
      issues.add(path, `${label}: ${rules[key]}`);
      ok = false;
    } else if (!indexById.has(target)) {
      issues.add(path, `${label}: "${target}" is not a node of this workflow`);
      ok = false;
    }
  }
  return ok;
}

/**
 * The graph rules over a workflow whose ids, types and links are right. `testsResult[i]`: node i
 * tests the verification's result.
 */
export function checkGraph(
  nodes: readonly TWorkflowNode[],
  entryIndex: number,
  indexById: ReadonlyMap<string, number>,
  testsResult: readonly boolean[],
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
    if (node.type !== "response" && fewest.get(u)! === 0 && testsResult[u] === true)
      issues.add(
        `nodes[${u}]`,
        `${label}: tests the verification result, so a verification node must come before it on every path`,
      );
  }
}
