/**
 * The Workflow resource as the API returns it (and as nodes are stored): a node has `next`
 * unless it is a `response` (terminal) or an `if` (which branches with `then`/`else`).
 */
import { z } from "zod";

export const ZWorkflowNodeJson = z.object({
  id: z.string(),
  type: z.string().describe("A type of the node-types catalog"),
  next: z.string().optional().describe("Id of the following node; absent on response and if nodes"),
  then: z.string().optional().describe("if nodes: id of the node taken when the condition holds"),
  else: z.string().optional().describe("if nodes: id of the node taken when it does not"),
  config: z.record(z.string(), z.unknown()).optional(),
});
export type TWorkflowNode = z.infer<typeof ZWorkflowNodeJson>;

export const ZNodePositionJson = z.object({ x: z.number(), y: z.number() });
export const ZNodePositionsJson = z
  .record(z.string(), ZNodePositionJson)
  .describe("Canvas positions of the visual editor by node id; the engine ignores them");
export type TNodePositions = z.infer<typeof ZNodePositionsJson>;

export const ZWorkflowJson = z.object({
  workflowId: z.string(),
  name: z.string(),
  entryNodeId: z.string().describe("Id of the request node"),
  nodes: z.array(ZWorkflowNodeJson),
  positions: ZNodePositionsJson,
  version: z
    .number()
    .int()
    .min(1)
    .describe('Number of the latest saved version; also the response\'s ETag (`"3"`)'),
  createdAt: z.string().describe("ISO 8601 date-time"),
  updatedAt: z.string().describe("ISO 8601 date-time"),
});
