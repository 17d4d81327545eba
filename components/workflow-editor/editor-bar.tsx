"use client";
/**
 * The editor's top: the way back to the app's workflows, the version and whether the draft is
 * saved; then the workflow's name and the actions (undo, redo, tidy up, save, the regression
 * summary of a stored workflow). Read only: no actions.
 */
import { ArrowLeft, LayoutGrid, Redo2, Save, Undo2 } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { RegressionSummary } from "./panels/test-run-panel";
import type { TDraft } from "./types";

export function EditorStatus({
  base,
  version,
  isNew,
  readOnly,
  dirty,
}: {
  /** the app's Workflows page */
  base: string;
  version: number | undefined;
  isNew: boolean;
  readOnly: boolean;
  dirty: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Link
        href={base}
        className="inline-flex items-center gap-1 text-sm font-medium text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Workflows
      </Link>
      {version !== undefined ? <Badge tone="gray">Version {version}</Badge> : null}
      {isNew ? <Badge tone="amber">Not created yet</Badge> : null}
      <span className="text-sm text-gray-700" role="status">
        {readOnly
          ? "Read only"
          : dirty
            ? isNew
              ? "Save to create the workflow"
              : "Unsaved changes"
            : "All changes saved"}
      </span>
    </div>
  );
}

export function EditorToolbar({
  clientId,
  workflowId,
  draft,
  isNew,
  readOnly,
  dirty,
  nameError,
  canUndo,
  canRedo,
  saving,
  onEdit,
  onUndo,
  onRedo,
  onTidy,
  onSave,
}: {
  clientId: string;
  workflowId: string;
  draft: TDraft;
  isNew: boolean;
  readOnly: boolean;
  dirty: boolean;
  nameError: string | undefined;
  canUndo: boolean;
  canRedo: boolean;
  saving: boolean;
  onEdit: (draft: TDraft, coalesce?: string) => void;
  onUndo: () => void;
  onRedo: () => void;
  onTidy: () => void;
  onSave: () => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Input
        label="Workflow name"
        fieldClassName="min-w-0 flex-1 basis-64"
        value={draft.name}
        readOnly={readOnly}
        error={nameError}
        maxLength={100}
        onChange={(e) => onEdit({ ...draft, name: e.target.value }, "name")}
      />
      {!readOnly ? (
        <div role="toolbar" aria-label="Editor actions" className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={onUndo}
            disabled={!canUndo}
            icon={<Undo2 aria-hidden className="h-4 w-4" />}
            aria-keyshortcuts="Control+Z Meta+Z"
          >
            Undo
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={onRedo}
            disabled={!canRedo}
            icon={<Redo2 aria-hidden className="h-4 w-4" />}
            aria-keyshortcuts="Shift+Control+Z Shift+Meta+Z"
          >
            Redo
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={onTidy}
            icon={<LayoutGrid aria-hidden className="h-4 w-4" />}
          >
            Tidy up
          </Button>
          <Button
            size="sm"
            onClick={onSave}
            pending={saving}
            disabled={!dirty}
            icon={<Save aria-hidden className="h-4 w-4" />}
          >
            Save
          </Button>
          {!isNew ? <RegressionSummary clientId={clientId} workflowId={workflowId} draft={draft} /> : null}
        </div>
      ) : null}
    </div>
  );
}
