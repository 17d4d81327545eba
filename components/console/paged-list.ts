"use client";
/**
 * One page of an offset-paginated console list: the page's query (the last page stays shown
 * while the next one loads), and `paging`, what PagedTable takes to page through it.
 */
import { keepPreviousData, useQuery, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import type { TPage } from "@/lib/http/pagination";
import { api, type ApiRequestOptions } from "./api";
import { useConsole } from "./context";

export function usePagedList<T>({
  path,
  limit,
  queryKey,
  params,
}: {
  path: string;
  limit: number;
  /** the page's query key, from the list's key factory */
  queryKey: (page: { offset: number; limit: number }) => QueryKey;
  /** more query parameters (filters) */
  params?: ApiRequestOptions["query"];
}) {
  const { env } = useConsole();
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: queryKey({ offset, limit }),
    queryFn: ({ signal }) => api<TPage<T>>(env, path, { query: { limit, offset, ...params }, signal }),
    placeholderData: keepPreviousData,
  });
  return { query, setOffset, paging: { limit, offset, onPage: setOffset } };
}
