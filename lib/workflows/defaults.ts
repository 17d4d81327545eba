/**
 * Shaping nodes before they are validated and stored.
 * Rules:
 * - null links and configs mean "none" and are dropped, so stored nodes only carry what is set;
 * - at workflow creation (only then, as the spec says) verification nodes get
 *   branding.useAppBranding = true unless the caller gave a value.
 */
import type { TWorkflowNode } from "./json";
import type { TWorkflowNodeInput } from "./schema";

/** Drops null links and configs (sent by some editors for "none"), keeping field order stable. */
export function normalizeNodes(nodes: readonly TWorkflowNodeInput[]): TWorkflowNode[] {
  return nodes.map((n) => {
    const node: TWorkflowNode = { id: n.id, type: n.type };
    if (n.next != null) node.next = n.next;
    if (n.then != null) node.then = n.then;
    if (n.else != null) node.else = n.else;
    if (n.config != null) node.config = n.config;
    return node;
  });
}

/** Spec: useAppBranding defaults to true at workflow creation. */
export function applyCreationDefaults(nodes: TWorkflowNode[]): TWorkflowNode[] {
  return nodes.map((node) => {
    if (node.type !== "verification") return node;
    const config = node.config ?? {};
    const branding = config.branding;
    if (branding === undefined) return { ...node, config: { ...config, branding: { useAppBranding: true } } };
    if (typeof branding === "object" && branding !== null && !Array.isArray(branding)) {
      const b = branding as Record<string, unknown>;
      if (b.useAppBranding === undefined)
        return { ...node, config: { ...config, branding: { ...b, useAppBranding: true } } };
    }
    return node;
  });
}
