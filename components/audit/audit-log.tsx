"use client";
/**
 * The Audit log: who did what in the workspace (this environment and workspace-wide entries),
 * newest first, filtered by actor, action (a prefix with *), target and date, kept in the URL.
 */
import { FileClock } from "lucide-react";
import { useConsole } from "@/components/console/context";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import { DateRangeFilter, FilterBar, ListResults } from "@/components/console/list-filters";
import { CodeFilter } from "@/components/logs/filters";
import { FilterByButton } from "@/components/logs/filter-by-button";
import { logColumns, RequestId, TimeCell } from "@/components/logs/cells";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Td } from "@/components/ui/table";
import { ActionFilter, AuditTarget } from "./entry-parts";
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

/** The console page of an entry's target, where it has one in this environment. */
function targetHref(env: string, event: TAuditEvent): string | undefined {
  const id = event.targetId;
  if (!id || (event.environment ?? env) !== env) return undefined;
  if (event.targetType === "verification") return `/console/${env}/verifications/${id}`;
  if (event.targetType === "app") return `/console/${env}/apps/${id}`;
  return undefined;
}

export function AuditLog() {
  const { env } = useConsole();
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: (page, values) => auditKeys.list(env, { ...values, ...page }),
    queryFn: pageFetcher<TAuditEventPage>(env, "/v1/audit-events"),
  });
  const { values, setFilter, fieldError } = list;

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Audit log</h1>
        <p className="text-sm text-gray-700">
          Who changed what in this workspace: entries of this environment and workspace-wide ones, newest
          first.
        </p>
      </div>

      <FilterBar label="Filter audit events" {...list.filterBar}>
        <CodeFilter
          label="Actor"
          placeholder="usr_…, key_…"
          description="A user's or API key's ID"
          value={values.actorId}
          onCommit={(v) => setFilter("actorId", v)}
          error={fieldError("actorId")}
        />
        <ActionFilter
          placeholder="app.created or app.*"
          value={values.action}
          onCommit={(v) => setFilter("action", v)}
          error={fieldError("action")}
        />
        <CodeFilter
          label="Target ID"
          placeholder="app_…, ver_…"
          value={values.targetId}
          onCommit={(v) => setFilter("targetId", v)}
          error={fieldError("targetId")}
        />
        <DateRangeFilter from={values.from} to={values.to} onChange={setFilter} fieldError={fieldError} />
      </FilterBar>

      <ListResults
        {...list.results}
        loadingLabel="Loading the audit log"
        empty={
          <EmptyState icon={<FileClock className="h-8 w-8" />} title="No audit events yet">
            Creating apps and keys, changing settings, revealing personal data and cancelling verifications
            are recorded here.
          </EmptyState>
        }
        caption="Audit events"
        {...logColumns(["Time", "Actor", "Action", "Target", "Environment", "Request ID"])}
        row={(e) => (
          <tr key={e.auditId} data-testid="audit-row">
            <TimeCell at={e.createdAt} />
            <Td className="px-3 min-w-44">
              <div className="font-medium break-words">
                {e.actor.display ?? ACTOR_TYPES[e.actor.type] ?? e.actor.type}
              </div>
              <div className="flex flex-wrap items-center gap-1 text-xs text-gray-600">
                <span>{ACTOR_TYPES[e.actor.type] ?? e.actor.type}</span>
                {e.actor.id ? (
                  <FilterByButton
                    onClick={() => setFilter("actorId", e.actor.id!)}
                    hint="show only this actor's entries"
                  >
                    {e.actor.id}
                  </FilterByButton>
                ) : null}
              </div>
            </Td>
            <Td className="px-3 min-w-44">
              <code className="font-mono text-xs wrap-anywhere">{e.action}</code>
            </Td>
            <Td className="px-3 min-w-40">
              <AuditTarget
                type={e.targetType}
                id={e.targetId}
                href={targetHref(env, e)}
                typeClassName="text-gray-600"
              />
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
              <RequestId id={e.requestId} />
            </Td>
          </tr>
        )}
        noMatch="No audit event matches these filters."
        pagesLabel="Audit log pages"
      />
    </div>
  );
}
