"use client";
/**
 * A node's form: its id (renaming updates the links into it), its links as selects (a keyboard
 * way to connect nodes), the fields its type declares in the catalog, and the API's problems
 * of the node above them.
 */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import type { TLinkKey } from "@/lib/workflows/graph";
import type { TWorkflowNode } from "@/lib/workflows/json";
import { renameNode, updateNode } from "../mapping";
import { NodeIcon } from "../node-style";
import type { TNodeTypeDef } from "../queries";
import { errorsFor, shortMessage, type TContext, type TInspectorProps } from "./fields";
import { FieldEditor } from "./field-editor";

const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function NodeForm({
  draft,
  node,
  def,
  catalog,
  providers,
  details,
  readOnly,
  onEdit,
  onSelectNode,
}: TInspectorProps & { node: TWorkflowNode; def: TNodeTypeDef | undefined }) {
  const index = draft.nodes.findIndex((n) => n.id === node.id);
  const prefix = `nodes[${index}]`;
  const own = details.filter(
    (d) => d.path === prefix || d.path.startsWith(`${prefix}.`) || d.nodeId === node.id,
  );
  const errorAt = errorsFor(own, prefix);
  const [idText, setIdText] = useState(node.id);
  const [idError, setIdError] = useState<string | undefined>();
  const claimNames =
    catalog.find((d) => d.type === "verification")?.fields.find((f) => f.name === "claims")?.enumValues ?? [];
  const ctx: TContext = { claimNames, providers, readOnly };
  const config = (node.config ?? {}) as Record<string, unknown>;
  const setConfig = (next: Record<string, unknown>, coalesce?: string) =>
    onEdit(
      updateNode(draft, node.id, (n) => ({ ...n, config: next })),
      coalesce,
    );
  const applyId = () => {
    const to = idText.trim();
    if (to === node.id) return setIdError(undefined);
    if (!NODE_ID_PATTERN.test(to)) return setIdError("Use 1–64 letters, digits, '_' or '-'.");
    if (draft.nodes.some((n) => n.id === to)) return setIdError(`"${to}" is the id of another node.`);
    setIdError(undefined);
    onEdit(renameNode(draft, node.id, to));
    onSelectNode(to);
  };
  const outputs = def?.outputs ?? [];
  const targets = draft.nodes.filter((n) => n.id !== node.id);

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => e.preventDefault()}
      aria-label={`${def?.label ?? node.type} ${node.id}`}
    >
      <div className="flex items-start gap-2">
        <NodeIcon type={node.type} />
        <div className="min-w-0">
          <h2 className="text-base font-semibold">
            {def?.label ?? node.type} <span className="font-mono text-sm text-gray-700">{node.id}</span>
          </h2>
          {def ? <p className="text-sm text-gray-700">{def.description}</p> : null}
        </div>
      </div>
      {own.length > 0 ? (
        <ul
          className="space-y-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
          aria-label="Problems of this node"
        >
          {own.map((d) => (
            <li key={`${d.path}:${d.message}`}>{shortMessage(d.message)}</li>
          ))}
        </ul>
      ) : null}
      <fieldset disabled={readOnly} className="space-y-4">
        <Input
          label="Node id"
          value={idText}
          onChange={(e) => setIdText(e.target.value)}
          onBlur={applyId}
          onKeyDown={(e) => {
            if (e.key === "Enter") applyId();
          }}
          error={idError ?? errorAt("id")}
          description="Renaming updates the links into this node."
        />
        {node.type === "request" && draft.entryNodeId !== node.id ? (
          <Button variant="secondary" size="sm" onClick={() => onEdit({ ...draft, entryNodeId: node.id })}>
            Make this the entry node
          </Button>
        ) : null}
        {outputs.map((key: TLinkKey) => (
          <Select
            key={key}
            label={
              key === "next"
                ? "Next node"
                : `${key === "then" ? "Then" : "Else"} (when the condition ${key === "then" ? "holds" : "does not hold"})`
            }
            value={node[key] ?? ""}
            error={errorAt(key)}
            onChange={(e) =>
              onEdit(
                updateNode(draft, node.id, (n) => {
                  const copy = { ...n };
                  if (e.target.value) copy[key] = e.target.value;
                  else delete copy[key];
                  return copy;
                }),
              )
            }
          >
            <option value="">— not connected —</option>
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.id} ({catalog.find((d) => d.type === t.type)?.label ?? t.type})
              </option>
            ))}
          </Select>
        ))}
        {(def?.fields ?? []).map((field) => (
          <FieldEditor
            key={field.name}
            field={field}
            path={`config.${field.name}`}
            value={config[field.name]}
            ctx={ctx}
            errorAt={errorAt}
            onChange={(v, coalesce) => {
              const next = { ...config };
              if (v === undefined) delete next[field.name];
              else next[field.name] = v;
              setConfig(next, coalesce);
            }}
          />
        ))}
      </fieldset>
    </form>
  );
}
