"use client";
/**
 * The inspector's frames and choice lists: a labelled group of fields (a fieldset with its
 * description and error), and checkbox lists for a string[] field or a condition's values.
 */
import { useId } from "react";
import { Checkbox } from "@/components/ui/field";
import { fieldLabel, type TFieldProps } from "./fields";

export function Group({
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

export function MultiCheck({
  field,
  path,
  value,
  errorAt,
  onChange,
  options,
}: TFieldProps & { options: string[] }) {
  const chosen = Array.isArray(value) ? (value as string[]) : [];
  return (
    <Group legend={fieldLabel(field.name)} description={field.description} error={errorAt(path)}>
      <div className="grid max-h-56 grid-cols-1 gap-1 overflow-y-auto pr-1 sm:grid-cols-2">
        <OptionCheckboxes options={options} chosen={chosen} onChange={onChange} />
      </div>
    </Group>
  );
}

export function ChoiceList({
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
