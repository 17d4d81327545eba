"use client";
/**
 * The workflow editor (loaded only on its route, see editor-route.tsx): toolbar (name, undo/redo,
 * tidy up, save), palette, canvas or outline, and the side panel (Inspector, Test run, History,
 * What-if). The draft lives in an undo history (use-draft.ts); the canvas, the outline and the
 * inspector all edit it through `edit`. Validation runs 400 ms after the last edit (verdict.ts);
 * saving sends If-Match with the version the draft started from (use-workflow-save.ts); unsaved
 * drafts are kept in localStorage (draft.ts) and leaving with them asks (use-leave-guard.ts).
 */
import { useCallback, useMemo, useRef, useState } from "react";
import { errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { QueryError } from "@/components/console/query-error";
import { FormError } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { SegmentedControl } from "@/components/ui/tabs";
import { Button } from "@/components/ui/button";
import Canvas from "./canvas";
import { blankDraft, draftOf, NEW_WORKFLOW_ID } from "./draft";
import { EditorStatus, EditorToolbar } from "./editor-bar";
import { ConflictDialog, LeaveDialog } from "./editor-dialogs";
import { KeptDraftNotice, ValidationStatus } from "./editor-notices";
import { freeSpot, layoutPositions, withPositions } from "./layout";
import { addNode } from "./mapping";
import { Outline } from "./outline";
import { Palette } from "./palette";
import {
  useActivatedProviders,
  useNodeTypes,
  useWorkflow,
  type TActivatedProvider,
  type TNodeTypeDef,
} from "./queries";
import { SidePanel, type TSideTab } from "./side-panel";
import type { TDraft, THighlight, TPanelProps } from "./types";
import { useDraft } from "./use-draft";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useLeaveGuard } from "./use-leave-guard";
import { useSelection } from "./use-selection";
import { useWorkflowSave } from "./use-workflow-save";
import { useVerdict } from "./verdict";

export default function WorkflowEditor({
  clientId,
  workflowId,
  initialName,
}: {
  clientId: string;
  workflowId: string;
  initialName?: string;
}) {
  const isNew = workflowId === NEW_WORKFLOW_ID;
  const workflow = useWorkflow(clientId, workflowId, !isNew);
  const nodeTypes = useNodeTypes(clientId);
  const providers = useActivatedProviders(clientId);
  if ((!isNew && workflow.isPending) || nodeTypes.isPending) return <Loading label="Loading the workflow" />;
  if (!isNew && workflow.isError)
    return <QueryError error={workflow.error} onRetry={() => void workflow.refetch()} />;
  if (nodeTypes.isError)
    return <QueryError error={nodeTypes.error} onRetry={() => void nodeTypes.refetch()} />;
  const initial = isNew ? blankDraft(initialName?.trim() || "New workflow") : draftOf(workflow.data!);
  return (
    <EditorLoaded
      key={workflowId}
      clientId={clientId}
      workflowId={workflowId}
      initial={initial}
      initialVersion={isNew ? undefined : workflow.data!.version}
      catalog={nodeTypes.data}
      providers={providers.data ?? []}
      providersError={providers.isError ? errorMessage(providers.error) : null}
    />
  );
}

