"use client";
/**
 * API requests: the workspace's REST requests in this environment (API keys, App credentials,
 * the console), newest first, filtered by status class, method, path, app, credential and
 * verification (kept in the URL; the verification page links here with its id), refreshed every
 * few seconds while the tab is visible.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Activity } from "lucide-react";
import Link from "next/link";
import { api } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/field";
import { Td, Th } from "@/components/ui/table";
import {
  credentialLabel,
  formatDateTime,
  formatShortDateTime,
  httpTone,
} from "@/components/verifications/format";
import { LIVE_INTERVAL_MS, useAppOptions } from "@/components/verifications/queries";
import {
  FilterBar,
  ListResults,
  TextFilter,
  useListErrors,
  useUrlFilters,
} from "@/components/console/list-filters";
import { requestLogKeys, type TRequestLogPage } from "./queries";

const LIMIT = 25;
const FILTERS = ["statusClass", "method", "path", "appId", "credentialId", "verificationId"] as const;
const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export function RequestLog() {
  const { env } = useConsole();
  const filters = useUrlFilters(FILTERS);
  const { values, offset } = filters;
  const apps = useAppOptions();
  const appName = (id: string | null) =>
    id ? (apps.data?.data.find((a) => a.clientId === id)?.name ?? id) : null;
  const query = useQuery({
    queryKey: requestLogKeys.list(env, { ...values, offset, limit: LIMIT }),
    queryFn: ({ signal }) =>
      api<TRequestLogPage>(env, "/v1/request-logs", {
        query: {
          limit: LIMIT,
          offset,
          ...Object.fromEntries(FILTERS.map((f) => [f, values[f] || undefined])),
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const { fieldError, formLevelError } = useListErrors(query.error, FILTERS);

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">API requests</h1>
        <p className="text-sm text-gray-700">
          Every REST request of this environment, newest first, without bodies or personal data. The list
          refreshes by itself.
        </p>
      </div>

      <FilterBar label="Filter API requests" active={filters.active} onClear={filters.clear}>
        <Select
          label="Status"
          value={values.statusClass}
          onChange={(e) => filters.setFilter("statusClass", e.target.value)}
          error={fieldError("statusClass")}
        >
          <option value="">Any status</option>
          {STATUS_CLASSES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
        <Select
          label="Method"
          value={values.method}
          onChange={(e) => filters.setFilter("method", e.target.value)}
          error={fieldError("method")}
        >
          <option value="">Any method</option>
          {METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </Select>
        <TextFilter
          label="Path contains"
          placeholder="/v1/verifications"
          value={values.path}
          onCommit={(v) => filters.setFilter("path", v)}
          error={fieldError("path")}
          spellCheck={false}
          autoComplete="off"
        />
        <Select
          label="App"
          value={values.appId}
          onChange={(e) => filters.setFilter("appId", e.target.value)}
          error={fieldError("appId")}
          description={apps.isError ? "The app list could not be loaded." : undefined}
        >
          <option value="">All apps</option>
          {(apps.data?.data ?? []).map((a) => (
            <option key={a.clientId} value={a.clientId}>
              {a.name}
            </option>
          ))}
          {values.appId && !apps.data?.data.some((a) => a.clientId === values.appId) ? (
            <option value={values.appId}>{values.appId}</option>
          ) : null}
        </Select>
        <TextFilter
          label="Credential"
          placeholder="key_…, app_…, usr_…"
          description="API key, app or user ID"
          value={values.credentialId}
          onCommit={(v) => filters.setFilter("credentialId", v)}
          error={fieldError("credentialId")}
          spellCheck={false}
          autoComplete="off"
        />
        {values.verificationId ? (
          <TextFilter
            label="Verification"
            value={values.verificationId}
            onCommit={(v) => filters.setFilter("verificationId", v)}
            error={fieldError("verificationId")}
            spellCheck={false}
            autoComplete="off"
          />
        ) : null}
      </FilterBar>
      {values.verificationId ? (
        <p className="text-sm text-gray-700">
          Requests of verification{" "}
          <Link
            href={`/console/${env}/verifications/${encodeURIComponent(values.verificationId)}`}
            className="font-mono font-semibold break-all text-blue-800 underline"
          >
            {values.verificationId}
          </Link>
          .
        </p>
      ) : null}

      <ListResults
        query={query}
        loadingLabel="Loading API requests"
        errorMessage={formLevelError}
        unfiltered={!filters.active && offset === 0}
        empty={
          <EmptyState icon={<Activity className="h-8 w-8" />} title="No API requests yet">
            Requests your servers send with an API key or an app&apos;s credentials, and those of this
            console, appear here within a few seconds.
          </EmptyState>
        }
        caption="API requests"
        head={
          <>
            <Th className="px-3">Time</Th>
            <Th className="px-3">Method</Th>
            <Th className="px-3">Path</Th>
            <Th className="px-3">Status</Th>
            <Th className="px-3">Duration</Th>
            <Th className="px-3">Credential</Th>
            <Th className="px-3">Request ID</Th>
            <Th className="px-3">Error code</Th>
          </>
        }
        columns={8}
        row={(r) => (
          <tr key={r.requestId} data-testid="request-row">
            <Td className="px-3 whitespace-nowrap">
              <time dateTime={r.createdAt} title={formatDateTime(r.createdAt)}>
                {formatShortDateTime(r.createdAt)}
              </time>
            </Td>
            <Td className="px-3">
              <code className="font-mono text-xs font-semibold">{r.method}</code>
            </Td>
            <Td className="px-3 min-w-52">
              <code className="font-mono text-xs break-all">{r.path}</code>
              {r.appId ? <div className="text-xs text-gray-600">App: {appName(r.appId)}</div> : null}
              {r.verificationId && r.verificationId !== values.verificationId ? (
                <div className="text-xs">
                  <Link
                    href={`/console/${env}/verifications/${encodeURIComponent(r.verificationId)}`}
                    className="font-mono break-all text-blue-800 underline"
                  >
                    {r.verificationId}
                  </Link>
                </div>
              ) : null}
            </Td>
            <Td className="px-3">
              <Badge tone={httpTone(r.status)}>{r.status}</Badge>
            </Td>
            <Td className="px-3 text-right whitespace-nowrap tabular-nums">{r.durationMs} ms</Td>
            <Td className="px-3">
              <div className="min-w-36 break-words">
                {credentialLabel(r.credentialType, r.credentialName)}
              </div>
              {r.credentialId ? (
                <code className="font-mono text-xs break-all text-gray-600">{r.credentialId}</code>
              ) : null}
            </Td>
            <Td className="px-3 min-w-32">
              <code className="font-mono text-xs break-all">{r.requestId}</code>
            </Td>
            <Td className="px-3">
              {r.errorCode ? <code className="font-mono text-xs text-red-800">{r.errorCode}</code> : "—"}
            </Td>
          </tr>
        )}
        noMatch="No request matches these filters."
        limit={LIMIT}
        offset={offset}
        onPage={filters.setOffset}
        pagesLabel="API request pages"
      />
    </div>
  );
}
