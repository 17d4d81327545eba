"use client";
/**
 * Every custom domain of one environment, newest first, with its state, the action it waits
 * for and its last DNS check record by record; filtered by state and searched by host, client ID
 * or workspace ID (kept in the URL).
 */
import { Globe } from "lucide-react";
import { api } from "@/components/console/api";
import { filterParams, usePagedList } from "@/components/console/paged-list";
import { FilterBar, ListResults } from "@/components/console/list-filters";
import { CHECK_RESULT_LABEL, CHECK_RESULT_TONE, describeDomain } from "@/components/domains/describe";
import { CodeFilter, SelectFilter } from "@/components/logs/filters";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Td, Th } from "@/components/ui/table";
import { formatTime } from "../format";
import { useOperator } from "../context";
import {
  customDomainOperatorKeys,
  DOMAIN_STATUS_OPTIONS,
  REQUIRED_ACTION_LABELS,
  type TOperatorDomain,
  type TOperatorDomainPage,
} from "./queries";

const LIMIT = 20;
const FILTERS = ["status", "search"] as const;

function LastCheck({ domain }: { domain: TOperatorDomain }) {
  if (!domain.lastCheckedAt) return <span className="text-gray-700">Not checked yet</span>;
  return (
    <div className="space-y-1">
      <div className="whitespace-nowrap">{formatTime(domain.lastCheckedAt)}</div>
      {domain.dnsChecks?.length ? (
        <ul className="space-y-1" aria-label={`DNS records of ${domain.webDomain}`}>
          {domain.dnsChecks.map((check) => (
            <li key={check.id} className="text-xs">
              <Badge tone={CHECK_RESULT_TONE[check.result]}>{CHECK_RESULT_LABEL[check.result]}</Badge>{" "}
              <span className="font-mono">
                {check.type} {check.host}
              </span>
              <div className="text-gray-700">{check.message}</div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="text-xs text-gray-700">No per-record result</div>
      )}
    </div>
  );
}

export function DomainList() {
  const { env } = useOperator();
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: ({ offset }, values) => customDomainOperatorKeys.list(env, values, offset),
    queryFn: ({ offset }, values) =>
      api<TOperatorDomainPage>(env, "/v1/operator/custom-domains", {
        query: { ...filterParams(values), limit: LIMIT, offset },
      }),
    keepPreviousPage: false,
  });
  const { values, setFilter, fieldError } = list;
  return (
    <section aria-labelledby="domains-heading" className="space-y-4">
      <h2 id="domains-heading" className="text-lg font-semibold">
        Domains
      </h2>
      <FilterBar label="Filter custom domains" {...list.filterBar}>
        <SelectFilter
          label="State"
          value={values.status}
          onChange={(v) => setFilter("status", v)}
          error={fieldError("status")}
          allLabel="All states"
          options={DOMAIN_STATUS_OPTIONS}
        />
        <CodeFilter
          label="Search"
          type="search"
          value={values.search}
          onCommit={(v) => setFilter("search", v)}
          description="Part of a host, or a client ID or workspace ID"
          error={fieldError("search")}
        />
      </FilterBar>
      <ListResults
        {...list.results}
        loadingLabel="Loading custom domains"
        empty={
          <EmptyState title="No custom domain yet" icon={<Globe className="h-8 w-8" />}>
            No app of this environment has set up a custom domain.
          </EmptyState>
        }
        caption="Custom domains, newest first"
        head={
          <>
            <Th>Hosts</Th>
            <Th>App</Th>
            <Th>State</Th>
            <Th>Required action</Th>
            <Th>Last DNS check</Th>
            <Th>Configured</Th>
          </>
        }
        columns={6}
        row={(d) => {
          const described = describeDomain(d, formatTime);
          return (
            <tr key={d.domainId} data-testid="custom-domain-row">
              <Td>
                <div className="font-mono text-xs break-all">{d.webDomain}</div>
                <div className="font-mono text-xs break-all">{d.oidcDomain}</div>
              </Td>
              <Td>
                <div>{d.app.name}</div>
                <div className="font-mono text-xs text-gray-700">{d.app.clientId}</div>
                <div className="text-xs text-gray-700">
                  {d.workspace.name} <span className="font-mono">({d.workspace.workspaceId})</span>
                </div>
              </Td>
              <Td>
                <Badge tone={described.tone}>{described.label}</Badge>
                <div className="font-mono text-xs text-gray-700" data-testid="custom-domain-status">
                  {d.status}
                </div>
                {d.activatedAt ? (
                  <div className="text-xs text-gray-700">since {formatTime(d.activatedAt)}</div>
                ) : null}
              </Td>
              <Td>
                <div>{REQUIRED_ACTION_LABELS[d.requiredAction] ?? d.requiredAction}</div>
                {d.statusMessage ? <div className="text-xs text-gray-700">{d.statusMessage}</div> : null}
                {d.automaticChecks === "scheduled" && d.nextCheckAt ? (
                  <div className="text-xs text-gray-700">
                    Next automatic check {formatTime(d.nextCheckAt)}
                  </div>
                ) : d.automaticChecks === "stopped" ? (
                  <div className="text-xs text-gray-700">Automatic checks stopped</div>
                ) : null}
              </Td>
              <Td className="min-w-64">
                <LastCheck domain={d} />
              </Td>
              <Td className="whitespace-nowrap">{formatTime(d.createdAt)}</Td>
            </tr>
          );
        }}
        noMatch="No custom domain matches these filters."
        pagesLabel="Custom domain pages"
      />
    </section>
  );
}
