"use client";
/**
 * The inspector: the selected node's form (node-form.tsx) or, with nothing selected, the
 * workflow's entry. Every message of the API whose path points into the node lands on its field.
 */
import { Select } from "@/components/ui/field";
import { shortMessage, type TInspectorProps } from "./fields";
import { NodeForm } from "./node-form";

export function Inspector(props: TInspectorProps) {
  const { draft, nodeId, catalog } = props;
  const node = nodeId ? draft.nodes.find((n) => n.id === nodeId) : undefined;
  if (!node) return <WorkflowSection {...props} />;
  const def = catalog.find((d) => d.type === node.type);
  return <NodeForm key={node.id} {...props} node={node} def={def} />;
}

function WorkflowSection({ draft, details, readOnly, onEdit, catalog }: TInspectorProps) {
  const requestNodes = draft.nodes.filter((n) => n.type === "request");
  const entryError = details.find((d) => d.path === "entryNodeId");
  const label = (type: string) => catalog.find((d) => d.type === type)?.label ?? type;
  return (
    <div className="space-y-4">
      <h2 className="text-base font-semibold">Workflow</h2>
      <p className="text-sm text-gray-700">
        Select a node on the canvas or in the outline to edit it. Nodes are focusable with Tab; Enter selects
        the focused node.
      </p>
      <Select
        label="Entry node"
        value={draft.entryNodeId}
        disabled={readOnly}
        description="The request node where every verification starts."
        error={entryError ? shortMessage(entryError.message) : undefined}
        onChange={(e) => onEdit({ ...draft, entryNodeId: e.target.value })}
      >
        {draft.nodes.some((n) => n.id === draft.entryNodeId) ? null : <option value="">— none —</option>}
        {(requestNodes.length ? requestNodes : draft.nodes).map((n) => (
          <option key={n.id} value={n.id}>
            {n.id} ({label(n.type)})
          </option>
        ))}
      </Select>
    </div>
  );
}
