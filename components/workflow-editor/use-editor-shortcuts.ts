"use client";
/**
 * The editor's keyboard shortcuts: Ctrl/⌘+Z undo, Shift+Ctrl/⌘+Z or Ctrl/⌘+Y redo, Ctrl/⌘+C
 * copies the selected nodes (unless text is selected), Ctrl/⌘+V pastes them (selected, and
 * pasted again with fresh ids). Not while typing in a field, with a dialog open or read only.
 */
import { useEffect, useRef } from "react";
import { useToast } from "@/components/ui/toast";
import { copyNodes, pasteNodes, type TClipboard } from "./mapping";
import type { TDraft } from "./types";

export type TShortcut = "undo" | "redo" | "copy" | "paste";

/** The shortcut a key press asks for, from its key and modifiers alone. */
export function shortcutOf(
  e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">,
): TShortcut | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const k = e.key.toLowerCase();
  if (k === "z" && !e.shiftKey) return "undo";
  if ((k === "z" && e.shiftKey) || k === "y") return "redo";
  if (k === "c") return "copy";
  if (k === "v") return "paste";
  return null;
}

export function useEditorShortcuts({
  readOnly,
  draft,
  selectedNodes,
  edit,
  select,
  undo,
  redo,
}: {
  readOnly: boolean;
  draft: TDraft;
  selectedNodes: string[];
  edit: (draft: TDraft) => void;
  /** selects exactly these nodes */
  select: (nodeIds: string[]) => void;
  undo: () => void;
  redo: () => void;
}) {
  const toast = useToast();
  const clipboard = useRef<TClipboard | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const shortcut = shortcutOf(e);
      if (!shortcut) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.("input, textarea, select, [contenteditable='true']")) return;
      if (document.querySelector("dialog[open]") || readOnly) return;
      if (shortcut === "undo") {
        e.preventDefault();
        undo();
      } else if (shortcut === "redo") {
        e.preventDefault();
        redo();
      } else if (shortcut === "copy") {
        if (selectedNodes.length === 0 || window.getSelection()?.toString()) return;
        e.preventDefault();
        clipboard.current = copyNodes(draft, selectedNodes);
        toast.show({
          message: `Copied ${selectedNodes.length} node${selectedNodes.length === 1 ? "" : "s"}`,
        });
      } else if (clipboard.current) {
        e.preventDefault();
        const { draft: next, ids } = pasteNodes(draft, clipboard.current);
        edit(next);
        select(ids);
        clipboard.current = copyNodes(next, ids);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [draft, edit, readOnly, redo, select, selectedNodes, toast, undo]);
}
