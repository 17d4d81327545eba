"use client";
/**
 * The App filter of the console's logs (verifications, API requests): the environment's apps by
 * name, and an app ID the list does not hold (a shared link, a deleted app) kept as it is.
 */
import { SelectFilter } from "@/components/logs/filters";
import { useAppOptions } from "./queries";

export function AppFilter({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (clientId: string) => void;
  error: string | undefined;
}) {
  const apps = useAppOptions();
  return (
    <SelectFilter
      label="App"
      value={value}
      onChange={onChange}
      error={error}
      description={apps.isError ? "The app list could not be loaded." : undefined}
      allLabel="All apps"
      options={(apps.data?.data ?? []).map((a) => ({ value: a.clientId, label: a.name }))}
      keepUnknown
    />
  );
}
