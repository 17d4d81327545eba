/**
 * Graph ↔ workflow, pure (no React): the canvas draws React Flow nodes and edges, the API speaks
 * `{entryNodeId, nodes, positions}`. A node's links (`next`, `then`, `else`) are edges whose
 * `sourceHandle` is the link's name; everything else of a node (type, config) rides along in
 * `data.node`, so a round trip gives back the same workflow.
 * Also the edits of the editor as functions draft → draft (add, connect, remove, paste, move),
 * so undo/redo is a list of drafts and every edit can be unit-tested.
 */
import type { Edge, Node } from "@xyflow/react";
import { LINK_KEYS, nodeLinks, type TLinkKey } from "@/lib/workflows/graph";
import type { TWorkflowNode } from "@/lib/workflows/json";
import type { TNodeField, TNodeTypeDef } from "./queries";
import type { TDraft } from "./types";

export const FLOW_NODE_TYPE = "workflow";

export type TPosition = { x: number; y: number };

export interface TFlowNodeData extends Record<string, unknown> {
  node: TWorkflowNode;
}
export type TFlowNode = Node<TFlowNodeData, typeof FLOW_NODE_TYPE>;

export interface TFlowEdgeData extends Record<string, unknown> {
  key: TLinkKey;
}
export type TFlowEdge = Edge<TFlowEdgeData>;

/** The link an edge's source handle names; the default handle (no id) is `next`. */
export function linkKeyOf(handle: string | null | undefined): TLinkKey {
  return LINK_KEYS.find((k) => k === handle) ?? "next";
}

export function edgeId(source: string, key: TLinkKey): string {
  return `${source}:${key}`;
}

/** The edges of a draft: one per link, its handle named after the link. */
export function draftEdges(draft: Pick<TDraft, "nodes">): TFlowEdge[] {
  const ids = new Set(draft.nodes.map((n) => n.id));
  return draft.nodes.flatMap((n) =>
    nodeLinks(n)
      .filter((l) => ids.has(l.target))
      .map((l) => ({
        id: edgeId(n.id, l.key),
        source: n.id,
        target: l.target,
        sourceHandle: l.key,
        label: l.key === "next" ? undefined : l.key,
        data: { key: l.key },
      })),
  );
}

/** React Flow nodes and edges of a draft (positions as stored; missing ones at 0,0 — see layout.ts). */
export function draftToFlow(draft: TDraft): { nodes: TFlowNode[]; edges: TFlowEdge[] } {
  return {
    nodes: draft.nodes.map((n) => ({
      id: n.id,
      type: FLOW_NODE_TYPE,
      position: draft.positions[n.id] ?? { x: 0, y: 0 },
      data: { node: n },
    })),
    edges: draftEdges(draft),
  };
}

/** A node without its links. */
function unlinked(node: TWorkflowNode): TWorkflowNode {
  const { next: _n, then: _t, else: _e, ...rest } = node;
  void _n;
  void _t;
  void _e;
  return rest;
}

/**
 * The draft of a graph: nodes in the graph's order, links from the edges (by source handle),
 * positions from the nodes. Edges whose ends are not nodes of the graph are dropped.
 */
export function flowToDraft(
  meta: Pick<TDraft, "name" | "entryNodeId">,
  nodes: readonly Pick<TFlowNode, "id" | "position" | "data">[],
  edges: readonly Pick<TFlowEdge, "source" | "target" | "sourceHandle" | "data">[],
): TDraft {
  const ids = new Set(nodes.map((n) => n.id));
  const links = new Map<string, Partial<Record<TLinkKey, string>>>();
  for (const e of edges) {
    if (!ids.has(e.source) || !ids.has(e.target)) continue;
    const key = e.data?.key ?? linkKeyOf(e.sourceHandle);
    links.set(e.source, { ...links.get(e.source), [key]: e.target });
  }
  const positions: TDraft["positions"] = {};
  for (const n of nodes) positions[n.id] = { x: n.position.x, y: n.position.y };
  return {
    name: meta.name,
    entryNodeId: meta.entryNodeId,
    nodes: nodes.map((n) => {
      const own = links.get(n.id) ?? {};
      const out: TWorkflowNode = { ...unlinked(n.data.node), id: n.id };
      for (const key of LINK_KEYS) if (own[key] !== undefined) out[key] = own[key];
      return out;
    }),
    positions,
  };
}

