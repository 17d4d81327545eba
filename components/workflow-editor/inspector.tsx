"use client";
/**
 * The inspector: the selected node's form, generated from its type's `fields` in the catalog
 * (enum → select, string[] with values → checkboxes, numbers and strings → inputs, objects →
 * sub-forms, object[] → a list of sub-forms, conditions → source/field/operator/value pickers),
 * its links as selects (a keyboard way to connect nodes) and, with nothing selected, the
 * workflow's entry. Every message of the API whose path points into the node lands on its field.
 */
import { Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox, Input, Select } from "@/components/ui/field";
import { LogoField } from "@/components/ui/logo-field";
import type { TLinkKey } from "@/lib/workflows/graph";
import type { TWorkflowNode } from "@/lib/workflows/json";
import { renameNode, updateNode } from "./mapping";
import { NodeIcon } from "./node-style";
import type { TActivatedProvider, TNodeField, TNodeTypeDef, TValidationDetail } from "./queries";
import { OP_LABELS, OPS_BY_SOURCE, valueKind, type TConditionLike } from "./summary";
import type { TDraft } from "./types";

const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const LABELS: Record<string, string> = {
  minLoa: "Minimum LoA",
  claimChecks: "Claim checks",
  useAppBranding: "Use the app's branding",
  reasonCode: "Reason code",
  minimumAge: "Minimum age",
};

