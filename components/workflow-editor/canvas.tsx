"use client";
/**
 * The canvas: the draft drawn with React Flow. The draft is the truth; nodes and edges are
 * derived from it on every render (plus what only the canvas needs: measured sizes and the
 * positions of a drag in progress). Every edit leaves through `onEdit` as a new draft, so undo,
 * validation and saving see one model. Deleting goes through `onDelete` (one step for nodes and
 * their edges), a drag is committed when it ends.
 */
import "@xyflow/react/dist/style.css";
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  MiniMap,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type NodeProps,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useState, type DragEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import type { TLinkKey } from "@/lib/workflows/graph";
import type { TWorkflowNode } from "@/lib/workflows/json";
import {
  connect,
  draftEdges,
  FLOW_NODE_TYPE,
  linkKeyOf,
  moveNodes,
  removeLinks,
  removeNodes,
  type TFlowEdge,
  type TFlowNode,
  type TPosition,
} from "./mapping";
import { DRAG_TYPE } from "./canvas-constants";
import { NodeIcon, nodeLook } from "./node-style";
import { nodeSummary } from "./summary";
import type { TDraft, THighlight } from "./types";

type TResult = THighlight["nodes"][string];

interface TCardData extends Record<string, unknown> {
  node: TWorkflowNode;
  label: string;
  outputs: TLinkKey[];
  isEntry: boolean;
  issues: string[];
  result?: TResult;
}
type TCardNode = Omit<TFlowNode, "data"> & { data: TCardData };

const RESULT_TONE = {
  passed: "green",
  failed: "red",
  added: "green",
  removed: "red",
  changed: "amber",
} as const;
const RESULT_RING: Record<TResult["result"], string> = {
  passed: "ring-4 ring-green-300",
  failed: "ring-4 ring-red-300",
  added: "ring-4 ring-green-300",
  removed: "ring-4 ring-red-300 opacity-70",
  changed: "ring-4 ring-amber-300",
};