// ---------------------------------------------------------------------------------------------
// Edits.

/** `base`, or `base-2`, `base-3`… whichever is not taken. */
export function uniqueId(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const clean = base.replace(/[^A-Za-z0-9_-]/g, "-").slice(0, 56) || "node";
  if (!used.has(clean)) return clean;
  for (let i = 2; ; i++) if (!used.has(`${clean}-${i}`)) return `${clean}-${i}`;
}

function defaultValue(field: TNodeField): unknown {
  switch (field.type) {
    case "enum":
      return field.enumValues?.[0];
    case "string[]":
    case "object[]":
      return [];
    case "integer":
      return field.minimum ?? 0;
    case "boolean":
      return false;
    case "string":
      return "";
    case "object":
      return defaultConfig(field.fields ?? []);
    default:
      return undefined;
  }
}

/**
 * A new node's config: its required fields with a first value (the first enum value, the
 * minimum, an empty list), so the form starts complete where it can. Verification nodes inherit
 * the app's branding (what the API does on create).
 */
export function defaultConfig(fields: readonly TNodeField[]): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.name === "branding" && f.fields?.some((s) => s.name === "useAppBranding")) {
      config.branding = { useAppBranding: true };
      continue;
    }
    if (!f.required) continue;
    const v = defaultValue(f);
    if (v !== undefined) config[f.name] = v;
  }
  return config;
}

export function addNode(
  draft: TDraft,
  def: Pick<TNodeTypeDef, "type" | "fields">,
  position: TPosition,
): { draft: TDraft; id: string } {
  const id = uniqueId(
    def.type,
    draft.nodes.map((n) => n.id),
  );
  const node: TWorkflowNode = { id, type: def.type };
  if (def.fields.length > 0) node.config = defaultConfig(def.fields);
  const entryNodeId =
    def.type === "request" && !draft.nodes.some((n) => n.id === draft.entryNodeId) ? id : draft.entryNodeId;
  return {
    id,
    draft: {
      ...draft,
      entryNodeId,
      nodes: [...draft.nodes, node],
      positions: { ...draft.positions, [id]: { x: Math.round(position.x), y: Math.round(position.y) } },
    },
  };
}

/** Sets (or replaces) the link `key` of `source`. */
export function connect(draft: TDraft, source: string, key: TLinkKey, target: string): TDraft {
  if (source === target) return draft;
  return {
    ...draft,
    nodes: draft.nodes.map((n) => (n.id === source ? { ...n, [key]: target } : n)),
  };
}

export function removeLinks(draft: TDraft, links: readonly { source: string; key: TLinkKey }[]): TDraft {
  if (links.length === 0) return draft;
  return {
    ...draft,
    nodes: draft.nodes.map((n) => {
      const gone = links.filter((l) => l.source === n.id);
      if (gone.length === 0) return n;
      const copy = { ...n };
      for (const l of gone) delete copy[l.key];
      return copy;
    }),
  };
}

/** Removes nodes, their positions and every link into them. */
export function removeNodes(draft: TDraft, ids: readonly string[]): TDraft {
  if (ids.length === 0) return draft;
  const gone = new Set(ids);
  const nodes = draft.nodes
    .filter((n) => !gone.has(n.id))
    .map((n) => {
      const dangling = LINK_KEYS.filter((k) => n[k] !== undefined && gone.has(n[k]!));
      if (dangling.length === 0) return n;
      const copy = { ...n };
      for (const k of dangling) delete copy[k];
      return copy;
    });
  const positions = Object.fromEntries(Object.entries(draft.positions).filter(([id]) => !gone.has(id)));
  const entryNodeId = gone.has(draft.entryNodeId)
    ? (nodes.find((n) => n.type === "request")?.id ?? "")
    : draft.entryNodeId;
  return { ...draft, entryNodeId, nodes, positions };
}

