/**
 * The one boundary between a stored workflow (the JSON columns of `workflows` and
 * `workflow_versions`) and the typed workflow that the engine, the API and the version history
 * work with. Every read of `nodes` / `positions` goes through here: the columns are parsed with
 * the same zod schemas the API answers with, so a row that does not have the stored shape fails
 * loudly here (WorkflowDefect) instead of somewhere deep in the engine.
 */
import type { Prisma } from "../db/client";
import { z } from "zod";
import { WorkflowDefect } from "./engine/defect";
import type { TRunnableWorkflow } from "./engine/nodes";
import { ZNodePositionsJson, ZWorkflowNodeJson, type TNodePositions, type TWorkflowNode } from "./json";

const ZStoredNodes = z.array(ZWorkflowNodeJson).min(1);

/** The nodes of a stored workflow row. */
export function storedNodes(value: Prisma.JsonValue): TWorkflowNode[] {
  const parsed = ZStoredNodes.safeParse(value);
  if (!parsed.success) throw new WorkflowDefect("The stored workflow nodes do not have the workflow shape");
  return parsed.data;
}

/** The editor positions of a stored workflow row ({} when none are stored). */
export function storedPositions(value: Prisma.JsonValue | null | undefined): TNodePositions {
  if (value === null || value === undefined) return {};
  const parsed = ZNodePositionsJson.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** What the engine runs: the entry node and the nodes of a stored row. */
export function runnableWorkflow(row: { entryNodeId: string; nodes: Prisma.JsonValue }): TRunnableWorkflow {
  return { entryNodeId: row.entryNodeId, nodes: storedNodes(row.nodes) };
}

/** The versioned content (name, entry, nodes, positions) of a stored row. */
export function storedContent(row: {
  name: string;
  entryNodeId: string;
  nodes: Prisma.JsonValue;
  positions: Prisma.JsonValue | null;
}): { name: string; entryNodeId: string; nodes: TWorkflowNode[]; positions: TNodePositions } {
  return {
    name: row.name,
    entryNodeId: row.entryNodeId,
    nodes: storedNodes(row.nodes),
    positions: storedPositions(row.positions),
  };
}
