/**
 * The difference between two workflow contents (two saved versions, or a version and the editor's
 * draft), node by node: added, removed and changed nodes (type, links and each config key), plus
 * the workflow-level changes (name, entry node) and nodes that only moved on the canvas. Pure, so
 * the History panel computes it during render and unit tests pin it.
 */
import type { TWorkflowNode } from "@/lib/workflows/json";
import type { THighlight } from "../types";

/** What a diff compares: a version's content or the draft (positions and name optional). */
export interface TWorkflowContent {
  name?: string;
  entryNodeId: string;
  nodes: readonly TWorkflowNode[];
  positions?: Record<string, { x: number; y: number }>;
}

/** One changed property of a node: `type`, a link (`next`, `then`, `else`) or `config.<key>`. */
export interface TFieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export type TNodeChange =
  | { kind: "added"; nodeId: string; type: string; node: TWorkflowNode }
  | { kind: "removed"; nodeId: string; type: string; node: TWorkflowNode }
  | { kind: "changed"; nodeId: string; type: string; changes: TFieldChange[] };

export interface TWorkflowDiff {
  /** ordered: nodes of `after` in their order (added/changed), then removed ones in `before`'s order */
  nodes: TNodeChange[];
  name?: { before: string; after: string };
  entryNodeId?: { before: string; after: string };
  /** nodes present on both sides, otherwise equal, whose canvas position differs */
  moved: string[];
  /** nodes present on both sides with no change (position aside) */
  unchanged: number;
}

const LINKS = ["next", "then", "else"] as const;

/** JSON with object keys sorted, so key order never counts as a change. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

const same = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

function nodeChanges(before: TWorkflowNode, after: TWorkflowNode): TFieldChange[] {
  const changes: TFieldChange[] = [];
  if (before.type !== after.type) changes.push({ field: "type", before: before.type, after: after.type });
  for (const link of LINKS) {
    if ((before[link] ?? null) !== (after[link] ?? null))
      changes.push({ field: link, before: before[link] ?? null, after: after[link] ?? null });
  }
  const a = before.config ?? {};
  const b = after.config ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) {
    const had = Object.hasOwn(a, key) && a[key] !== undefined;
    const has = Object.hasOwn(b, key) && b[key] !== undefined;
    if (!had && !has) continue;
    if (had && has && same(a[key], b[key])) continue;
    changes.push({
      field: `config.${key}`,
      before: had ? a[key] : undefined,
      after: has ? b[key] : undefined,
    });
  }
  return changes;
}

export function diffWorkflows(before: TWorkflowContent, after: TWorkflowContent): TWorkflowDiff {
  const beforeById = new Map(before.nodes.map((n) => [n.id, n]));
  const afterIds = new Set(after.nodes.map((n) => n.id));
  const nodes: TNodeChange[] = [];
  const moved: string[] = [];
  let unchanged = 0;
  for (const node of after.nodes) {
    const old = beforeById.get(node.id);
    if (!old) {
      nodes.push({ kind: "added", nodeId: node.id, type: node.type, node });
      continue;
    }
    const changes = nodeChanges(old, node);
    if (changes.length) {
      nodes.push({ kind: "changed", nodeId: node.id, type: node.type, changes });
      continue;
    }
    unchanged += 1;
    const p = before.positions?.[node.id];
    const q = after.positions?.[node.id];
    if (p && q && (p.x !== q.x || p.y !== q.y)) moved.push(node.id);
  }
  for (const node of before.nodes) {
    if (!afterIds.has(node.id)) nodes.push({ kind: "removed", nodeId: node.id, type: node.type, node });
  }
  const diff: TWorkflowDiff = { nodes, moved, unchanged };
  if (before.name !== undefined && after.name !== undefined && before.name !== after.name)
    diff.name = { before: before.name, after: after.name };
  if (before.entryNodeId !== after.entryNodeId)
    diff.entryNodeId = { before: before.entryNodeId, after: after.entryNodeId };
  return diff;
}

/** True when the two sides run the same (positions may still differ). */
export function isBehaviourSame(diff: TWorkflowDiff): boolean {
  return diff.nodes.length === 0 && !diff.entryNodeId;
}

/** True when nothing at all differs, canvas positions and name included. */
export function isIdentical(diff: TWorkflowDiff): boolean {
  return isBehaviourSame(diff) && !diff.name && diff.moved.length === 0;
}

/** How many nodes were added, removed and changed. */
export function diffCounts(diff: TWorkflowDiff): { added: number; removed: number; changed: number } {
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const change of diff.nodes) counts[change.kind] += 1;
  return counts;
}

/** A short, readable value for a changed field ("—" for absent). */
export function formatValue(value: unknown, max = 80): string {
  if (value === undefined || value === null) return "—";
  const text = typeof value === "string" ? value : stableJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The canvas highlight of a diff: each added/removed/changed node, no path. */
export function diffHighlight(diff: TWorkflowDiff): THighlight {
  const nodes: THighlight["nodes"] = {};
  for (const change of diff.nodes) {
    nodes[change.nodeId] =
      change.kind === "changed"
        ? { result: "changed", reason: change.changes.map((c) => c.field).join(", ") }
        : { result: change.kind };
  }
  return { path: [], nodes };
}
