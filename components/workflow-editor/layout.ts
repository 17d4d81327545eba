/**
 * Automatic layout with dagre (top to bottom), pure: used for workflows saved without positions
 * and by "Tidy up". Node sizes are the measured ones when known, else the card's usual size.
 */
import dagre from "@dagrejs/dagre";
import { nodeLinks } from "@/lib/workflows/graph";
import type { TDraft } from "./types";

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 76;

type TSize = { width: number; height: number };

/** Top-left positions of every node, laid out from the links. */
export function layoutPositions(
  draft: Pick<TDraft, "nodes">,
  sizes: Record<string, Partial<TSize> | undefined> = {},
): TDraft["positions"] {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 48, ranksep: 64, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(draft.nodes.map((n) => n.id));
  const size = (id: string): TSize => ({
    width: sizes[id]?.width ?? NODE_WIDTH,
    height: sizes[id]?.height ?? NODE_HEIGHT,
  });
  for (const n of draft.nodes) g.setNode(n.id, size(n.id));
  for (const n of draft.nodes)
    for (const l of nodeLinks(n)) if (ids.has(l.target) && l.target !== n.id) g.setEdge(n.id, l.target);
  dagre.layout(g);
  const positions: TDraft["positions"] = {};
  for (const n of draft.nodes) {
    const p = g.node(n.id) as { x: number; y: number };
    const s = size(n.id);
    positions[n.id] = { x: Math.round(p.x - s.width / 2), y: Math.round(p.y - s.height / 2) };
  }
  return positions;
}

/** The draft with a position for every node: stored ones kept, a full layout when any is missing. */
export function withPositions(draft: TDraft): TDraft {
  if (draft.nodes.every((n) => draft.positions[n.id])) {
    const known = new Set(draft.nodes.map((n) => n.id));
    const extra = Object.keys(draft.positions).some((id) => !known.has(id));
    if (!extra) return draft;
    return {
      ...draft,
      positions: Object.fromEntries(Object.entries(draft.positions).filter(([id]) => known.has(id))),
    };
  }
  return { ...draft, positions: layoutPositions(draft) };
}

/** A free spot for a new node: below the lowest node, at the left edge of the graph. */
export function freeSpot(positions: TDraft["positions"]): { x: number; y: number } {
  const all = Object.values(positions);
  if (all.length === 0) return { x: 0, y: 0 };
  const minX = Math.min(...all.map((p) => p.x));
  const maxY = Math.max(...all.map((p) => p.y));
  return { x: minX, y: maxY + NODE_HEIGHT + 48 };
}