export function updateNode(
  draft: TDraft,
  id: string,
  update: (node: TWorkflowNode) => TWorkflowNode,
): TDraft {
  return { ...draft, nodes: draft.nodes.map((n) => (n.id === id ? update(n) : n)) };
}

/** Renames a node: its id, the links into it, its position and the entry. */
export function renameNode(draft: TDraft, from: string, to: string): TDraft {
  if (from === to || draft.nodes.some((n) => n.id === to)) return draft;
  const positions = { ...draft.positions };
  if (positions[from]) {
    positions[to] = positions[from];
    delete positions[from];
  }
  return {
    ...draft,
    entryNodeId: draft.entryNodeId === from ? to : draft.entryNodeId,
    positions,
    nodes: draft.nodes.map((n) => {
      const copy = n.id === from ? { ...n, id: to } : { ...n };
      for (const k of LINK_KEYS) if (copy[k] === from) copy[k] = to;
      return copy;
    }),
  };
}

export function moveNodes(draft: TDraft, moves: Record<string, TPosition>): TDraft {
  const positions = { ...draft.positions };
  let changed = false;
  for (const [id, p] of Object.entries(moves)) {
    const next = { x: Math.round(p.x), y: Math.round(p.y) };
    const prev = positions[id];
    if (prev && prev.x === next.x && prev.y === next.y) continue;
    positions[id] = next;
    changed = true;
  }
  return changed ? { ...draft, positions } : draft;
}

/** What the clipboard holds: copied nodes (links only among themselves) and their positions. */
export interface TClipboard {
  nodes: TWorkflowNode[];
  positions: Record<string, TPosition>;
}

export function copyNodes(draft: TDraft, ids: readonly string[]): TClipboard | null {
  const chosen = new Set(ids);
  const nodes = draft.nodes.filter((n) => chosen.has(n.id));
  if (nodes.length === 0) return null;
  return {
    nodes: nodes.map((n) => {
      const copy = structuredClone(n);
      for (const k of LINK_KEYS) if (copy[k] !== undefined && !chosen.has(copy[k]!)) delete copy[k];
      return copy;
    }),
    positions: Object.fromEntries(nodes.map((n) => [n.id, draft.positions[n.id] ?? { x: 0, y: 0 }])),
  };
}

/** Pastes a clipboard with new ids, shifted by `offset`; links among the pasted nodes follow. */
export function pasteNodes(
  draft: TDraft,
  clip: TClipboard,
  offset: TPosition = { x: 40, y: 40 },
): { draft: TDraft; ids: string[] } {
  const taken = draft.nodes.map((n) => n.id);
  const rename = new Map<string, string>();
  for (const n of clip.nodes) {
    const id = uniqueId(n.id.replace(/-\d+$/, ""), [...taken, ...rename.values()]);
    rename.set(n.id, id);
  }
  const pasted = clip.nodes.map((n) => {
    const copy = structuredClone(n);
    copy.id = rename.get(n.id)!;
    for (const k of LINK_KEYS) if (copy[k] !== undefined) copy[k] = rename.get(copy[k]!);
    for (const k of LINK_KEYS) if (copy[k] === undefined) delete copy[k];
    return copy;
  });
  const positions = { ...draft.positions };
  for (const n of clip.nodes) {
    const p = clip.positions[n.id] ?? { x: 0, y: 0 };
    positions[rename.get(n.id)!] = { x: Math.round(p.x + offset.x), y: Math.round(p.y + offset.y) };
  }
  return {
    ids: pasted.map((n) => n.id),
    draft: { ...draft, nodes: [...draft.nodes, ...pasted], positions },
  };
}

/** `nodes[3].config.claims[0]` → { index: 3, rest: "config.claims[0]" }. */
export function splitNodePath(path: string): { index: number; rest: string } | null {
  const m = /^nodes\[(\d+)\](?:\.(.*))?$/.exec(path);
  if (!m) return null;
  return { index: Number(m[1]), rest: m[2] ?? "" };
}
