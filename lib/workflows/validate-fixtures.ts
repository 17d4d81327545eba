/** Drafts and shorthands shared by the workflow validation tests (validate*.test.ts). */
import type { TWorkflowNode } from "./json";
import { validateWorkflow, type TWorkflowDraft } from "./validate";

export const PNG_1X1 =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const ctx = { appProviderIds: ["passport", "acme"] };

/** request → verify (passport, acme) → response: valid. */
export function base(): { entryNodeId: string; nodes: TWorkflowNode[] } {
  return {
    entryNodeId: "request",
    nodes: [
      { id: "request", type: "request", next: "verify" },
      {
        id: "verify",
        type: "verification",
        next: "response",
        config: { channel: "oidc", claims: ["given_name", "family_name"] },
      },
      { id: "response", type: "response" },
    ],
  };
}

/** The baseline with one node's config replaced. */
export function withConfig(index: number, config: Record<string, unknown>, nodes = base().nodes) {
  nodes[index] = { ...nodes[index]!, config };
  return { entryNodeId: "request", nodes };
}

/** request → verify → <node> → response, to test one node type's config. */
export function withStep(node: Omit<TWorkflowNode, "id" | "next">): TWorkflowDraft {
  const { nodes } = base();
  nodes[1]!.next = "step";
  nodes.splice(2, 0, { id: "step", next: "response", ...node });
  return { entryNodeId: "request", nodes };
}

export function issues(draft: TWorkflowDraft, c = ctx) {
  return validateWorkflow(draft, c);
}
export function paths(draft: TWorkflowDraft, c = ctx) {
  return issues(draft, c).map((i) => i.path);
}
export function messageAt(draft: TWorkflowDraft, path: string) {
  return issues(draft).find((i) => i.path === path)?.message;
}
