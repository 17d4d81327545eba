"use client";
/**
 * The side panel beside the canvas: the Inspector (the selected node, several selected, or the
 * workflow), and for a stored workflow Test run, History and What-if.
 */
import { SegmentedControl } from "@/components/ui/tabs";
import type { TInspectorProps } from "./inspector/fields";
import { Inspector } from "./inspector/inspector";
import { HistoryPanel } from "./panels/history-panel";
import { TestRunPanel } from "./panels/test-run-panel";
import { WhatIfPanel } from "./panels/what-if-panel";
import type { TPanelProps } from "./types";

export type TSideTab = "inspector" | "test" | "history" | "whatif";

export function SidePanel({
  tab,
  onTab,
  isNew,
  selectedCount,
  inspector,
  panel,
}: {
  tab: TSideTab;
  onTab: (tab: TSideTab) => void;
  isNew: boolean;
  /** how many nodes are selected: more than one has no inspector */
  selectedCount: number;
  inspector: TInspectorProps;
  panel: TPanelProps;
}) {
  return (
    <aside aria-label="Side panel" className="min-w-0 space-y-3">
      <div className="overflow-x-auto">
        <SegmentedControl
          label="Side panel"
          value={tab}
          onChange={onTab}
          options={[
            { value: "inspector", label: "Inspector" },
            { value: "test", label: "Test run" },
            { value: "history", label: "History" },
            { value: "whatif", label: "What-if" },
          ]}
        />
      </div>
      <div className="rounded-lg border border-gray-200 bg-white p-4">
        {tab === "inspector" ? (
          selectedCount > 1 ? (
            <p className="text-sm text-gray-700">
              {selectedCount} nodes selected. Copy them with Ctrl+C (⌘C), paste with Ctrl+V, delete with
              Delete.
            </p>
          ) : (
            <Inspector {...inspector} />
          )
        ) : isNew ? (
          <p className="text-sm text-gray-700">
            Save the workflow first; this panel works on saved workflows.
          </p>
        ) : tab === "test" ? (
          <TestRunPanel {...panel} />
        ) : tab === "history" ? (
          <HistoryPanel {...panel} />
        ) : (
          <WhatIfPanel {...panel} />
        )}
      </div>
    </aside>
  );
}
