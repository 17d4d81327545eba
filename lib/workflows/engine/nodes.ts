/**
 * Reading a stored workflow node by node. Configs are parsed with the schemas validate.ts uses,
 * so the engine works on typed configs and a config that no longer parses is a WorkflowDefect
 * naming the node, not a crash half-way through a session.
 */
import type { z } from "zod";
import type { TWorkflowNode } from "../json";
import { WorkflowDefect } from "./defect";

export interface TRunnableWorkflow {
  entryNodeId: string;
  nodes: readonly TWorkflowNode[];
}

/** Node lookup that also refuses to visit a node twice: a stored cycle must not loop forever. */
export class NodeWalk {
  private readonly byId: Map<string, TWorkflowNode>;
  readonly path: string[] = [];

  constructor(workflow: TRunnableWorkflow) {
    this.byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  }

  /** Enters the node `id`, reached from `from` (for the message when it does not exist). */
  enter(id: string | undefined, from?: { nodeId: string; link: string }): TWorkflowNode {
    const where = from ? `node "${from.nodeId}": ${from.link}` : "the workflow";
    if (id === undefined) throw new WorkflowDefect(`${where} is missing`, from?.nodeId);
    const node = this.byId.get(id);
    if (!node)
      throw new WorkflowDefect(`${where} names "${id}", which is not a node of the workflow`, from?.nodeId);
    if (this.path.includes(id))
      throw new WorkflowDefect(`${where} returns to "${id}": the workflow has a cycle`, from?.nodeId);
    this.path.push(id);
    return node;
  }
}

export function parseConfig<T>(node: TWorkflowNode, schema: z.ZodType<T>): T {
  const result = schema.safeParse(node.config ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? `config.${issue.path.join(".")}: ` : "config: ";
  throw new WorkflowDefect(`node "${node.id}": ${field}${issue?.message ?? "is invalid"}`, node.id);
}