export function fieldLabel(name: string): string {
  if (LABELS[name]) return LABELS[name];
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Drops the `node "x": ` prefix the API puts before each message. */
export function shortMessage(message: string): string {
  return message.replace(/^node (?:"[^"]*"|#\d+): /, "");
}

type TErrorAt = (path: string) => string | undefined;

function errorsFor(details: readonly TValidationDetail[], prefix: string): TErrorAt {
  return (path) => {
    const full = path ? `${prefix}.${path}` : prefix;
    const hit = details.find(
      (d) => d.path === full || d.path.startsWith(`${full}.`) || d.path.startsWith(`${full}[`),
    );
    return hit ? shortMessage(hit.message) : undefined;
  };
}

interface TContext {
  claimNames: string[];
  providers: TActivatedProvider[];
  readOnly: boolean;
}

export interface TInspectorProps {
  draft: TDraft;
  nodeId: string | null;
  catalog: TNodeTypeDef[];
  providers: TActivatedProvider[];
  /** every detail of the current verdict (validation or the last save) */
  details: readonly TValidationDetail[];
  readOnly: boolean;
  onEdit: (draft: TDraft, coalesce?: string) => void;
  onSelectNode: (id: string | null) => void;
}

export function Inspector(props: TInspectorProps) {
  const { draft, nodeId, catalog } = props;
  const node = nodeId ? draft.nodes.find((n) => n.id === nodeId) : undefined;
  if (!node) return <WorkflowSection {...props} />;
  const def = catalog.find((d) => d.type === node.type);
  return <NodeSection key={node.id} {...props} node={node} def={def} />;
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

function NodeSection({
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

interface TFieldProps {
  field: TNodeField;
  path: string;
  value: unknown;
  ctx: TContext;
  errorAt: TErrorAt;
  /** `coalesce`: typing in a text field is one undo step */
  onChange: (value: unknown, coalesce?: string) => void;
}

function isCondition(field: TNodeField): boolean {
  const names = new Set((field.fields ?? []).map((f) => f.name));
  return names.has("source") && names.has("op") && names.has("value");
}

function FieldEditor(props: TFieldProps) {
  const { field, path, value, errorAt, onChange } = props;
  const label = fieldLabel(field.name);
  const error = errorAt(path);
  switch (field.type) {
    case "enum":
      return (
        <Select
          label={label}
          required={field.required}
          description={field.description}
          error={error}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
        >
          {!field.required || typeof value !== "string" ? <option value="">— not set —</option> : null}
          {typeof value === "string" && !field.enumValues?.includes(value) ? (
            <option value={value}>{value}</option>
          ) : null}
          {(field.enumValues ?? []).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </Select>
      );
    case "string[]":
      if (field.enumValues) return <MultiCheck {...props} options={field.enumValues} />;
      return (
        <Input
          label={label}
          required={field.required}
          description={`${field.description} (comma-separated)`}
          error={error}
          value={Array.isArray(value) ? value.join(", ") : ""}
          onChange={(e) =>
            onChange(
              e.target.value
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
              path,
            )
          }
        />
      );
    case "integer":
      return (
        <Input
          label={label}
          type="number"
          inputMode="numeric"
          required={field.required}
          min={field.minimum}
          max={field.maximum}
          step={1}
          description={field.description}
          error={error}
          value={typeof value === "number" ? String(value) : ""}
          onChange={(e) => {
            const n = e.target.value === "" ? undefined : Number(e.target.value);
            onChange(n === undefined || Number.isNaN(n) ? undefined : n, path);
          }}
        />
      );
    case "boolean":
      return (
        <Checkbox
          label={label}
          description={field.description}
          error={error}
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
    case "string":
      if (field.name === "logo")
        return (
          <LogoField
            value={typeof value === "string" && value ? value : null}
            onChange={(v) => onChange(v ?? undefined)}
            error={error}
            disabled={props.ctx.readOnly}
            help={field.description}
          />
        );
      return (
        <Input
          label={label}
          required={field.required}
          description={field.description}
          error={error}
          value={typeof value === "string" ? value : ""}
          onChange={(e) =>
            onChange(e.target.value === "" && !field.required ? undefined : e.target.value, path)
          }
        />
      );
    case "object":
      if (field.name === "providers") return <ProviderOverrides {...props} />;
      if (isCondition(field)) return <ConditionEditor {...props} legend={label} />;
      return <ObjectEditor {...props} />;
    case "object[]":
      return <ObjectListEditor {...props} />;
    default:
      return <JsonEditor {...props} />;
  }
}

function Group({
  legend,
  description,
  error,
  children,
}: {
  legend: string;
  description?: string;
  error?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <fieldset
      className="min-w-0 space-y-3 rounded-md border border-gray-300 p-3"
      aria-describedby={
        [description ? `${id}-d` : "", error ? `${id}-e` : ""].filter(Boolean).join(" ") || undefined
      }
    >
      <legend className="px-1 text-sm font-medium text-gray-900">{legend}</legend>
      {description ? (
        <p id={`${id}-d`} className="text-sm text-gray-600">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-e`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {children}
    </fieldset>
  );
}

/** A checkbox per option; ticking one adds it to `chosen`, unticking removes it. */
function OptionCheckboxes({
  options,
  chosen,
  onChange,
}: {
  options: string[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}) {
  return options.map((o) => (
    <Checkbox
      key={o}
      label={o}
      checked={chosen.includes(o)}
      onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))}
    />
  ));
}

function MultiCheck({ field, path, value, errorAt, onChange, options }: TFieldProps & { options: string[] }) {
  const chosen = Array.isArray(value) ? (value as string[]) : [];
  return (
    <Group legend={fieldLabel(field.name)} description={field.description} error={errorAt(path)}>
      <div className="grid max-h-56 grid-cols-1 gap-1 overflow-y-auto pr-1 sm:grid-cols-2">
        <OptionCheckboxes options={options} chosen={chosen} onChange={onChange} />
      </div>
    </Group>
  );
}

function ObjectEditor({ field, path, value, ctx, errorAt, onChange }: TFieldProps) {
  const obj =
    value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return (
    <Group
      legend={fieldLabel(field.name)}
      description={field.description}
      error={
        errorAt(path) && !field.fields?.some((f) => errorAt(`${path}.${f.name}`)) ? errorAt(path) : undefined
      }
    >
      {(field.fields ?? []).map((sub) => (
        <FieldEditor
          key={sub.name}
          field={sub}
          path={`${path}.${sub.name}`}
          value={obj[sub.name]}
          ctx={ctx}
          errorAt={errorAt}
          onChange={(v, coalesce) => {
            const next = { ...obj };
            if (v === undefined) delete next[sub.name];
            else next[sub.name] = v;
            onChange(Object.keys(next).length || field.required ? next : undefined, coalesce);
          }}
        />
      ))}
    </Group>
  );
}

function singular(name: string): string {
  const label = fieldLabel(name).toLowerCase();
  return label.endsWith("s") ? label.slice(0, -1) : label;
}

function ObjectListEditor({ field, path, value, ctx, errorAt, onChange }: TFieldProps) {
  const items = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  const one = singular(field.name);
  const ownError = errorAt(path);
  const itemErrors = items.some((_, i) => errorAt(`${path}[${i}]`));
  const fresh = (): Record<string, unknown> => {
    const item: Record<string, unknown> = {};
    for (const sub of field.fields ?? [])
      if (sub.required && sub.enumValues?.[0]) item[sub.name] = sub.enumValues[0];
    return item;
  };
  return (
    <Group
      legend={fieldLabel(field.name)}
      description={field.description}
      error={ownError && !itemErrors ? ownError : undefined}
    >
      {items.map((item, i) => {
        const itemField: TNodeField = { ...field, type: "object", name: `${one} ${i + 1}` };
        const set = (v: unknown, coalesce?: string) =>
          onChange(
            items.map((it, k) => (k === i ? (v as Record<string, unknown>) : it)),
            coalesce,
          );
        return (
          <div key={i} className="space-y-2">
            {isCondition(field) ? (
              <ConditionEditor
                field={itemField}
                path={`${path}[${i}]`}
                value={item}
                ctx={ctx}
                errorAt={errorAt}
                onChange={set}
                legend={`${fieldLabel(one)} ${i + 1}`}
              />
            ) : (
              <ObjectEditor
                field={{ ...itemField, description: "", required: true }}
                path={`${path}[${i}]`}
                value={item}
                ctx={ctx}
                errorAt={errorAt}
                onChange={set}
              />
            )}
            {!ctx.readOnly ? (
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 aria-hidden className="h-4 w-4" />}
                onClick={() => onChange(items.filter((_, k) => k !== i))}
              >
                Remove {one} {i + 1}
              </Button>
            ) : null}
          </div>
        );
      })}
      {!ctx.readOnly ? (
        <Button
          variant="secondary"
          size="sm"
          icon={<Plus aria-hidden className="h-4 w-4" />}
          onClick={() => onChange([...items, fresh()])}
        >
          Add {one}
        </Button>
      ) : null}
    </Group>
  );
}

/** source → field (claims) → operator (those that apply to the source) → value (by operator). */
function ConditionEditor({
  field,
  path,
  value,
  ctx,
  errorAt,
  onChange,
  legend,
}: TFieldProps & { legend: string }) {
  const c = (value && typeof value === "object" ? value : {}) as TConditionLike;
  const subs = new Map((field.fields ?? []).map((f) => [f.name, f]));
  const sources = subs.get("source")?.enumValues ?? Object.keys(OPS_BY_SOURCE);
  const claimNames = subs.get("field")?.enumValues ?? ctx.claimNames;
  const allOps = subs.get("op")?.enumValues ?? [];
  const ops = allOps.filter((op) => !c.source || (OPS_BY_SOURCE[c.source] ?? allOps).includes(op));
  const kind = valueKind(c.op);
  const set = (patch: Partial<TConditionLike>, coalesce?: string) => {
    const next: Record<string, unknown> = { ...c, ...patch };
    for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
    onChange(next, coalesce);
  };
  const onSource = (source: string) => {
    const patch: Partial<TConditionLike> = { source, value: undefined };
    if (source !== "claim") patch.field = undefined;
    if (c.op && !(OPS_BY_SOURCE[source] ?? []).includes(c.op)) patch.op = OPS_BY_SOURCE[source]?.[0];
    set(patch);
  };
  const onOp = (op: string) => {
    const k = valueKind(op);
    const patch: Partial<TConditionLike> = { op };
    if (k === "none") patch.value = undefined;
    else if (k === "list" && !Array.isArray(c.value)) patch.value = [];
    else if (k !== "list" && Array.isArray(c.value)) patch.value = undefined;
    if ((op === "age_gte" || op === "age_lt") && c.source === "claim" && !c.field) patch.field = "birthdate";
    set(patch);
  };
  const providerIds = ctx.providers.map((p) => p.id);
  const valueError = errorAt(`${path}.value`);
  return (
    <Group legend={legend} description={field.description || undefined}>
      <Select
        label="Source"
        value={c.source ?? ""}
        error={errorAt(`${path}.source`)}
        onChange={(e) => onSource(e.target.value)}
      >
        {c.source ? null : <option value="">— choose —</option>}
        {sources.map((s) => (
          <option key={s} value={s}>
            {s === "loa" ? "level of assurance" : s}
          </option>
        ))}
      </Select>
      {c.source === "claim" || c.field !== undefined ? (
        <Select
          label="Claim"
          value={c.field ?? ""}
          error={errorAt(`${path}.field`)}
          onChange={(e) => set({ field: e.target.value || undefined })}
        >
          <option value="">— choose a claim —</option>
          {claimNames.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Select>
      ) : null}
      <Select
        label="Operator"
        value={c.op ?? ""}
        error={errorAt(`${path}.op`)}
        onChange={(e) => onOp(e.target.value)}
      >
        {c.op ? null : <option value="">— choose —</option>}
        {c.op && !ops.includes(c.op) ? <option value={c.op}>{OP_LABELS[c.op] ?? c.op}</option> : null}
        {ops.map((op) => (
          <option key={op} value={op}>
            {OP_LABELS[op] ?? op}
          </option>
        ))}
      </Select>
      {kind === "none" ? null : kind === "age" ? (
        <Input
          label="Age (years)"
          type="number"
          min={0}
          max={150}
          value={typeof c.value === "number" ? String(c.value) : ""}
          error={valueError}
          onChange={(e) =>
            set({ value: e.target.value === "" ? undefined : Number(e.target.value) }, `${path}.value`)
          }
        />
      ) : c.source === "loa" ? (
        kind === "list" ? (
          <ChoiceList
            label="Levels"
            options={["0", "1", "2", "3"]}
            value={(Array.isArray(c.value) ? c.value : []).map(String)}
            error={valueError}
            onChange={(v) => set({ value: v.map(Number) })}
          />
        ) : (
          <Select
            label="Level"
            value={typeof c.value === "number" ? String(c.value) : ""}
            error={valueError}
            onChange={(e) => set({ value: e.target.value === "" ? undefined : Number(e.target.value) })}
          >
            <option value="">— choose —</option>
            {[0, 1, 2, 3].map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </Select>
        )
      ) : c.source === "provider" ? (
        kind === "list" ? (
          <ChoiceList
            label="Providers"
            options={[...new Set([...providerIds, ...(Array.isArray(c.value) ? (c.value as string[]) : [])])]}
            value={Array.isArray(c.value) ? (c.value as string[]) : []}
            error={valueError}
            onChange={(v) => set({ value: v })}
          />
        ) : (
          <Select
            label="Provider"
            value={typeof c.value === "string" ? c.value : ""}
            error={valueError}
            onChange={(e) => set({ value: e.target.value || undefined })}
          >
            <option value="">— choose —</option>
            {[...new Set([...providerIds, ...(typeof c.value === "string" && c.value ? [c.value] : [])])].map(
              (id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ),
            )}
          </Select>
        )
      ) : kind === "list" ? (
        <Input
          label="Values"
          description="Comma-separated"
          value={Array.isArray(c.value) ? c.value.map(String).join(", ") : ""}
          error={valueError}
          onChange={(e) =>
            set(
              {
                value: e.target.value
                  .split(",")
                  .map((s) => s.trim())
                  .filter(Boolean),
              },
              `${path}.value`,
            )
          }
        />
      ) : (
        <Input
          label="Value"
          value={c.value === undefined ? "" : String(c.value)}
          error={valueError}
          description="Compared as text (dates as YYYY-MM-DD)."
          onChange={(e) =>
            set({ value: e.target.value === "" ? undefined : e.target.value }, `${path}.value`)
          }
        />
      )}
    </Group>
  );
}

function ChoiceList({
  label,
  options,
  value,
  error,
  onChange,
}: {
  label: string;
  options: string[];
  value: string[];
  error?: string;
  onChange: (v: string[]) => void;
}) {
  return (
    <Group legend={label} error={error}>
      {options.length === 0 ? <p className="text-sm text-gray-700">Nothing to choose from.</p> : null}
      <OptionCheckboxes options={options} chosen={value} onChange={onChange} />
    </Group>
  );
}

/**
 * Verification `providers`: opt-out overrides keyed by provider id, offered for the app's
 * activated providers only. Checked = the step may use it (no override, or an existing
 * `{enabled: true}` kept); unchecked = `{enabled: false}`.
 */
function ProviderOverrides({ field, path, value, ctx, errorAt, onChange }: TFieldProps) {
  const overrides = (value && typeof value === "object" ? value : {}) as Record<
    string,
    { enabled?: boolean }
  >;
  const activated = new Set(ctx.providers.map((p) => p.id));
  const others = Object.keys(overrides).filter((id) => !activated.has(id));
  const set = (id: string, on: boolean) => {
    const next = { ...overrides };
    if (on) {
      if (next[id]?.enabled === false) delete next[id];
    } else next[id] = { enabled: false };
    onChange(Object.keys(next).length ? next : undefined);
  };
  return (
    <Group
      legend="Providers"
      description={`${field.description}. Only the app's activated providers are offered.`}
      error={
        errorAt(path) && !Object.keys(overrides).some((id) => errorAt(`${path}.${id}`))
          ? errorAt(path)
          : undefined
      }
    >
      {ctx.providers.length === 0 ? (
        <p className="text-sm text-gray-700">The app has no activated providers yet.</p>
      ) : null}
      {ctx.providers.map((p) => (
        <Checkbox
          key={p.id}
          label={`${p.name} (${p.id})${p.enabled ? "" : " — disabled for the app"}`}
          checked={overrides[p.id]?.enabled !== false}
          error={errorAt(`${path}.${p.id}`)}
          onChange={(e) => set(p.id, e.target.checked)}
        />
      ))}
      {others.map((id) => (
        <div key={id} className="space-y-1">
          <p className="text-sm text-gray-800">
            <span className="font-mono">{id}</span>: not an activated provider of the app
          </p>
          {errorAt(`${path}.${id}`) ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {errorAt(`${path}.${id}`)}
            </p>
          ) : null}
          {!ctx.readOnly ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                const next = { ...overrides };
                delete next[id];
                onChange(Object.keys(next).length ? next : undefined);
              }}
            >
              Remove {id}
            </Button>
          ) : null}
        </div>
      ))}
    </Group>
  );
}

function JsonEditor({ field, path, value, errorAt, onChange }: TFieldProps) {
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const [bad, setBad] = useState(false);
  return (
    <Input
      label={fieldLabel(field.name)}
      description={`${field.description} (JSON)`}
      value={text}
      error={bad ? "Not valid JSON" : errorAt(path)}
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value === "") {
          setBad(false);
          return onChange(undefined, path);
        }
        try {
          onChange(JSON.parse(e.target.value), path);
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}
