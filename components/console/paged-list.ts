"use client";
/**
 * One page of an offset-paginated API list, for every list of the console and the back office.
 * A list with filters keeps them and its page in the URL (useUrlFilters: a reload or a shared
 * link shows the same page; a new filter goes back to the first page) and gets the API's verdict
 * on each filter (useListErrors); a list without keeps its page in the component, so two lists
 * can share a page (the team's members and invitations). The caller names the query key and the
 * fetch (`pageFetcher` for the usual GET); the hook returns the page's query and what PagedTable
 * (`paging`), FilterBar (`filterBar`) and ListResults (`results`) take.
 */
import { keepPreviousData, useQuery, type QueryFunctionContext, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import type { TPage } from "@/lib/http/pagination";
import { api, type ApiRequestOptions, type TEnv } from "./api";
import { useListErrors, useUrlFilters } from "./list-filters";

type TFilterValues<K extends string> = Record<K, string>;

/** The page shown: its first row and size. */
export interface TPageAt {
  offset: number;
  limit: number;
}

const NO_FILTERS: readonly never[] = [];

/** The filters that are set, as API query parameters (an empty filter is left out). */
export function filterParams<K extends string>(values: TFilterValues<K>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries<string>(values).map(([key, value]) => [key, value || undefined]));
}

/** The query of the usual fetch: the page, the filters that are set, then `params`. */
export function pageQuery<K extends string>(
  page: TPageAt,
  values: TFilterValues<K>,
  params?: ApiRequestOptions["query"],
): NonNullable<ApiRequestOptions["query"]> {
  return { limit: page.limit, offset: page.offset, ...filterParams(values), ...params };
}

/**
 * The usual fetch of a list: GET `path` with the page, the filters that are set and `params` as
 * query parameters, cancelled when a newer page or filter supersedes it.
 */
export function pageFetcher<TResult>(env: TEnv, path: string, params?: ApiRequestOptions["query"]) {
  return <K extends string>(page: TPageAt, values: TFilterValues<K>, { signal }: QueryFunctionContext) =>
    api<TResult>(env, path, { query: pageQuery(page, values, params), signal });
}

export function usePagedList<T, K extends string = never>({
  filters,
  limit,
  queryKey,
  queryFn,
  keepPreviousPage = true,
  refetchInterval,
}: {
  /** the filters' names, their URL query parameters; none: the page is the component's state */
  filters?: readonly K[];
  limit: number;
  queryKey: (page: TPageAt, values: TFilterValues<K>) => QueryKey;
  /** the page's fetch; read `context.signal` to let a superseded request be cancelled */
  queryFn: (page: TPageAt, values: TFilterValues<K>, context: QueryFunctionContext) => Promise<TPage<T>>;
  /** keep the last page shown while the next one loads */
  keepPreviousPage?: boolean;
  /** refresh the page every so many ms (a live log) */
  refetchInterval?: number;
}) {
  const url = useUrlFilters(filters ?? NO_FILTERS);
  const [localOffset, setLocalOffset] = useState(0);
  const position = filters
    ? url
    : {
        ...url,
        offset: localOffset,
        setOffset: setLocalOffset,
        clear: () => setLocalOffset(0),
        active: false,
      };
  const { values, offset, active, setOffset } = position;
  const page = { offset, limit };
  const query = useQuery({
    queryKey: queryKey(page, values),
    queryFn: (context) => queryFn(page, values, context),
    placeholderData: keepPreviousPage ? keepPreviousData : undefined,
    refetchInterval,
  });
  const { fieldError, formLevelError } = useListErrors(query.error, filters ?? NO_FILTERS);
  const paging = { limit, offset, onPage: setOffset };
  return {
    ...position,
    query,
    fieldError,
    /** PagedTable's paging props */
    paging,
    /** FilterBar's `active` and `onClear` */
    filterBar: { active, onClear: position.clear },
    /** ListResults' query, error, first-use and paging props */
    results: { query, errorMessage: formLevelError, unfiltered: !active && offset === 0, ...paging },
  };
}