function WorkflowNodeCard({ id, data, selected }: NodeProps<TCardNode>) {
  const look = nodeLook(data.node.type);
  const summary = nodeSummary(data.node);
  const hasIssues = data.issues.length > 0;
  return (
    <div
      className={cn(
        "w-60 rounded-md border border-l-4 border-gray-300 bg-white px-3 py-2 text-left text-gray-900 shadow-sm",
        look.accent,
        hasIssues && "border-red-600 outline-2 outline-red-600",
        !hasIssues && selected && "outline-2 outline-offset-2 outline-blue-700",
        data.result && RESULT_RING[data.result.result],
      )}
      title={hasIssues ? data.issues.join("\n") : undefined}
      data-testid={`wf-node-${id}`}
    >
      {data.node.type !== "request" ? (
        <Handle
          type="target"
          position={Position.Top}
          className="!h-3 !w-3 !border-2 !border-gray-600 !bg-white"
        />
      ) : null}
      <div className="flex items-center gap-2">
        <NodeIcon type={data.node.type} />
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-1 text-sm font-semibold">
            <span className="truncate">{data.label}</span>
            {data.isEntry ? <Badge tone="blue">entry</Badge> : null}
          </div>
          <div className="truncate font-mono text-xs text-gray-700">{id}</div>
        </div>
        {hasIssues ? (
          <span
            className="rounded-full bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white"
            data-testid={`wf-node-issues-${id}`}
          >
            {data.issues.length}
          </span>
        ) : null}
      </div>
      <p className="mt-1 truncate text-xs text-gray-700">{summary}</p>
      {data.result ? (
        <div className="mt-1">
          <Badge tone={RESULT_TONE[data.result.result]}>
            {data.result.result}
            {data.result.reason ? `: ${data.result.reason}` : ""}
          </Badge>
        </div>
      ) : null}
      {data.outputs.map((key, i) => (
        <Handle
          key={key}
          id={key}
          type="source"
          position={Position.Bottom}
          style={{ left: `${((i + 1) * 100) / (data.outputs.length + 1)}%` }}
          className="!h-3 !w-3 !border-2 !border-gray-700 !bg-gray-700"
        />
      ))}
      {data.outputs.length > 1 ? (
        <div className="mt-1 flex justify-around text-[11px] font-semibold text-gray-800">
          {data.outputs.map((key) => (
            <span key={key}>{key}</span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

const NODE_TYPES = { [FLOW_NODE_TYPE]: WorkflowNodeCard };

export interface TCanvasProps {
  draft: TDraft;
  /** type → label and links, from the catalog */
  catalog: Record<string, { label: string; outputs: TLinkKey[] }>;
  selectedNodes: readonly string[];
  selectedEdges: readonly string[];
  issuesByNode: Map<string, string[]>;
  highlight: THighlight | null;
  readOnly: boolean;
  /** center this node (changes of `n` repeat the request) */
  focus: { id: string; n: number } | null;
  /** fit the whole graph into view whenever this number changes (after "Tidy up") */
  fitSignal?: number;
  onSelect: (change: { nodes: Record<string, boolean>; edges: Record<string, boolean> }) => void;
  onEdit: (draft: TDraft, coalesce?: string) => void;
  onDropType: (type: string, position: TPosition) => void;
  onSizes?: (sizes: Record<string, { width: number; height: number }>) => void;
}

/** The canvas with its own React Flow store. */
export default function Canvas(props: TCanvasProps) {
  return (
    <ReactFlowProvider>
      <CanvasInner {...props} />
    </ReactFlowProvider>
  );
}

function CanvasInner(props: TCanvasProps) {
  const {
    draft,
    catalog,
    selectedNodes,
    selectedEdges,
    issuesByNode,
    highlight,
    readOnly,
    focus,
    fitSignal,
    onSelect,
    onEdit,
    onDropType,
    onSizes,
  } = props;
  const flow = useReactFlow();
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const [live, setLive] = useState<Record<string, TPosition>>({});

  useEffect(() => {
    if (!focus) return;
    const p = draft.positions[focus.id];
    const size = measured[focus.id] ?? { width: 240, height: 76 };
    if (p)
      void flow.setCenter(p.x + size.width / 2, p.y + size.height / 2, {
        zoom: flow.getZoom(),
        duration: 200,
      });
    // only when a focus is requested
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus]);

  useEffect(() => {
    if (!fitSignal) return;
    const frame = requestAnimationFrame(
      () => void flow.fitView({ padding: 0.15, maxZoom: 1, duration: 200 }),
    );
    return () => cancelAnimationFrame(frame);
  }, [fitSignal, flow]);

  useEffect(() => {
    onSizes?.(measured);
  }, [measured, onSizes]);

  const nodes = useMemo<TCardNode[]>(() => {
    const selected = new Set(selectedNodes);
    return draft.nodes.map((n) => {
      const def = catalog[n.type];
      const label = def?.label ?? n.type;
      const issues = issuesByNode.get(n.id) ?? [];
      const isEntry = draft.entryNodeId === n.id;
      return {
        id: n.id,
        type: FLOW_NODE_TYPE,
        position: live[n.id] ?? draft.positions[n.id] ?? { x: 0, y: 0 },
        selected: selected.has(n.id),
        measured: measured[n.id],
        ariaLabel: `${label} node ${n.id}${isEntry ? ", entry" : ""}${
          issues.length ? `, ${issues.length} problem${issues.length === 1 ? "" : "s"}` : ""
        }`,
        data: {
          node: n,
          label,
          outputs: def?.outputs ?? [],
          isEntry,
          issues,
          result: highlight?.nodes[n.id],
        },
      };
    });
  }, [draft, catalog, selectedNodes, issuesByNode, highlight, live, measured]);

  const edges = useMemo<TFlowEdge[]>(() => {
    const selected = new Set(selectedEdges);
    const onPath = new Set<string>();
    const path = highlight?.path ?? [];
    for (let i = 0; i + 1 < path.length; i++) onPath.add(`${path[i]}>${path[i + 1]}`);
    return draftEdges(draft).map((e) => {
      const emphasised = onPath.has(`${e.source}>${e.target}`);
      return {
        ...e,
        selected: selected.has(e.id),
        ariaLabel: `${e.data?.key ?? "next"} link from ${e.source} to ${e.target}`,
        markerEnd: { type: MarkerType.ArrowClosed, color: emphasised ? "#15803d" : "#4b5563" },
        style: emphasised ? { stroke: "#15803d", strokeWidth: 3 } : { stroke: "#4b5563", strokeWidth: 1.5 },
        animated: emphasised,
        labelStyle: { fontWeight: 600, fill: "#111827" },
        labelBgStyle: { fill: "#ffffff" },
      };
    });
  }, [draft, selectedEdges, highlight]);

  const onNodesChange = useCallback(
    (changes: NodeChange<TCardNode>[]) => {
      const select: Record<string, boolean> = {};
      const dims: Record<string, { width: number; height: number }> = {};
      const liveNext: Record<string, TPosition> = {};
      const commit: Record<string, TPosition> = {};
      let dragEnded = false;
      for (const c of changes) {
        if (c.type === "select") select[c.id] = c.selected;
        else if (c.type === "dimensions" && c.dimensions) dims[c.id] = c.dimensions;
        else if (c.type === "position") {
          if (c.dragging && c.position) liveNext[c.id] = c.position;
          else if (!c.dragging) {
            const p = c.position ?? live[c.id];
            if (p) commit[c.id] = p;
            dragEnded ||= live[c.id] !== undefined;
          }
        }
      }
      if (Object.keys(select).length) onSelect({ nodes: select, edges: {} });
      if (Object.keys(dims).length) {
        setMeasured((m) => {
          const same = Object.entries(dims).every(
            ([id, d]) => m[id]?.width === d.width && m[id]?.height === d.height,
          );
          return same ? m : { ...m, ...dims };
        });
      }
      if (Object.keys(liveNext).length) setLive((l) => ({ ...l, ...liveNext }));
      if (Object.keys(commit).length) {
        const moved = moveNodes(draft, commit);
        // arrow-key moves of the same nodes become one undo step; a drag is one step
        if (moved !== draft) onEdit(moved, dragEnded ? undefined : `move:${Object.keys(commit).join(",")}`);
        setLive((l) => {
          const rest = { ...l };
          for (const id of Object.keys(commit)) delete rest[id];
          return rest;
        });
      }
    },
    [draft, live, onEdit, onSelect],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<TFlowEdge>[]) => {
      const select: Record<string, boolean> = {};
      for (const c of changes) if (c.type === "select") select[c.id] = c.selected;
      if (Object.keys(select).length) onSelect({ nodes: {}, edges: select });
    },
    [onSelect],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      const key = linkKeyOf(c.sourceHandle);
      const next = connect(draft, c.source, key, c.target);
      if (next !== draft) onEdit(next);
    },
    [draft, onEdit],
  );

  const onDelete = useCallback(
    ({ nodes: gone, edges: cut }: { nodes: TCardNode[]; edges: TFlowEdge[] }) => {
      let next = removeLinks(
        draft,
        cut.map((e) => ({ source: e.source, key: e.data?.key ?? linkKeyOf(e.sourceHandle) })),
      );
      next = removeNodes(
        next,
        gone.map((n) => n.id),
      );
      if (next !== draft) onEdit(next);
      onSelect({
        nodes: Object.fromEntries(gone.map((n) => [n.id, false])),
        edges: Object.fromEntries(cut.map((e) => [e.id, false])),
      });
    },
    [draft, onEdit, onSelect],
  );

  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(DRAG_TYPE);
      if (!type) return;
      e.preventDefault();
      const p = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      onDropType(type, { x: p.x - 120, y: p.y - 30 });
    },
    [flow, onDropType],
  );

  return (
    <ReactFlow<TCardNode, TFlowEdge>
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={readOnly ? undefined : onConnect}
      onDelete={readOnly ? undefined : onDelete}
      onDragOver={readOnly ? undefined : onDragOver}
      onDrop={readOnly ? undefined : onDrop}
      isValidConnection={(c) => c.source !== c.target}
      nodesDraggable={!readOnly}
      nodesConnectable={!readOnly}
      deleteKeyCode={readOnly ? null : ["Delete", "Backspace"]}
      multiSelectionKeyCode={["Shift", "Meta", "Control"]}
      selectionKeyCode="Shift"
      fitView
      fitViewOptions={{ maxZoom: 1, padding: 0.15 }}
      minZoom={0.2}
      maxZoom={2}
      aria-label="Workflow canvas"
    >
      <Background gap={16} />
      {/* the buttons are named; a name on the panel (a plain div) is one axe refuses */}
      <Controls showInteractive={false} aria-label="" />
      <MiniMap
        pannable
        zoomable
        ariaLabel="Workflow overview map"
        nodeColor={(n) => nodeLook((n.data as TCardData).node.type).color}
        className="!hidden sm:!block"
      />
    </ReactFlow>
  );
}
