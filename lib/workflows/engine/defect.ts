/**
 * A workflow the engine cannot run. validate.ts refuses such workflows when they are saved, so
 * this only happens with data written around it (older code, hand edits); the engine reports it
 * instead of guessing what the workflow meant.
 */
export class WorkflowDefect extends Error {
  readonly nodeId: string | undefined;

  constructor(message: string, nodeId?: string) {
    super(message);
    this.name = "WorkflowDefect";
    this.nodeId = nodeId;
  }
}
