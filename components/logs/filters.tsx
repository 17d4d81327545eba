"use client";
/**
 * Filter controls of the filtered lists (the console's logs, the back office's lists), beside
 * the generic ones of components/console/list-filters.
 */
import type { ComponentProps, ReactNode } from "react";
import { TextFilter } from "@/components/console/list-filters";
import { Select } from "@/components/ui/field";

/** A text filter whose value is not prose (IDs, codes, paths, hosts, names): no spell check, no autofill. */
export function CodeFilter(props: ComponentProps<typeof TextFilter>) {
  return <TextFilter spellCheck={false} autoComplete="off" {...props} />;
}

export interface TFilterOption {
  value: string;
  label: ReactNode;
}

/**
 * A filter picked from known values: "All …" (no filter) first unless the filter has a default,
 * then the options; a value the options do not know (a shared link, an ID the list has not
 * loaded) stays selectable rather than showing as a different choice.
 */
export function SelectFilter({
  label,
  value,
  onChange,
  options,
  allLabel,
  keepUnknown = false,
  error,
  description,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly TFilterOption[];
  /** the no-filter choice, e.g. "All apps"; none when the filter always has a value */
  allLabel?: string;
  /** list the current value as its own option when no option has it */
  keepUnknown?: boolean;
  error?: string;
  description?: ReactNode;
}) {
  return (
    <Select
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      description={description}
    >
      {allLabel !== undefined ? <option value="">{allLabel}</option> : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {keepUnknown && value && !options.some((o) => o.value === value) ? (
        <option value={value}>{value}</option>
      ) : null}
    </Select>
  );
}
