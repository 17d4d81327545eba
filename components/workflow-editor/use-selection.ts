"use client";
/**
 * The selection on the canvas (nodes and edges), as the canvas reports it change by change;
 * ids of nodes no longer in the draft are left out. One selected node is the inspected one.
 */
import { useCallback, useMemo, useState } from "react";
import type { TDraft } from "./types";

export interface TSelection {
  nodes: string[];
  edges: string[];
}

/** What the canvas reports: ids that became selected (true) or unselected (false). */
export interface TSelectionChange {
  nodes: Record<string, boolean>;
  edges: Record<string, boolean>;
}

export function applySelectionChange(s: TSelection, change: TSelectionChange): TSelection {
  const apply = (list: string[], ch: Record<string, boolean>) => {
    const set = new Set(list);
    for (const [id, on] of Object.entries(ch)) {
      if (on) set.add(id);
      else set.delete(id);
    }
    return [...set];
  };
  return { nodes: apply(s.nodes, change.nodes), edges: apply(s.edges, change.edges) };
}

export function useSelection(draft: TDraft) {
  const [selection, setSelection] = useState<TSelection>({ nodes: [], edges: [] });
  const existing = useMemo(() => new Set(draft.nodes.map((n) => n.id)), [draft.nodes]);
  const selectedNodes = useMemo(
    () => selection.nodes.filter((id) => existing.has(id)),
    [selection.nodes, existing],
  );
  const onSelect = useCallback(
    (change: TSelectionChange) => setSelection((s) => applySelectionChange(s, change)),
    [],
  );
  /** selects exactly these nodes (no edge) */
  const selectNodes = useCallback((ids: string[]) => setSelection({ nodes: ids, edges: [] }), []);
  return {
    selectedNodes,
    selectedEdges: selection.edges,
    /** the node the inspector shows: the only one selected */
    inspected: selectedNodes.length === 1 ? selectedNodes[0]! : null,
    onSelect,
    selectNodes,
  };
}
