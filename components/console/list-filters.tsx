"use client";
/**
 * The console's filtered, paginated lists (verifications, API requests, audit log) share this:
 * filters kept in the URL query (reload and a shared link keep them) with the page offset beside
 * them; changing a filter goes back to the first page. Free-text filters are typed into local
 * state and written to the URL after a short pause, so typing does not flood the API. The API's
 * verdict on a filter lands under that filter; the results frame shows loading, an error with
 * "Try again", the first-use empty state, the table and its pages.
 */
import type { UseQueryResult } from "@tanstack/react-query";
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
import { FormError, Input } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { PagedTable, Td } from "@/components/ui/table";
import { ApiRequestError, errorMessage } from "./api";
import { QueryError } from "./query-error";

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

  // The query last asked for while the router has not shown it yet: a second change made before
  // the first one lands (a filter typed right after "Clear filters") builds on it, not on the
  // address bar's older query, which would bring the cleared filters back.
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (pending.current === serialized) pending.current = null;
  }, [serialized]);
  useEffect(() => {
    // back and forward move away from whatever was pending
    const forget = () => {
      pending.current = null;
    };
    window.addEventListener("popstate", forget);
    return () => window.removeEventListener("popstate", forget);
  }, []);

  const write = useCallback(
    (patch: Record<string, string>) => {
      const next = new URLSearchParams(pending.current ?? window.location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      // a new filter starts at the first page
      if (!("offset" in patch)) next.delete("offset");
      const qs = next.toString();
      // nothing to wait for when the address bar already shows it
      pending.current = qs === window.location.search.slice(1) ? null : qs;
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

/** The API's answer to a filtered list: errors of single filters, and one message for the list. */
export function useListErrors(error: unknown, filterNames: readonly string[]) {
  const apiError = error instanceof ApiRequestError ? error : undefined;
  const fieldError = (name: string) => apiError?.fieldError(name);
  const formLevelError = !error
    ? undefined
    : filterNames.some((f) => fieldError(f))
      ? "Check the filters above."
      : errorMessage(error);
  return { fieldError, formLevelError };
}

/** From/To date inputs (UTC days); each bounds the other. */
export function DateRangeFilter({
  from,
  to,
  onChange,
  fieldError,
  subject,
}: {
  from: string;
  to: string;
  onChange: (key: "from" | "to", value: string) => void;
  fieldError: (name: string) => string | undefined;
  /** what the dates are of, e.g. "Created": "Created on or after (UTC)" */
  subject?: string;
}) {
  const lead = subject ? `${subject} on` : "On";
  return (
    <>
      <Input
        label="From"
        type="date"
        value={from}
        max={to || undefined}
        onChange={(e) => onChange("from", e.target.value)}
        error={fieldError("from")}
        description={`${lead} or after (UTC)`}
      />
      <Input
        label="To"
        type="date"
        value={to}
        min={from || undefined}
        onChange={(e) => onChange("to", e.target.value)}
        error={fieldError("to")}
        description={`${lead} or before (UTC)`}
      />
    </>
  );
}

interface TPage<T> {
  data: T[];
  total: number;
}

/**
 * The results of a filtered list: loading, an error with "Try again" (the last page stays shown
 * when a refresh fails), `empty` when nothing exists yet (no filter, first page), else the table
 * with a "no match" row and the page links.
 */
export function ListResults<T>({
  query,
  loadingLabel,
  errorMessage: message,
  unfiltered,
  empty,
  caption,
  head,
  columns,
  row,
  noMatch,
  limit,
  offset,
  onPage,
  pagesLabel,
}: {
  query: UseQueryResult<TPage<T>>;
  loadingLabel: string;
  errorMessage: string | undefined;
  /** no filter set and on the first page: an empty answer means nothing exists yet */
  unfiltered: boolean;
  empty: ReactNode;
  caption: string;
  head: ReactNode;
  columns: number;
  row: (item: T) => ReactNode;
  noMatch: string;
  limit: number;
  offset: number;
  onPage: (offset: number) => void;
  pagesLabel: string;
}) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError && !query.data) {
    return <QueryError error={query.error} message={message} onRetry={() => query.refetch()} />;
  }
  const page = query.data!;
  if (page.total === 0 && unfiltered) return <>{empty}</>;
  return (
    <>
      {query.isError ? <FormError message={message} /> : null}
      <PagedTable
        caption={caption}
        head={head}
        page={page}
        row={row}
        lastRow={
          page.data.length === 0 ? (
            <tr>
              <Td className="px-3" colSpan={columns}>
                {noMatch}
              </Td>
            </tr>
          ) : null
        }
        limit={limit}
        offset={offset}
        onPage={onPage}
        pagesLabel={pagesLabel}
      />
    </>
  );
}
