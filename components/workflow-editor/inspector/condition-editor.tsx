"use client";
/**
 * A condition's form (a "condition" node, an item of a check list): source → field (claims) →
 * operator (those that apply to the source) → value (by operator: an age, a level or levels of
 * assurance, the app's providers, a list or one value). Changing the source or the operator
 * drops what no longer fits.
 */
import { Input, Select } from "@/components/ui/field";
import { OP_LABELS, OPS_BY_SOURCE, valueKind, type TConditionLike } from "../summary";
import type { TFieldProps } from "./fields";
import { ChoiceList, Group } from "./group";

export function ConditionEditor({
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
