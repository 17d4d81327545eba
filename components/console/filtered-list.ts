"use client";
/**
 * A filtered, paginated API list (the console's logs and the back office's lists): its filters
 * and page kept in the URL (useUrlFilters), the page's query, the API's verdict on each filter
 * (useListErrors), and what FilterBar and ListResults take from them. The caller names the
 * query key and the fetch; everything else is the same for every list.
 */
import { keepPreviousData, useQuery, type QueryFunctionContext, type QueryKey } from "@tanstack/react-query";
import type { TPage } from "@/lib/http/pagination";
import { api, type TEnv } from "./api";
import { useListErrors, useUrlFilters } from "./list-filters";

type TFilterValues<K extends string> = Record<K, string>;

/** The filters that are set, as API query parameters (an empty filter is left out). */
export function filterParams<K extends string>(values: TFilterValues<K>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries<string>(values).map(([key, value]) => [key, value || undefined]));
}

/**
 * The usual fetch of a filtered list: GET `path` with the page and the filters that are set as
 * query parameters, cancelled when a newer page or filter supersedes it.
 */
export function pageFetcher<TResult>(env: TEnv, path: string, limit: number) {
  return <K extends string>(values: TFilterValues<K>, offset: number, { signal }: QueryFunctionContext) =>
    api<TResult>(env, path, { query: { limit, offset, ...filterParams(values) }, signal });
}

export function useFilteredList<K extends string, T>({
  filters,
  limit,
  queryKey,
  queryFn,
  keepPreviousPage = false,
  refetchInterval,
}: {
  /** the filters' names: their URL query parameters */
  filters: readonly K[];
  limit: number;
  queryKey: (values: TFilterValues<K>, offset: number) => QueryKey;
  /** the page's fetch; read `context.signal` to let a superseded request be cancelled */
  queryFn: (values: TFilterValues<K>, offset: number, context: QueryFunctionContext) => Promise<TPage<T>>;
  /** keep the last page shown while the next one loads */
  keepPreviousPage?: boolean;
  /** refresh the page every so many ms (a live log) */
  refetchInterval?: number;
}) {
  const url = useUrlFilters(filters);
  const { values, offset, active } = url;
  const query = useQuery({
    queryKey: queryKey(values, offset),
    queryFn: (context) => queryFn(values, offset, context),
    placeholderData: keepPreviousPage ? keepPreviousData : undefined,
    refetchInterval,
  });
  const { fieldError, formLevelError } = useListErrors(query.error, filters);
  return {
    ...url,
    query,
    fieldError,
    /** FilterBar's `active` and `onClear` */
    filterBar: { active, onClear: url.clear },
    /** ListResults' query, error, first-use and paging props */
    results: {
      query,
      errorMessage: formLevelError,
      unfiltered: !active && offset === 0,
      limit,
      offset,
      onPage: url.setOffset,
    },
  };
}
