"use client";
/**
 * The operator audit view: every action an operator took (activation reviews, contracts,
 * production tests), across workspaces, in this environment plus deployment-wide entries, newest
 * first. Filters (operator, action exact or `prefix.*`, date range) and the page are kept in the
 * URL. Targets with a back-office page (activation tickets) and workspaces are links.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FileClock } from "lucide-react";
import Link from "next/link";
import { useId } from "react";
import { api } from "@/components/console/api";
import {
  DateRangeFilter,
  FilterBar,
  ListResults,
  TextFilter,
  useListErrors,
  useUrlFilters,
} from "@/components/console/list-filters";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Td, Th } from "@/components/ui/table";
import { formatDateTime, formatShortDateTime, humanize } from "@/components/verifications/format";
import { useOperator } from "../context";
import {
  KNOWN_ACTIONS,
  operatorAuditKeys,
  targetHref,
  type TOperatorAuditEvent,
  type TOperatorAuditPage,
} from "./queries";

const LIMIT = 50;
const FILTERS = ["operatorId", "action", "from", "to"] as const;

const filterButton =
  "text-left font-mono text-xs break-all text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700";

function formatData(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function Target({ event }: { event: TOperatorAuditEvent }) {
  const { env } = useOperator();
  if (!event.targetType && !event.targetId) return <>—</>;
  const href = targetHref(env, event);
  return (
    <div className="space-y-0.5">
      {event.targetType ? <div className="text-xs text-gray-700">{humanize(event.targetType)}</div> : null}
      {event.targetId ? (
        href ? (
          <Link href={href} className="font-mono text-xs break-all text-blue-800 underline">
            {event.targetId}
          </Link>
        ) : (
          <code className="font-mono text-xs break-all">{event.targetId}</code>
        )
      ) : null}
    </div>
  );
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
  const filters = useUrlFilters(FILTERS);
  const { values, offset } = filters;
  const query = useQuery({
    queryKey: operatorAuditKeys.list(env, { ...values, offset, limit: LIMIT }),
    queryFn: ({ signal }) =>
      api<TOperatorAuditPage>(env, "/v1/operator/audit-events", {
        query: {
          limit: LIMIT,
          offset,
          operatorId: values.operatorId || undefined,
          action: values.action || undefined,
          from: values.from || undefined,
          to: values.to || undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const { fieldError, formLevelError } = useListErrors(query.error, FILTERS);
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

      <FilterBar label="Filter operator actions" active={filters.active} onClear={filters.clear}>
        <div className="space-y-1">
          <TextFilter
            label="Operator"
            placeholder="usr_…"
            description="An operator's user ID"
            value={values.operatorId}
            onCommit={(v) => filters.setFilter("operatorId", v)}
            error={fieldError("operatorId")}
            spellCheck={false}
            autoComplete="off"
          />
          <button
            type="button"
            className="text-sm text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700 disabled:text-gray-700 disabled:no-underline"
            disabled={mine}
            onClick={() => filters.setFilter("operatorId", user.id)}
          >
            {mine ? "Showing your actions" : "Only my actions"}
          </button>
        </div>
        <TextFilter
          label="Action"
          placeholder="activation.approved or activation.*"
          description="Exact, or a prefix ending in *"
          value={values.action}
          onCommit={(v) => filters.setFilter("action", v)}
          error={fieldError("action")}
          spellCheck={false}
          autoComplete="off"
          list={actionsListId}
        />
        <datalist id={actionsListId}>
          {KNOWN_ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <DateRangeFilter
          from={values.from}
          to={values.to}
          onChange={filters.setFilter}
          fieldError={fieldError}
        />
      </FilterBar>

      <ListResults
        query={query}
        loadingLabel="Loading operator actions"
        errorMessage={formLevelError}
        unfiltered={!filters.active && offset === 0}
        empty={
          <EmptyState icon={<FileClock className="h-8 w-8" />} title="No operator action yet">
            Reviews of activation tickets, recorded contracts and production-test decisions are listed here.
          </EmptyState>
        }
        caption="Operator actions"
        head={
          <>
            <Th className="px-3">Time</Th>
            <Th className="px-3">Operator</Th>
            <Th className="px-3">Action</Th>
            <Th className="px-3">Target</Th>
            <Th className="px-3">Workspace</Th>
            <Th className="px-3">Details</Th>
          </>
        }
        columns={6}
        row={(e) => (
          <tr key={e.auditId} data-testid="operator-audit-row">
            <Td className="px-3 whitespace-nowrap">
              <time dateTime={e.createdAt} title={formatDateTime(e.createdAt)}>
                {formatShortDateTime(e.createdAt)}
              </time>
              {e.environment === null ? (
                <div>
                  <Badge>Deployment-wide</Badge>
                </div>
              ) : null}
            </Td>
            <Td className="min-w-44 px-3">
              <div className="font-medium break-words">{e.actor.display ?? "Unknown operator"}</div>
              {e.actor.id ? (
                <button
                  type="button"
                  className={filterButton}
                  onClick={() => filters.setFilter("operatorId", e.actor.id!)}
                  title="Show only this operator's actions"
                >
                  {e.actor.id}
                  <span className="sr-only"> (show only this operator&apos;s actions)</span>
                </button>
              ) : null}
            </Td>
            <Td className="min-w-44 px-3">
              <button
                type="button"
                className={filterButton}
                onClick={() => filters.setFilter("action", e.action)}
                title="Show only this action"
              >
                {e.action}
                <span className="sr-only"> (show only this action)</span>
              </button>
            </Td>
            <Td className="min-w-40 px-3">
              <Target event={e} />
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
        limit={LIMIT}
        offset={offset}
        onPage={filters.setOffset}
        pagesLabel="Audit log pages"
      />
    </div>
  );
}
