"use client";
/** The Provider filter of the lists that span providers (verifications, activation tickets). */
import { SelectFilter } from "@/components/logs/filters";

export function ProviderFilter({
  providers,
  value,
  onChange,
  error,
}: {
  providers: readonly { id: string; name: string }[];
  value: string;
  onChange: (providerId: string) => void;
  error: string | undefined;
}) {
  return (
    <SelectFilter
      label="Provider"
      value={value}
      onChange={onChange}
      error={error}
      allLabel="All providers"
      options={providers.map((p) => ({ value: p.id, label: p.name }))}
    />
  );
}
