"use client";
/**
 * The operator audit view: every action an operator took (activation reviews, contracts,
 * production tests), across workspaces, in this environment plus deployment-wide entries, newest
 * first. Filters (operator, action exact or `prefix.*`, date range) and the page are kept in the
 * URL. Targets with a back-office page (activation tickets) and workspaces are links.
 */
import { FileClock } from "lucide-react";
import Link from "next/link";
import { useId } from "react";
import { ActionFilter, AuditTarget } from "@/components/audit/entry-parts";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import { DateRangeFilter, FilterBar, ListResults } from "@/components/console/list-filters";
import { CodeFilter } from "@/components/logs/filters";
import { logColumns, TimeCell } from "@/components/logs/cells";
import { FilterByButton } from "@/components/logs/filter-by-button";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Td } from "@/components/ui/table";
import { useOperator } from "../context";
import { KNOWN_ACTIONS, operatorAuditKeys, targetHref, type TOperatorAuditPage } from "./queries";

const LIMIT = 50;
const FILTERS = ["operatorId", "action", "from", "to"] as const;

function formatData(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function Details({ data }: { data: Record<string, unknown> }) {
  const entries = Object.entries(data);
  if (entries.length === 0) return <>—</>;
  return (
    <dl className="space-y-0.5 text-xs">
      {entries.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="inline font-mono text-gray-700">{k}: </dt>
          <dd className="inline break-words text-gray-900">{formatData(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function OperatorAuditLog() {
  const { env, user } = useOperator();
  const actionsListId = useId();
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: (page, values) => operatorAuditKeys.list(env, { ...values, ...page }),
    queryFn: pageFetcher<TOperatorAuditPage>(env, "/v1/operator/audit-events"),
  });
  const { values, setFilter, fieldError } = list;
  const mine = values.operatorId === user.id;

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Audit log</h1>
        <p className="text-sm text-gray-700">
          Every action an operator took, across workspaces: entries of this environment and deployment-wide
          ones, newest first.
        </p>
      </div>

      <FilterBar label="Filter operator actions" {...list.filterBar}>
        <div className="space-y-1">
          <CodeFilter
            label="Operator"
            placeholder="usr_…"
            description="An operator's user ID"
            value={values.operatorId}
            onCommit={(v) => setFilter("operatorId", v)}
            error={fieldError("operatorId")}
          />
          <button
            type="button"
            className="text-sm text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700 disabled:text-gray-700 disabled:no-underline"
            disabled={mine}
            onClick={() => setFilter("operatorId", user.id)}
          >
            {mine ? "Showing your actions" : "Only my actions"}
          </button>
        </div>
        <ActionFilter
          placeholder="activation.approved or activation.*"
          value={values.action}
          onCommit={(v) => setFilter("action", v)}
          error={fieldError("action")}
          list={actionsListId}
        />
        <datalist id={actionsListId}>
          {KNOWN_ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <DateRangeFilter from={values.from} to={values.to} onChange={setFilter} fieldError={fieldError} />
      </FilterBar>

      <ListResults
        {...list.results}
        loadingLabel="Loading operator actions"
        empty={
          <EmptyState icon={<FileClock className="h-8 w-8" />} title="No operator action yet">
            Reviews of activation tickets, recorded contracts and production-test decisions are listed here.
          </EmptyState>
        }
        caption="Operator actions"
        {...logColumns(["Time", "Operator", "Action", "Target", "Workspace", "Details"])}
        row={(e) => (
          <tr key={e.auditId} data-testid="operator-audit-row">
            <TimeCell at={e.createdAt}>
              {e.environment === null ? (
                <div>
                  <Badge>Deployment-wide</Badge>
                </div>
              ) : null}
            </TimeCell>
            <Td className="min-w-44 px-3">
              <div className="font-medium break-words">{e.actor.display ?? "Unknown operator"}</div>
              {e.actor.id ? (
                <FilterByButton
                  className="text-xs"
                  onClick={() => setFilter("operatorId", e.actor.id!)}
                  hint="show only this operator's actions"
                >
                  {e.actor.id}
                </FilterByButton>
              ) : null}
            </Td>
            <Td className="min-w-44 px-3">
              <FilterByButton
                className="text-xs"
                onClick={() => setFilter("action", e.action)}
                hint="show only this action"
              >
                {e.action}
              </FilterByButton>
            </Td>
            <Td className="min-w-40 px-3">
              <AuditTarget
                type={e.targetType}
                id={e.targetId}
                href={targetHref(env, e)}
                typeClassName="text-gray-700"
              />
            </Td>
            <Td className="min-w-36 px-3">
              {e.workspaceId ? (
                <Link
                  href={`/operator/${env}/workspaces/${e.workspaceId}`}
                  className="font-mono text-xs break-all text-blue-800 underline"
                >
                  {e.workspaceId}
                </Link>
              ) : (
                "—"
              )}
            </Td>
            <Td className="min-w-48 px-3">
              <Details data={e.data} />
              {e.requestId ? (
                <div className="text-xs text-gray-700">
                  Request <code className="font-mono break-all">{e.requestId}</code>
                </div>
              ) : null}
            </Td>
          </tr>
        )}
        noMatch="No operator action matches these filters."
        pagesLabel="Audit log pages"
      />
    </div>
  );
}
