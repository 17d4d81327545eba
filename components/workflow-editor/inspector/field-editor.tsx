"use client";
/**
 * A field of a node's form by its type in the catalog: enum → select, string[] with values →
 * checkboxes, else comma-separated text; integer, boolean and string → inputs (the logo → the
 * logo picker); objects → sub-forms (a condition → its pickers, `providers` → the app's
 * providers); object[] → a list of sub-forms; anything else → JSON text.
 */
import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox, Input, Select } from "@/components/ui/field";
import { LogoField } from "@/components/ui/logo-field";
import type { TNodeField } from "../queries";
import { ConditionEditor } from "./condition-editor";
import { fieldLabel, isCondition, singular, type TFieldProps } from "./fields";
import { Group, MultiCheck } from "./group";
import { ProviderOverrides } from "./provider-overrides";

export function FieldEditor(props: TFieldProps) {
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
