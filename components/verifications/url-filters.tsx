"use client";
/**
 * List filters kept in the URL query (reload and a shared link keep them), with the page offset
 * beside them. Changing a filter goes back to the first page. Free-text filters are typed into
 * local state and written to the URL after a short pause, so typing does not flood the API.
 */
import { X } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";

export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const serialized = searchParams.toString();
  // stable while the query string is unchanged (the values feed query keys and effects)
  const values = useMemo(() => {
    const params = new URLSearchParams(serialized);
    return Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ""])) as Record<K, string>;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys is a constant list
  }, [serialized]);
  const rawOffset = Number(new URLSearchParams(serialized).get("offset"));
  const offset = Number.isInteger(rawOffset) && rawOffset > 0 ? rawOffset : 0;

  const write = useCallback(
    (patch: Record<string, string>) => {
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      // a new filter starts at the first page
      if (!("offset" in patch)) next.delete("offset");
      const qs = next.toString();
      router.replace(`${pathname}${qs ? `?${qs}` : ""}`, { scroll: false });
    },
    [router, pathname],
  );
  const setFilter = useCallback((key: K, value: string) => write({ [key]: value }), [write]);
  const setOffset = useCallback((next: number) => write({ offset: next > 0 ? String(next) : "" }), [write]);
  const clear = useCallback(
    () => write(Object.fromEntries(keys.map((k) => [k, ""]))),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys is a constant list
    [write],
  );
  const active = keys.some((k) => values[k] !== "");
  return { values, offset, setFilter, setOffset, clear, active };
}

/**
 * A text filter: shows what is typed at once, commits it `delay` ms after the last keystroke
 * (or on Enter), and follows the URL when it changes from elsewhere (Clear filters, back button).
 */
export function TextFilter({
  value,
  onCommit,
  delay = 400,
  ...rest
}: { value: string; onCommit: (value: string) => void; delay?: number } & Omit<
  ComponentProps<typeof Input>,
  "value" | "onChange"
>) {
  const [draft, setDraft] = useState(value);
  // follow the URL when it changes from elsewhere (Clear filters, back button), keeping what is
  // being typed when the change is this field's own commit
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (draft.trim() !== value) setDraft(value);
  }
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  }, [onCommit]);
  useEffect(() => {
    const trimmed = draft.trim();
    if (trimmed === value) return;
    const t = setTimeout(() => commit.current(trimmed), delay);
    return () => clearTimeout(t);
  }, [draft, value, delay]);
  return (
    <Input
      {...rest}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          const trimmed = draft.trim();
          if (trimmed !== value) commit.current(trimmed);
        }
      }}
    />
  );
}

/** The filter controls' frame: a labelled group with "Clear filters" when any is set. */
export function FilterBar({
  label,
  active,
  onClear,
  children,
}: {
  label: string;
  active: boolean;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <div role="search" aria-label={label} className="rounded-lg border border-gray-200 bg-white p-4">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">{children}</div>
      {active ? (
        <div className="mt-3 flex justify-end">
          <Button variant="ghost" size="sm" icon={<X aria-hidden className="h-4 w-4" />} onClick={onClear}>
            Clear filters
          </Button>
        </div>
      ) : null}
    </div>
  );
}
