/**
 * The one boundary between a stored workflow (the JSON columns of `workflows` and
 * `workflow_versions`) and the typed workflow that the engine, the API and the version history
 * work with. Every read of `nodes` / `positions` goes through here: the columns are parsed with
 * the same zod schemas the API answers with, so a row that does not have the stored shape fails
 * loudly here (WorkflowDefect) instead of somewhere deep in the engine.
 */
import { z } from "zod";
import { WorkflowDefect } from "./engine/defect";
import type { TRunnableWorkflow } from "./engine/nodes";
import { ZNodePositionsJson, ZWorkflowNodeJson, type TNodePositions, type TWorkflowNode } from "./json";

const ZStoredNodes = z.array(ZWorkflowNodeJson).min(1);

/** The nodes of a stored workflow row. */
export function storedNodes(value: unknown): TWorkflowNode[] {
  const parsed = ZStoredNodes.safeParse(value);
  if (!parsed.success) throw new WorkflowDefect("The stored workflow nodes do not have the workflow shape");
  return parsed.data;
}

/** The editor positions of a stored workflow row ({} when none are stored). */
export function storedPositions(value: unknown): TNodePositions {
  if (value === null || value === undefined) return {};
  const parsed = ZNodePositionsJson.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** What the engine runs: the entry node and the nodes of a stored row. */
export function runnableWorkflow(row: { entryNodeId: string; nodes: unknown }): TRunnableWorkflow {
  return { entryNodeId: row.entryNodeId, nodes: storedNodes(row.nodes) };
}

// Parsed contents by workflow id, the newest version seen: a version's content never changes
// (lib/workflows/versions.ts: every change of a workflow's content is a new version), so an
// entry is right for exactly its (id, version). Bounded: the oldest entry goes first.
const CACHE_MAX_ENTRIES = 1000;
const parsedVersions = new Map<string, { version: number; workflow: TRunnableWorkflow }>();

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * What the engine runs of version `version` of workflow `id`, when this process has parsed that
 * version before (frozen: shared by every caller); undefined otherwise.
 */
export function cachedWorkflowVersion(id: string, version: number): TRunnableWorkflow | undefined {
  const hit = parsedVersions.get(id);
  return hit && hit.version === version ? hit.workflow : undefined;
}

/**
 * `runnableWorkflow` of a workflow row as it is at its own `version` (its `nodes` and
 * `entryNodeId` must be that version's), parsed once per process and version (see
 * cachedWorkflowVersion).
 */
export function runnableWorkflowVersion(row: {
  id: string;
  version: number;
  entryNodeId: string;
  nodes: unknown;
}): TRunnableWorkflow {
  const cached = cachedWorkflowVersion(row.id, row.version);
  if (cached) return cached;
  const workflow = deepFreeze({ entryNodeId: row.entryNodeId, nodes: storedNodes(row.nodes) });
  const previous = parsedVersions.get(row.id);
  // a process that meets an older version after a newer one (a slow reader) keeps the newer
  if (previous && previous.version > row.version) return workflow;
  parsedVersions.delete(row.id);
  if (parsedVersions.size >= CACHE_MAX_ENTRIES) {
    const oldest = parsedVersions.keys().next().value;
    if (oldest !== undefined) parsedVersions.delete(oldest);
  }
  parsedVersions.set(row.id, { version: row.version, workflow });
  return workflow;
}

/** The versioned content (name, entry, nodes, positions) of a stored row. */
export function storedContent(row: {
  name: string;
  entryNodeId: string;
  nodes: unknown;
  positions: unknown;
}): { name: string; entryNodeId: string; nodes: TWorkflowNode[]; positions: TNodePositions } {
  return {
    name: row.name,
    entryNodeId: row.entryNodeId,
    nodes: storedNodes(row.nodes),
    positions: storedPositions(row.positions),
  };
}
