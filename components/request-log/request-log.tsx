"use client";
/**
 * API requests: the workspace's REST requests in this environment (API keys, App credentials,
 * the console), newest first, filtered by status class, method, path, app, credential and
 * verification (kept in the URL; the verification page links here with its id), refreshed every
 * few seconds while the tab is visible.
 */
import { Activity } from "lucide-react";
import Link from "next/link";
import { useConsole } from "@/components/console/context";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import { FilterBar, ListResults } from "@/components/console/list-filters";
import { logColumns, RequestId, TimeCell } from "@/components/logs/cells";
import { CodeFilter, SelectFilter } from "@/components/logs/filters";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Td } from "@/components/ui/table";
import { AppFilter } from "@/components/verifications/app-filter";
import { credentialLabel, httpTone } from "@/components/verifications/format";
import { LIVE_INTERVAL_MS, useAppOptions } from "@/components/verifications/queries";
import { requestLogKeys, type TRequestLogPage } from "./queries";

const LIMIT = 25;
const FILTERS = ["statusClass", "method", "path", "appId", "credentialId", "verificationId"] as const;
const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"].map((c) => ({ value: c, label: c }));
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => ({ value: m, label: m }));

export function RequestLog() {
  const { env } = useConsole();
  const apps = useAppOptions();
  const appName = (id: string | null) =>
    id ? (apps.data?.data.find((a) => a.clientId === id)?.name ?? id) : null;
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: (page, values) => requestLogKeys.list(env, { ...values, ...page }),
    queryFn: pageFetcher<TRequestLogPage>(env, "/v1/request-logs"),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const { values, setFilter, fieldError } = list;

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">API requests</h1>
        <p className="text-sm text-gray-700">
          Every REST request of this environment, newest first, without bodies or personal data. The list
          refreshes by itself.
        </p>
      </div>

      <FilterBar label="Filter API requests" {...list.filterBar}>
        <SelectFilter
          label="Status"
          value={values.statusClass}
          onChange={(v) => setFilter("statusClass", v)}
          error={fieldError("statusClass")}
          allLabel="Any status"
          options={STATUS_CLASSES}
        />
        <SelectFilter
          label="Method"
          value={values.method}
          onChange={(v) => setFilter("method", v)}
          error={fieldError("method")}
          allLabel="Any method"
          options={METHODS}
        />
        <CodeFilter
          label="Path contains"
          placeholder="/v1/verifications"
          value={values.path}
          onCommit={(v) => setFilter("path", v)}
          error={fieldError("path")}
        />
        <AppFilter value={values.appId} onChange={(v) => setFilter("appId", v)} error={fieldError("appId")} />
        <CodeFilter
          label="Credential"
          placeholder="key_…, app_…, usr_…"
          description="API key, app or user ID"
          value={values.credentialId}
          onCommit={(v) => setFilter("credentialId", v)}
          error={fieldError("credentialId")}
        />
        {values.verificationId ? (
          <CodeFilter
            label="Verification"
            value={values.verificationId}
            onCommit={(v) => setFilter("verificationId", v)}
            error={fieldError("verificationId")}
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
        {...list.results}
        loadingLabel="Loading API requests"
        empty={
          <EmptyState icon={<Activity className="h-8 w-8" />} title="No API requests yet">
            Requests your servers send with an API key or an app&apos;s credentials, and those of this
            console, appear here within a few seconds.
          </EmptyState>
        }
        caption="API requests"
        {...logColumns([
          "Time",
          "Method",
          "Path",
          "Status",
          "Duration",
          "Credential",
          "Request ID",
          "Error code",
        ])}
        row={(r) => (
          <tr key={r.requestId} data-testid="request-row">
            <TimeCell at={r.createdAt} />
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
              <RequestId id={r.requestId} />
            </Td>
            <Td className="px-3">
              {r.errorCode ? <code className="font-mono text-xs text-red-800">{r.errorCode}</code> : "—"}
            </Td>
          </tr>
        )}
        noMatch="No request matches these filters."
        pagesLabel="API request pages"
      />
    </div>
  );
}
