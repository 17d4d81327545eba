"use client";
/**
 * The controls of a connection's settings, one per field of the adapter's JSON Schema
 * (settings-model.ts): text (long text for XML and PEM), a select for an enumeration, number,
 * switch, list (one per line), maps as rows, the claim-mapping editor, nested groups, JSON for
 * anything else. Secrets are write-only: "Set" when none is stored, else "Replace", and left empty
 * the stored one is kept. Errors of the API's answer (`settings.<path>`) show on their field.
 */
import { KeyRound, Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox, Input, Select, Textarea } from "@/components/ui/field";
import { ClaimMappingEditor } from "./claim-mapping-editor";
import type { TDraft, TDraftValue, TField, TMapRow } from "./settings-model";

export interface TFieldsProps {
  fields: TField[];
  draft: TDraft;
  onChange: (path: string, value: TDraftValue) => void;
  /** the message for a field path (the API's `settings.<path>` or the form's own) */
  errorOf: (path: string) => string | undefined;
  /** names of the secrets the connection has stored */
  storedSecrets: readonly string[];
  upstreamClaims: Record<string, unknown> | null;
  /** field path → default shown for an unset switch */
  defaults?: Record<string, boolean>;
}

function MapRows({
  field,
  rows,
  onChange,
  error,
}: {
  field: TField & { kind: "map" };
  rows: TMapRow[];
  onChange: (rows: TMapRow[]) => void;
  error?: string;
}) {
  const id = useId();
  const update = (i: number, row: Partial<TMapRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  return (
    <fieldset
      className="space-y-2 rounded-md border border-gray-200 p-3"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="px-1 text-sm font-medium text-gray-900">{field.label}</legend>
      {field.description ? <p className="text-sm text-gray-600">{field.description}</p> : null}
      {rows.map((row, i) => (
        <div key={i} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <Input
            label={`${field.label}: name ${i + 1}`}
            fieldClassName="min-w-0 flex-1"
            value={row.key}
            onChange={(e) => update(i, { key: e.target.value })}
            spellCheck={false}
            autoComplete="off"
          />
          <Input
            label={`${field.label}: value ${i + 1}`}
            fieldClassName="min-w-0 flex-1"
            type={field.values === "number" ? "number" : "text"}
            value={row.value}
            onChange={(e) => update(i, { value: e.target.value })}
            spellCheck={false}
            autoComplete="off"
          />
          <Button
            variant="ghost"
            size="sm"
            className="self-start sm:mb-1 sm:self-auto"
            aria-label={`Remove ${field.label} row ${i + 1}`}
            icon={<Trash2 aria-hidden className="h-4 w-4" />}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button
        variant="secondary"
        size="sm"
        icon={<Plus aria-hidden className="h-4 w-4" />}
        onClick={() => onChange([...rows, { key: "", value: "" }])}
      >
        Add to {field.label}
      </Button>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A write-only secret: its input, behind "Replace" when one is stored. */
function SecretField({
  field,
  value,
  onChange,
  error,
  stored,
}: {
  field: TField;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  stored: boolean;
}) {
  const [open, setOpen] = useState(!stored || Boolean(error));
  const multiline = field.kind === "json" || (field.kind === "text" && field.multiline);
  const note = stored
    ? "Write-only. A value is stored; leave this empty to keep the stored one."
    : "Not set. Write-only: never shown again once saved.";
  const input = multiline ? (
    <Textarea
      label={stored ? `New ${field.label.toLowerCase()}` : field.label}
      description={`${note}${field.kind === "json" ? " JSON." : ""}`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      rows={6}
      spellCheck={false}
      autoComplete="off"
      className="font-mono text-xs"
    />
  ) : (
    <Input
      label={stored ? `New ${field.label.toLowerCase()}` : field.label}
      description={note}
      type="password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      autoComplete="new-password"
      spellCheck={false}
    />
  );
  // nothing stored: the input itself, its note saying so
  if (!stored) return input;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-gray-900">{field.label}</span>
        <Badge tone="green">Set</Badge>
        {!open ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<KeyRound aria-hidden className="h-4 w-4" />}
            onClick={() => setOpen(true)}
          >
            Replace {field.label.toLowerCase()}
          </Button>
        ) : null}
      </div>
      {open ? input : null}
    </div>
  );
}

function SettingField({ field, ...props }: TFieldsProps & { field: TField }) {
  const { draft, onChange, errorOf, storedSecrets, upstreamClaims, defaults } = props;
  const value = draft[field.path];
  const error = errorOf(field.path);
  const text = typeof value === "string" ? value : "";
  if (field.secret) {
    return (
      <SecretField
        field={field}
        value={text}
        onChange={(v) => onChange(field.path, v)}
        error={error}
        stored={storedSecrets.includes(field.path)}
      />
    );
  }
  switch (field.kind) {
    case "group":
      return (
        <fieldset className="space-y-4 rounded-md border border-gray-200 p-3">
          <legend className="px-1 text-sm font-medium text-gray-900">{field.label}</legend>
          {field.description ? <p className="text-sm text-gray-600">{field.description}</p> : null}
          <SettingFields {...props} fields={field.fields} />
          {error && !field.fields.some((f) => errorOf(f.path) === error) ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
        </fieldset>
      );
    case "boolean":
      return (
        <Checkbox
          label={field.label}
          description={field.description}
          checked={typeof value === "boolean" ? value : (defaults?.[field.path] ?? false)}
          onChange={(e) => onChange(field.path, e.target.checked)}
          error={error}
        />
      );
    case "number":
      return (
        <Input
          label={field.label}
          description={field.description}
          required={field.required}
          type="number"
          step={field.integer ? 1 : "any"}
          value={text}
          onChange={(e) => onChange(field.path, e.target.value)}
          error={error}
        />
      );
    case "list":
      return (
        <Textarea
          label={field.label}
          description={`${field.description ? `${field.description} ` : ""}One per line.`}
          required={field.required}
          value={text}
          onChange={(e) => onChange(field.path, e.target.value)}
          error={error}
          rows={3}
          spellCheck={false}
          autoCapitalize="none"
        />
      );
    case "map":
      return (
        <MapRows
          field={field}
          rows={Array.isArray(value) ? value : []}
          onChange={(rows) => onChange(field.path, rows)}
          error={error}
        />
      );
    case "claimMapping":
      return (
        <ClaimMappingEditor
          protocol={field.protocol}
          label={field.label}
          rows={Array.isArray(value) ? value : []}
          onChange={(rows) => onChange(field.path, rows)}
          error={error}
          upstreamClaims={upstreamClaims}
        />
      );
    case "json":
      return (
        <Textarea
          label={field.label}
          description={`${field.description ? `${field.description} ` : ""}JSON.`}
          required={field.required}
          value={text}
          onChange={(e) => onChange(field.path, e.target.value)}
          error={error}
          rows={5}
          spellCheck={false}
          className="font-mono text-xs"
        />
      );
    default:
      if (field.options) {
        return (
          <Select
            label={field.label}
            description={field.description}
            required={field.required}
            value={text}
            onChange={(e) => onChange(field.path, e.target.value)}
            error={error}
          >
            <option value="">{field.required ? "Choose…" : "Not set"}</option>
            {field.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </Select>
        );
      }
      return field.multiline ? (
        <Textarea
          label={field.label}
          description={field.description}
          required={field.required}
          value={text}
          onChange={(e) => onChange(field.path, e.target.value)}
          error={error}
          rows={8}
          spellCheck={false}
          className="font-mono text-xs"
        />
      ) : (
        <Input
          label={field.label}
          description={field.description}
          required={field.required}
          type={field.format === "uri" ? "url" : "text"}
          placeholder={field.format === "uri" ? "https://…" : undefined}
          value={text}
          onChange={(e) => onChange(field.path, e.target.value)}
          error={error}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="none"
        />
      );
  }
}

/** Every field of `fields`, in the schema's order. */
export function SettingFields(props: TFieldsProps) {
  return (
    <div className="space-y-4">
      {props.fields.map((field) => (
        <SettingField key={field.path} {...props} field={field} />
      ))}
    </div>
  );
}
