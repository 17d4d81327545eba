/** The Workflow resource as the API returns it. */
import { z } from "zod";

export const ZWorkflowNodeJson = z.object({
  id: z.string(),
  type: z.string(),
  next: z.string().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});

export const ZWorkflowJson = z.object({
  workflowId: z.string(),
  name: z.string(),
  entryNodeId: z.string(),
  nodes: z.array(ZWorkflowNodeJson),
  createdAt: z.string(),
  updatedAt: z.string(),
});
