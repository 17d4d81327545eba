"use client";
/**
 * One provider's activation inputs, generated from its `activation.requirements` (never written
 * per provider): text, email and url inputs with the example as placeholder, a select, a single
 * consent checkbox or a multi-choice checkbox group, and info entries as text. Values start from
 * the latest submission (a rejected ticket reopens with what was sent), else the company
 * information remembered from earlier forms. A field is checked when it loses focus with the
 * same rule the API applies (`checkRequirementValue`); the API's answer still decides and its
 * `details` land on the field they name. Both speak through components/ui/field-errors.ts: the
 * field's label and what to do ("Legal company name: enter a name"), never the API's raw words.
 */
import { Info } from "lucide-react";
import { useId } from "react";
import { Checkbox, Input, Select } from "@/components/ui/field";
import { fieldMessage, optionWords, type TFieldSpec } from "@/components/ui/field-errors";
import { checkRequirementValue, type TInputRequirement } from "@/lib/providers/requirements";
import type { TProviderEntry, TRequirement } from "./queries";

export type TFormValue = string | boolean | string[];
export type TFormValues = Record<string, TFormValue>;

/** The inputs' starting values: submitted, else remembered, else empty. */
export function initialValues(p: TProviderEntry): TFormValues {
  const values: TFormValues = {};
  for (const r of p.activation.requirements) {
    if (r.type === "info") continue;
    const prior = r.submittedValue ?? r.currentValue;
    if (r.type === "checkbox") {
      values[r.id] = r.options
        ? Array.isArray(prior)
          ? prior
          : []
        : typeof prior === "boolean"
          ? prior
          : false;
    } else {
      values[r.id] = typeof prior === "string" ? prior : "";
    }
  }
  return values;
}

/** The body of one provider in the activation map: inputs only, text trimmed. */
export function submittedValues(p: TProviderEntry, values: TFormValues): Record<string, TFormValue> {
  const body: Record<string, TFormValue> = {};
  for (const r of p.activation.requirements) {
    if (r.type === "info") continue;
    const v = values[r.id];
    body[r.id] = typeof v === "string" ? v.trim() : (v ?? "");
  }
  return body;
}

/** How a requirement's errors are worded: its label, and its choices as the select shows them. */
export function fieldSpec(r: TRequirement): TFieldSpec {
  switch (r.type) {
    case "select":
      return { label: r.label, kind: "choice", choices: (r.options ?? []).map((o) => optionWords(o.value)) };
    case "checkbox":
      return r.options ? { label: r.label, kind: "multi" } : { label: r.label, kind: "consent" };
    case "email":
    case "url":
      return { label: r.label, kind: r.type };
    default:
      return { label: r.label, kind: "text" };
  }
}

/** The API's own check of one value (the same function the server runs), in words for a person. */
export function checkValue(r: TRequirement, value: TFormValue | undefined): string | undefined {
  if (r.type === "info") return undefined;
  const result = checkRequirementValue(r as TInputRequirement, value === "" ? undefined : value);
  return result.ok ? undefined : fieldMessage(fieldSpec(r), result.message);
}

function MultiChoice({
  r,
  value,
  onChange,
  error,
  disabled,
}: {
  r: TRequirement;
  value: string[];
  onChange: (v: string[]) => void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <fieldset className="space-y-2" aria-describedby={error ? `${id}-error` : `${id}-description`}>
      <legend className="text-sm font-medium text-gray-900">
        {r.label}
        {r.required ? (
          <span className="ml-0.5 text-red-700" aria-hidden>
            *
          </span>
        ) : null}
      </legend>
      <p id={`${id}-description`} className="text-sm text-gray-600">
        {r.description}
      </p>
      <div className="space-y-1.5">
        {(r.options ?? []).map((o) => (
          <Checkbox
            key={o.value}
            label={o.description}
            checked={value.includes(o.value)}
            disabled={disabled}
            onChange={(e) =>
              onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))
            }
          />
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function RequirementField({
  r,
  value,
  onChange,
  onBlur,
  error,
  disabled,
}: {
  r: TRequirement;
  value: TFormValue | undefined;
  onChange: (v: TFormValue) => void;
  onBlur: () => void;
  error?: string;
  disabled?: boolean;
}) {
  switch (r.type) {
    case "info":
      return (
        <div className="flex gap-2 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950">
          <Info aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          <div>
            <p className="font-medium">{r.label}</p>
            <p>{r.description}</p>
            {r.value ? <p className="mt-1 font-semibold break-words">{r.value}</p> : null}
          </div>
        </div>
      );
    case "select":
      return (
        <Select
          label={r.label}
          description={r.description}
          required={r.required}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          error={error}
          disabled={disabled}
        >
          <option value="">Choose…</option>
          {(r.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {optionWords(o.value)} — {o.description}
            </option>
          ))}
        </Select>
      );
    case "checkbox":
      return r.options ? (
        <MultiChoice
          r={r}
          value={Array.isArray(value) ? value : []}
          onChange={(v) => onChange(v)}
          error={error}
          disabled={disabled}
        />
      ) : (
        <Checkbox
          label={
            <>
              {r.label}
              {r.required ? (
                <span className="ml-0.5 text-red-700" aria-hidden>
                  *
                </span>
              ) : null}
            </>
          }
          description={r.description}
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
          onBlur={onBlur}
          error={error}
          disabled={disabled}
        />
      );
    default:
      return (
        <Input
          label={r.label}
          description={r.description}
          required={r.required}
          type={r.type === "email" ? "email" : r.type === "url" ? "url" : "text"}
          placeholder={r.example}
          maxLength={r.maxLength}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          error={error}
          disabled={disabled}
          autoComplete={r.type === "email" ? "email" : r.type === "url" ? "url" : "off"}
        />
      );
  }
}