function EditorLoaded({
  clientId,
  workflowId,
  initial,
  initialVersion,
  catalog,
  providers,
  providersError,
}: {
  clientId: string;
  workflowId: string;
  initial: TDraft;
  initialVersion: number | undefined;
  catalog: TNodeTypeDef[];
  providers: TActivatedProvider[];
  providersError: string | null;
}) {
  const { env, permissions } = useConsole();
  const readOnly = !permissions.write;
  const isNew = workflowId === NEW_WORKFLOW_ID;
  const base = `/console/${env}/apps/${encodeURIComponent(clientId)}/workflows`;

  const d = useDraft({ env, clientId, workflowId, initial, initialVersion, readOnly });
  const { draft, edit, undo, redo, reset, markSaved } = d;
  const { selectedNodes, selectedEdges, inspected, onSelect, selectNodes } = useSelection(draft);
  const [highlight, setHighlight] = useState<THighlight | null>(null);
  const [view, setView] = useState<"canvas" | "outline">("canvas");
  const [tab, setTab] = useState<TSideTab>("inspector");
  const [focus, setFocus] = useState<{ id: string; n: number } | null>(null);
  const [fitSignal, setFitSignal] = useState(0);
  const sizes = useRef<Record<string, { width: number; height: number }>>({});

  const saving = useWorkflowSave({
    clientId,
    workflowId,
    version: d.version,
    base,
    markSaved,
    loadTheirs: (theirs) => {
      reset(theirs);
      selectNodes([]);
    },
  });
  const verdict = useVerdict({ clientId, draft, readOnly, saveIssues: saving.saveIssues });
  const leaving = useLeaveGuard(!readOnly && d.unsaved);
  useEditorShortcuts({ readOnly, draft, selectedNodes, edit, select: selectNodes, undo, redo });

  const labels = useMemo(() => Object.fromEntries(catalog.map((t) => [t.type, t.label])), [catalog]);
  const canvasCatalog = useMemo(
    () => Object.fromEntries(catalog.map((t) => [t.type, { label: t.label, outputs: t.outputs }])),
    [catalog],
  );

  const selectOnly = useCallback(
    (id: string | null) => {
      selectNodes(id ? [id] : []);
      if (id) {
        setTab("inspector");
        setFocus({ id, n: Date.now() });
      }
    },
    [selectNodes],
  );
  const addType = useCallback(
    (type: string, position?: { x: number; y: number }) => {
      const def = catalog.find((t) => t.type === type);
      if (!def) return;
      const { draft: next, id } = addNode(draft, def, position ?? freeSpot(draft.positions));
      edit(next);
      selectNodes([id]);
      setTab("inspector");
      if (!position) setFocus({ id, n: Date.now() });
    },
    [catalog, draft, edit, selectNodes],
  );
  const onSizes = useCallback((s: Record<string, { width: number; height: number }>) => {
    sizes.current = s;
  }, []);
  const tidy = () => {
    edit({ ...draft, positions: layoutPositions(draft, sizes.current) });
    setFitSignal((n) => n + 1);
  };

  const panelProps: TPanelProps = {
    clientId,
    workflowId,
    draft,
    onHighlight: setHighlight,
    onLoadDraft: (loaded, saved) => {
      const next = withPositions({ ...loaded, positions: loaded.positions ?? {} });
      if (!saved) return edit(next);
      // already stored as the newest version: the saved state, with nothing left to save
      markSaved(next, saved.version);
      reset(next);
    },
  };

  return (
    <div className="space-y-4">
      <EditorStatus base={base} version={d.version} isNew={isNew} readOnly={readOnly} dirty={d.dirty} />
      <EditorToolbar
        clientId={clientId}
        workflowId={workflowId}
        draft={draft}
        isNew={isNew}
        readOnly={readOnly}
        dirty={d.dirty}
        nameError={verdict.nameError}
        canUndo={d.canUndo}
        canRedo={d.canRedo}
        saving={saving.save.isPending}
        onEdit={edit}
        onUndo={undo}
        onRedo={redo}
        onTidy={tidy}
        onSave={() => saving.save.mutate(draft)}
      />
      {d.kept ? <KeptDraftNotice kept={d.kept} onRestore={d.restoreKept} onDiscard={d.discardKept} /> : null}
      <FormError message={saving.saveError} />
      {providersError ? (
        <p className="text-sm text-amber-900">
          The app&apos;s providers could not be loaded: {providersError}
        </p>
      ) : null}
      <ValidationStatus
        readOnly={readOnly}
        validation={verdict.validation}
        checking={verdict.checking}
        details={verdict.details}
        generalIssues={verdict.generalIssues}
      />

      <div className="flex flex-wrap items-center justify-between gap-2">
        <SegmentedControl
          label="View"
          value={view}
          onChange={setView}
          options={[
            { value: "canvas", label: "Canvas" },
            { value: "outline", label: "Outline" },
          ]}
        />
        {highlight ? (
          <Button variant="ghost" size="sm" onClick={() => setHighlight(null)}>
            Clear highlight
          </Button>
        ) : null}
      </div>

      <div
        className={
          readOnly
            ? "grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]"
            : "grid gap-4 lg:grid-cols-[10rem_minmax(0,1fr)_22rem]"
        }
      >
        {!readOnly ? <Palette catalog={catalog} onAdd={(type) => addType(type)} /> : null}
        <div className="min-w-0">
          {view === "canvas" ? (
            <div className="h-[520px] overflow-hidden rounded-lg border border-gray-300 bg-gray-50">
              <Canvas
                draft={draft}
                catalog={canvasCatalog}
                selectedNodes={selectedNodes}
                selectedEdges={selectedEdges}
                issuesByNode={verdict.issuesByNode}
                highlight={highlight}
                readOnly={readOnly}
                focus={focus}
                fitSignal={fitSignal}
                onSelect={onSelect}
                onEdit={edit}
                onDropType={addType}
                onSizes={onSizes}
              />
            </div>
          ) : (
            <Outline
              draft={draft}
              labels={labels}
              selected={selectedNodes}
              issuesByNode={verdict.issuesByNode}
              onSelect={(id) => selectOnly(id)}
            />
          )}
        </div>
        <SidePanel
          tab={tab}
          onTab={setTab}
          isNew={isNew}
          selectedCount={selectedNodes.length}
          inspector={{
            draft,
            nodeId: inspected,
            catalog,
            providers,
            details: verdict.details,
            readOnly,
            onEdit: edit,
            onSelectNode: (id) => selectNodes(id ? [id] : []),
          }}
          panel={panelProps}
        />
      </div>

      <ConflictDialog
        conflict={saving.conflict}
        resolving={saving.resolveConflict.isPending ? (saving.resolveConflict.variables ?? null) : null}
        error={saving.resolveConflict.error}
        onResolve={(choice) => saving.resolveConflict.mutate(choice)}
        onClose={saving.dismissConflict}
      />
      <LeaveDialog leaveTo={leaving.leaveTo} onStay={leaving.stay} onLeave={leaving.leave} />
    </div>
  );
}
