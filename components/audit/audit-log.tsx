"use client";
/**
 * The Audit log: who did what in the workspace (this environment and workspace-wide entries),
 * newest first, filtered by actor, action (a prefix with *), target and date, kept in the URL.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FileClock } from "lucide-react";
import Link from "next/link";
import { api } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Td, Th } from "@/components/ui/table";
import { formatDateTime, formatShortDateTime, humanize } from "@/components/verifications/format";
import {
  DateRangeFilter,
  FilterBar,
  ListResults,
  TextFilter,
  useListErrors,
  useUrlFilters,
} from "@/components/console/list-filters";
import { auditKeys, type TAuditEvent, type TAuditEventPage } from "./queries";

const LIMIT = 25;
const FILTERS = ["actorId", "action", "targetId", "from", "to"] as const;

const ACTOR_TYPES: Record<string, string> = {
  user: "User",
  api_key: "API key",
  operator: "Operator",
  system: "System",
  cli: "CLI",
};

function Target({ event }: { event: TAuditEvent }) {
  const { env } = useConsole();
  if (!event.targetType && !event.targetId) return <>—</>;
  const id = event.targetId ?? "";
  // link what the console has a page for, in the environment of the entry
  const targetEnv = event.environment ?? env;
  const href =
    event.targetType === "verification" && id
      ? `/console/${targetEnv}/verifications/${id}`
      : event.targetType === "app" && id
        ? `/console/${targetEnv}/apps/${id}`
        : undefined;
  return (
    <div className="space-y-0.5">
      {event.targetType ? <div className="text-xs text-gray-600">{humanize(event.targetType)}</div> : null}
      {id ? (
        href && targetEnv === env ? (
          <Link href={href} className="font-mono text-xs break-all text-blue-800 underline">
            {id}
          </Link>
        ) : (
          <code className="font-mono text-xs break-all">{id}</code>
        )
      ) : null}
    </div>
  );
}

export function AuditLog() {
  const { env } = useConsole();
  const filters = useUrlFilters(FILTERS);
  const { values, offset } = filters;
  const query = useQuery({
    queryKey: auditKeys.list(env, { ...values, offset, limit: LIMIT }),
    queryFn: ({ signal }) =>
      api<TAuditEventPage>(env, "/v1/audit-events", {
        query: {
          limit: LIMIT,
          offset,
          actorId: values.actorId || undefined,
          action: values.action || undefined,
          targetId: values.targetId || undefined,
          from: values.from || undefined,
          to: values.to || undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const { fieldError, formLevelError } = useListErrors(query.error, FILTERS);

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Audit log</h1>
        <p className="text-sm text-gray-700">
          Who changed what in this workspace: entries of this environment and workspace-wide ones, newest
          first.
        </p>
      </div>

      <FilterBar label="Filter audit events" active={filters.active} onClear={filters.clear}>
        <TextFilter
          label="Actor"
          placeholder="usr_…, key_…"
          description="A user's or API key's ID"
          value={values.actorId}
          onCommit={(v) => filters.setFilter("actorId", v)}
          error={fieldError("actorId")}
          spellCheck={false}
          autoComplete="off"
        />
        <TextFilter
          label="Action"
          placeholder="app.created or app.*"
          description="Exact, or a prefix ending in *"
          value={values.action}
          onCommit={(v) => filters.setFilter("action", v)}
          error={fieldError("action")}
          spellCheck={false}
          autoComplete="off"
        />
        <TextFilter
          label="Target ID"
          placeholder="app_…, ver_…"
          value={values.targetId}
          onCommit={(v) => filters.setFilter("targetId", v)}
          error={fieldError("targetId")}
          spellCheck={false}
          autoComplete="off"
        />
        <DateRangeFilter
          from={values.from}
          to={values.to}
          onChange={filters.setFilter}
          fieldError={fieldError}
        />
      </FilterBar>

      <ListResults
        query={query}
        loadingLabel="Loading the audit log"
        errorMessage={formLevelError}
        unfiltered={!filters.active && offset === 0}
        empty={
          <EmptyState icon={<FileClock className="h-8 w-8" />} title="No audit events yet">
            Creating apps and keys, changing settings, revealing personal data and cancelling verifications
            are recorded here.
          </EmptyState>
        }
        caption="Audit events"
        head={
          <>
            <Th className="px-3">Time</Th>
            <Th className="px-3">Actor</Th>
            <Th className="px-3">Action</Th>
            <Th className="px-3">Target</Th>
            <Th className="px-3">Environment</Th>
            <Th className="px-3">Request ID</Th>
          </>
        }
        columns={6}
        row={(e) => (
          <tr key={e.auditId} data-testid="audit-row">
            <Td className="px-3 whitespace-nowrap">
              <time dateTime={e.createdAt} title={formatDateTime(e.createdAt)}>
                {formatShortDateTime(e.createdAt)}
              </time>
            </Td>
            <Td className="px-3 min-w-44">
              <div className="font-medium break-words">
                {e.actor.display ?? ACTOR_TYPES[e.actor.type] ?? e.actor.type}
              </div>
              <div className="flex flex-wrap items-center gap-1 text-xs text-gray-600">
                <span>{ACTOR_TYPES[e.actor.type] ?? e.actor.type}</span>
                {e.actor.id ? (
                  <button
                    type="button"
                    className="text-left font-mono break-all text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
                    onClick={() => filters.setFilter("actorId", e.actor.id!)}
                    title="Show only this actor's entries"
                  >
                    {e.actor.id}
                    <span className="sr-only"> (show only this actor&apos;s entries)</span>
                  </button>
                ) : null}
              </div>
            </Td>
            <Td className="px-3 min-w-44">
              <code className="font-mono text-xs wrap-anywhere">{e.action}</code>
            </Td>
            <Td className="px-3 min-w-40">
              <Target event={e} />
            </Td>
            <Td className="px-3">
              {e.environment ? (
                <Badge tone={e.environment === "sandbox" ? "amber" : "gray"}>
                  {e.environment === "sandbox" ? "Sandbox" : "Production"}
                </Badge>
              ) : (
                <span className="text-gray-700">Workspace</span>
              )}
            </Td>
            <Td className="px-3 min-w-36">
              {e.requestId ? <code className="font-mono text-xs break-all">{e.requestId}</code> : "—"}
            </Td>
          </tr>
        )}
        noMatch="No audit event matches these filters."
        limit={LIMIT}
        offset={offset}
        onPage={filters.setOffset}
        pagesLabel="Audit log pages"
      />
    </div>
  );
}
