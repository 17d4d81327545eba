"use client";
/**
 * The workflow editor (loaded only on its route, see editor-route.tsx): toolbar (name, undo/redo,
 * tidy up, save), palette, canvas or outline, and the side panel (Inspector, Test run, History,
 * What-if). The draft lives in an undo history (history.ts); the canvas, the outline and the
 * inspector all edit it through `edit`. Validation runs 400 ms after the last edit; saving sends
 * If-Match with the version the draft started from; unsaved drafts are kept in localStorage.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, LayoutGrid, Redo2, Save, Undo2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { api, ApiRequestError, errorMessage, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { QueryError } from "@/components/console/query-error";
import { appKeys } from "@/components/apps/queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormError, Input } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { SegmentedControl } from "@/components/ui/tabs";
import { useToast } from "@/components/ui/toast";
import Canvas from "./canvas";
import { historyReducer, initHistory } from "./history";
import { fieldLabel, Inspector, shortMessage } from "./inspector";
import { freeSpot, layoutPositions, withPositions } from "./layout";
import { addNode, copyNodes, pasteNodes, splitNodePath, type TClipboard } from "./mapping";
import { Outline } from "./outline";
import { Palette } from "./palette";
import { HistoryPanel } from "./panels/history-panel";
import { RegressionSummary, TestRunPanel } from "./panels/test-run-panel";
import { WhatIfPanel } from "./panels/what-if-panel";
import {
  draftBody,
  useActivatedProviders,
  useNodeTypes,
  useValidation,
  useWorkflow,
  workflowKeys,
  workflowPath,
  workflowsPath,
  type TActivatedProvider,
  type TNodeTypeDef,
  type TValidationDetail,
  type TWorkflow,
} from "./queries";
import type { TDraft, THighlight, TPanelProps } from "./types";

export const NEW_WORKFLOW_ID = "new";

export function draftOf(w: Pick<TWorkflow, "name" | "entryNodeId" | "nodes" | "positions">): TDraft {
  return withPositions({
    name: w.name,
    entryNodeId: w.entryNodeId,
    nodes: w.nodes,
    positions: w.positions ?? {},
  });
}

export function blankDraft(name: string): TDraft {
  return {
    name,
    entryNodeId: "request",
    nodes: [
      { id: "request", type: "request", next: "response" },
      { id: "response", type: "response" },
    ],
    positions: { request: { x: 0, y: 0 }, response: { x: 0, y: 220 } },
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

interface TStored {
  draft: TDraft;
  savedAt: number;
}

function storageKey(env: string, clientId: string, workflowId: string, version: number | undefined) {
  return workflowId === NEW_WORKFLOW_ID
    ? `idv.workflow-draft.${env}.${clientId}.new`
    : `idv.workflow-draft.${env}.${clientId}.${workflowId}.v${version ?? 0}`;
}

function readStored(key: string, current: TDraft): TStored | null {
  try {
    const raw = typeof window === "undefined" ? null : window.localStorage.getItem(key);
    if (!raw) return null;
    const stored = JSON.parse(raw) as TStored;
    if (!stored?.draft?.nodes || same(stored.draft, current)) return null;
    return stored;
  } catch {
    return null;
  }
}

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

type TTab = "inspector" | "test" | "history" | "whatif";

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
  const router = useRouter();
  const toast = useToast();
  const queryClient = useQueryClient();
  const base = `/console/${env}/apps/${encodeURIComponent(clientId)}/workflows`;

  const [history, dispatch] = useReducer(historyReducer, initial, initHistory);
  const draft = history.present;
  const [baseline, setBaseline] = useState(initial);
  const [version, setVersion] = useState(initialVersion);
  const [selection, setSelection] = useState<{ nodes: string[]; edges: string[] }>({ nodes: [], edges: [] });
  const [highlight, setHighlight] = useState<THighlight | null>(null);
  const [view, setView] = useState<"canvas" | "outline">("canvas");
  const [tab, setTab] = useState<TTab>("inspector");
  const [focus, setFocus] = useState<{ id: string; n: number } | null>(null);
  const [fitSignal, setFitSignal] = useState(0);
  const [saveIssues, setSaveIssues] = useState<{ draft: TDraft; details: TValidationDetail[] } | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const key = storageKey(env, clientId, workflowId, version);
  const [restore, setRestore] = useState<TStored | null>(() => readStored(key, initial));
  const [debounced, setDebounced] = useState(draft);
  const sizes = useRef<Record<string, { width: number; height: number }>>({});
  const clipboard = useRef<TClipboard | null>(null);

  const dirty = isNew || !same(draft, baseline);
  const edit = useCallback(
    (next: TDraft, coalesce?: string) => dispatch({ type: "edit", draft: next, coalesce }),
    [],
  );

  const labels = useMemo(() => Object.fromEntries(catalog.map((d) => [d.type, d.label])), [catalog]);
  const canvasCatalog = useMemo(
    () => Object.fromEntries(catalog.map((d) => [d.type, { label: d.label, outputs: d.outputs }])),
    [catalog],
  );

  // ---- validation, 400 ms after the last edit -------------------------------------------------
  useEffect(() => {
    const t = setTimeout(() => setDebounced(draft), 400);
    return () => clearTimeout(t);
  }, [draft]);
  const validation = useValidation(clientId, readOnly ? null : debounced);
  const validationUnavailable =
    validation.error instanceof ApiRequestError &&
    (validation.error.status === 404 || validation.error.status === 405);

  const details = useMemo<TValidationDetail[]>(() => {
    const fromSave = saveIssues && saveIssues.draft === draft ? saveIssues.details : [];
    // a body the endpoint refuses outright (400) carries its details like a verdict
    const fromValidation: TValidationDetail[] =
      validation.error instanceof ApiRequestError && validation.error.status === 400
        ? validation.error.details
        : validation.data && !validation.isError
          ? validation.data.details
          : [];
    const all: TValidationDetail[] = [...fromSave, ...fromValidation];
    const seen = new Set<string>();
    return all
      .filter((d) => {
        const k = `${d.path}\n${d.message}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      })
      .map((d) => {
        if (d.nodeId) return d;
        const at = splitNodePath(d.path);
        const id = at ? draft.nodes[at.index]?.id : undefined;
        return id ? { ...d, nodeId: id } : d;
      });
  }, [saveIssues, validation.data, validation.isError, validation.error, draft]);
  const issuesByNode = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const d of details) {
      if (!d.nodeId || !draft.nodes.some((n) => n.id === d.nodeId)) continue;
      map.set(d.nodeId, [...(map.get(d.nodeId) ?? []), shortMessage(d.message)]);
    }
    return map;
  }, [details, draft.nodes]);
  const generalIssues = details.filter(
    (d) => (!d.nodeId || !draft.nodes.some((n) => n.id === d.nodeId)) && d.path !== "name",
  );
  const nameError = details.find((d) => d.path === "name")?.message;
  const checking = !readOnly && (validation.isFetching || debounced !== draft);

  // ---- unsaved drafts survive a reload; leaving with unsaved changes asks ----------------------
  useEffect(() => {
    if (restore || readOnly) return;
    try {
      if (dirty && !(isNew && same(draft, initial)))
        window.localStorage.setItem(key, JSON.stringify({ draft, savedAt: Date.now() } satisfies TStored));
      else window.localStorage.removeItem(key);
    } catch {
      // storage full or refused: the editor keeps working, only the reload safety net is gone
    }
  }, [draft, dirty, key, restore, readOnly, isNew, initial]);

  const guard = !readOnly && dirty && !(isNew && same(draft, initial));
  useEffect(() => {
    if (!guard) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!a || a.target === "_blank" || a.hasAttribute("download")) return;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      e.preventDefault();
      e.stopPropagation();
      setLeaveTo(`${url.pathname}${url.search}${url.hash}`);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [guard]);

  // ---- selection ------------------------------------------------------------------------------
  const existing = useMemo(() => new Set(draft.nodes.map((n) => n.id)), [draft.nodes]);
  const selectedNodes = useMemo(
    () => selection.nodes.filter((id) => existing.has(id)),
    [selection.nodes, existing],
  );
  const onSelect = useCallback(
    (change: { nodes: Record<string, boolean>; edges: Record<string, boolean> }) =>
      setSelection((s) => {
        const apply = (list: string[], ch: Record<string, boolean>) => {
          const set = new Set(list);
          for (const [id, on] of Object.entries(ch)) {
            if (on) set.add(id);
            else set.delete(id);
          }
          return [...set];
        };
        return { nodes: apply(s.nodes, change.nodes), edges: apply(s.edges, change.edges) };
      }),
    [],
  );
  const selectOnly = useCallback((id: string | null) => {
    setSelection({ nodes: id ? [id] : [], edges: [] });
    if (id) {
      setTab("inspector");
      setFocus({ id, n: Date.now() });
    }
  }, []);
  const inspected = selectedNodes.length === 1 ? selectedNodes[0]! : null;

  // ---- edits ----------------------------------------------------------------------------------
  const addType = useCallback(
    (type: string, position?: { x: number; y: number }) => {
      const def = catalog.find((d) => d.type === type);
      if (!def) return;
      const { draft: next, id } = addNode(draft, def, position ?? freeSpot(draft.positions));
      edit(next);
      setSelection({ nodes: [id], edges: [] });
      setTab("inspector");
      if (!position) setFocus({ id, n: Date.now() });
    },
    [catalog, draft, edit],
  );
  const onSizes = useCallback((s: Record<string, { width: number; height: number }>) => {
    sizes.current = s;
  }, []);
  const tidy = () => {
    edit({ ...draft, positions: layoutPositions(draft, sizes.current) });
    setFitSignal((n) => n + 1);
  };
  const undo = useCallback(() => dispatch({ type: "undo" }), []);
  const redo = useCallback(() => dispatch({ type: "redo" }), []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.("input, textarea, select, [contenteditable='true']")) return;
      if (document.querySelector("dialog[open]") || readOnly) return;
      const k = e.key.toLowerCase();
      if (k === "z" && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if ((k === "z" && e.shiftKey) || k === "y") {
        e.preventDefault();
        redo();
      } else if (k === "c" && selectedNodes.length > 0 && !window.getSelection()?.toString()) {
        e.preventDefault();
        clipboard.current = copyNodes(draft, selectedNodes);
        toast.show({
          message: `Copied ${selectedNodes.length} node${selectedNodes.length === 1 ? "" : "s"}`,
        });
      } else if (k === "v" && clipboard.current) {
        e.preventDefault();
        const { draft: next, ids } = pasteNodes(draft, clipboard.current);
        edit(next);
        setSelection({ nodes: ids, edges: [] });
        clipboard.current = copyNodes(next, ids);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [draft, edit, readOnly, redo, selectedNodes, toast, undo]);

  // ---- save -----------------------------------------------------------------------------------
  const refetchTheirs = () =>
    queryClient.fetchQuery({
      queryKey: workflowKeys.detail(env, clientId, workflowId),
      queryFn: () => api<TWorkflow>(env, workflowPath(clientId, workflowId)),
      staleTime: 0,
    });
  const save = useMutation({
    mutationFn: (d: TDraft) =>
      isNew
        ? api<TWorkflow>(env, workflowsPath(clientId), { method: "POST", body: draftBody(d) })
        : api<TWorkflow>(env, workflowPath(clientId, workflowId), {
            method: "PATCH",
            body: draftBody(d),
            headers: version !== undefined ? { "If-Match": `"${version}"` } : undefined,
          }),
    onMutate: () => {
      setSaveError(null);
      setSaveIssues(null);
    },
    onSuccess: (saved, d) => {
      queryClient.setQueryData(workflowKeys.detail(env, clientId, saved.workflowId), saved);
      void queryClient.invalidateQueries({ queryKey: workflowKeys.list(env, clientId) });
      void queryClient.invalidateQueries({ queryKey: appKeys.detail(env, clientId), exact: true });
      try {
        window.localStorage.removeItem(key);
      } catch {
        // nothing kept
      }
      setBaseline(d);
      if (isNew) {
        toast.show({ message: "Workflow created" });
        router.replace(`${base}/${encodeURIComponent(saved.workflowId)}`);
        return;
      }
      setVersion(saved.version);
      toast.show({ message: saved.version ? `Saved as version ${saved.version}` : "Workflow saved" });
    },
    onError: (err, d) => {
      if (err instanceof ApiRequestError && err.status === 412) {
        setConflict(err.message);
        return;
      }
      if (err instanceof ApiRequestError && err.details.length > 0) {
        setSaveIssues({ draft: d, details: err.details });
        setSaveError(`${err.message} The problems are marked on the nodes and fields.`);
        return;
      }
      setSaveError(errorMessage(err));
    },
  });
  const resolveConflict = useMutation({
    mutationFn: async (choice: "theirs" | "mine") => ({ choice, theirs: await refetchTheirs() }),
    onSuccess: ({ choice, theirs }) => {
      const d = draftOf(theirs);
      try {
        window.localStorage.removeItem(key);
      } catch {
        // nothing kept
      }
      setBaseline(d);
      setVersion(theirs.version);
      if (choice === "theirs") {
        dispatch({ type: "reset", draft: d });
        setSelection({ nodes: [], edges: [] });
        toast.show({ message: `Loaded version ${theirs.version ?? ""}`.trim() });
      }
      setConflict(null);
    },
  });

  // ---- side panel -----------------------------------------------------------------------------
  const panelProps: TPanelProps = {
    clientId,
    workflowId,
    draft,
    onHighlight: setHighlight,
    onLoadDraft: (d, saved) => {
      const next = withPositions({ ...d, positions: d.positions ?? {} });
      if (!saved) return edit(next);
      // already stored as the newest version: the saved state, with nothing left to save
      try {
        window.localStorage.removeItem(key);
      } catch {
        // nothing kept
      }
      setBaseline(next);
      setVersion(saved.version);
      dispatch({ type: "reset", draft: next });
    },
  };

  const canUndo = history.past.length > 0;
  const canRedo = history.future.length > 0;

  return (
    <div className="space-y-4">
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

      <div className="flex flex-wrap items-end gap-3">
        <Input
          label="Workflow name"
          fieldClassName="min-w-0 flex-1 basis-64"
          value={draft.name}
          readOnly={readOnly}
          error={nameError}
          maxLength={100}
          onChange={(e) => edit({ ...draft, name: e.target.value }, "name")}
        />
        {!readOnly ? (
          <div role="toolbar" aria-label="Editor actions" className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={undo}
              disabled={!canUndo}
              icon={<Undo2 aria-hidden className="h-4 w-4" />}
              aria-keyshortcuts="Control+Z Meta+Z"
            >
              Undo
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={redo}
              disabled={!canRedo}
              icon={<Redo2 aria-hidden className="h-4 w-4" />}
              aria-keyshortcuts="Shift+Control+Z Shift+Meta+Z"
            >
              Redo
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={tidy}
              icon={<LayoutGrid aria-hidden className="h-4 w-4" />}
            >
              Tidy up
            </Button>
            <Button
              size="sm"
              onClick={() => save.mutate(draft)}
              pending={save.isPending}
              disabled={!dirty}
              icon={<Save aria-hidden className="h-4 w-4" />}
            >
              Save
            </Button>
            {!isNew ? <RegressionSummary clientId={clientId} workflowId={workflowId} draft={draft} /> : null}
          </div>
        ) : null}
      </div>

      {restore ? (
        <div
          role="region"
          aria-label="Unsaved changes kept"
          className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          <span className="flex-1">
            Unsaved changes from {new Date(restore.savedAt).toLocaleString()} were kept in this browser.
          </span>
          <Button
            size="sm"
            onClick={() => {
              edit(withPositions(restore.draft));
              setRestore(null);
            }}
          >
            Restore changes
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              try {
                window.localStorage.removeItem(key);
              } catch {
                // nothing kept
              }
              setRestore(null);
            }}
          >
            Discard them
          </Button>
        </div>
      ) : null}

      <FormError message={saveError} />
      {providersError ? (
        <p className="text-sm text-amber-900">
          The app&apos;s providers could not be loaded: {providersError}
        </p>
      ) : null}

      <div className="space-y-1" aria-live="polite">
        {readOnly ? null : validationUnavailable ? (
          <p className="text-sm text-gray-700">Validation unavailable: problems are shown when you save.</p>
        ) : validation.isError &&
          !(validation.error instanceof ApiRequestError && validation.error.status === 400) ? (
          <p className="text-sm text-amber-900">Validation failed: {errorMessage(validation.error)}</p>
        ) : checking ? (
          <p className="text-sm text-gray-700">Checking the workflow…</p>
        ) : details.length === 0 && validation.data ? (
          <p className="text-sm text-green-800">No problems found.</p>
        ) : details.length > 0 ? (
          <p className="text-sm font-medium text-red-800">
            {details.length} problem{details.length === 1 ? "" : "s"} to fix before saving.
          </p>
        ) : null}
        {generalIssues.length > 0 ? (
          <ul
            aria-label="Workflow problems"
            className="list-disc space-y-0.5 rounded-md border border-red-300 bg-red-50 py-2 pr-3 pl-7 text-sm text-red-800"
          >
            {generalIssues.map((d) => (
              <li key={`${d.path}:${d.message}`}>
                {d.path && !d.path.startsWith("nodes") ? (
                  <span className="font-semibold">{fieldLabel(d.path)}: </span>
                ) : null}
                {d.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>

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
                selectedEdges={selection.edges}
                issuesByNode={issuesByNode}
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
              issuesByNode={issuesByNode}
              onSelect={(id) => selectOnly(id)}
            />
          )}
        </div>
        <aside aria-label="Side panel" className="min-w-0 space-y-3">
          <div className="overflow-x-auto">
            <SegmentedControl
              label="Side panel"
              value={tab}
              onChange={setTab}
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
              selectedNodes.length > 1 ? (
                <p className="text-sm text-gray-700">
                  {selectedNodes.length} nodes selected. Copy them with Ctrl+C (⌘C), paste with Ctrl+V, delete
                  with Delete.
                </p>
              ) : (
                <Inspector
                  draft={draft}
                  nodeId={inspected}
                  catalog={catalog}
                  providers={providers}
                  details={details}
                  readOnly={readOnly}
                  onEdit={edit}
                  onSelectNode={(id) => setSelection({ nodes: id ? [id] : [], edges: [] })}
                />
              )
            ) : isNew ? (
              <p className="text-sm text-gray-700">
                Save the workflow first; this panel works on saved workflows.
              </p>
            ) : tab === "test" ? (
              <TestRunPanel {...panelProps} />
            ) : tab === "history" ? (
              <HistoryPanel {...panelProps} />
            ) : (
              <WhatIfPanel {...panelProps} />
            )}
          </div>
        </aside>
      </div>

      <Dialog
        open={conflict !== null}
        onClose={() => setConflict(null)}
        title="Someone else saved this workflow"
        description={
          <>
            <p>{conflict}</p>
            <p className="mt-2">
              Your changes were not saved. Reload their version (your changes are dropped), or keep editing:
              your changes stay here, and saving again replaces their version with yours.
            </p>
          </>
        }
      >
        <FormError message={formErrorMessage(resolveConflict.error)} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button
            variant="secondary"
            pending={resolveConflict.isPending && resolveConflict.variables === "mine"}
            onClick={() => resolveConflict.mutate("mine")}
          >
            Keep editing
          </Button>
          <Button
            pending={resolveConflict.isPending && resolveConflict.variables === "theirs"}
            onClick={() => resolveConflict.mutate("theirs")}
          >
            Reload theirs
          </Button>
        </div>
      </Dialog>

      <Dialog
        open={leaveTo !== null}
        onClose={() => setLeaveTo(null)}
        title="Leave without saving?"
        description="Your unsaved changes stay in this browser and are offered again when you come back."
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setLeaveTo(null)}>
            Stay
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              const to = leaveTo;
              setLeaveTo(null);
              if (to) router.push(to);
            }}
          >
            Leave
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
