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

export const ZWorkflowJson = z.object({
  workflowId: z.string(),
  name: z.string(),
  entryNodeId: z.string().describe("Id of the request node"),
  nodes: z.array(ZWorkflowNodeJson),
  createdAt: z.string().describe("ISO 8601 date-time"),
  updatedAt: z.string().describe("ISO 8601 date-time"),
});
