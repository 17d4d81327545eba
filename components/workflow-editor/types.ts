import type { TWorkflowNode } from "@/lib/workflows/json";

/** The editor's draft of a workflow (contract §3). */
export type TDraft = {
  name: string;
  entryNodeId: string;
  nodes: TWorkflowNode[];
  positions: Record<string, { x: number; y: number }>;
};

/** What the canvas highlights: a path (node ids in order) and per-node results. */
export type THighlight = {
  path: string[];
  nodes: Record<string, { result: "passed" | "failed" | "added" | "removed" | "changed"; reason?: string }>;
};

/** Props of the side panels (Test run, History, What-if). */
export type TPanelProps = {
  clientId: string;
  workflowId: string;
  draft: TDraft;
  onHighlight: (h: THighlight | null) => void;
  /**
   * Puts `d` on the canvas. With `saved` (a restore the server already stored as that version) it
   * becomes the saved state, not an unsaved edit.
   */
  onLoadDraft: (d: TDraft, saved?: { version: number }) => void;
};
