"use client";
/**
 * The workspaces overview: every workspace, newest first, with its members, apps per environment
 * and the activity of the environment shown (sessions and webhook failure rate of the last 30
 * days). Searchable by name, workspace id or a member's email; the search and the page are kept
 * in the URL. Read-only: a workspace's page lists its apps and links their activation tickets.
 */
import { Building2 } from "lucide-react";
import Link from "next/link";
import { api } from "@/components/console/api";
import { usePagedList } from "@/components/console/paged-list";
import { FilterBar, ListResults } from "@/components/console/list-filters";
import { CodeFilter } from "@/components/logs/filters";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Td, Th } from "@/components/ui/table";
import { formatDate } from "@/components/verifications/format";
import { useOperator } from "../context";
import {
  ENV_LABELS,
  failedDeliveries,
  failureTone,
  formatFailureRate,
  workspaceKeys,
  type TWorkspacePage,
} from "./queries";

const LIMIT = 20;
const FILTERS = ["search"] as const;

export function WorkspaceList() {
  const { env } = useOperator();
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: ({ offset }, values) => workspaceKeys.list(env, values.search, offset, LIMIT),
    queryFn: ({ offset }, values, { signal }) =>
      api<TWorkspacePage>(env, "/v1/operator/workspaces", {
        query: { search: values.search || undefined, limit: LIMIT, offset },
        signal,
      }),
  });
  const { values, setFilter, fieldError } = list;
  const envLabel = ENV_LABELS[env];

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Workspaces</h1>
        <p className="text-sm text-gray-700">
          Every workspace, newest first. Sessions and webhook failures are those of {envLabel} in the last 30
          days.
        </p>
      </div>
      <FilterBar label="Search workspaces" {...list.filterBar}>
        <CodeFilter
          label="Search"
          type="search"
          placeholder="Name, ws_… or email"
          description="Part of the name or of a member's email, or a workspace ID"
          value={values.search}
          onCommit={(v) => setFilter("search", v)}
          error={fieldError("search")}
          fieldClassName="sm:col-span-2"
        />
      </FilterBar>
      <ListResults
        {...list.results}
        loadingLabel="Loading workspaces"
        empty={
          <EmptyState title="No workspaces yet" icon={<Building2 className="h-8 w-8" />}>
            Workspaces are created when someone signs up or with <code>idv workspace create</code>.
          </EmptyState>
        }
        caption={`Workspaces (activity in ${envLabel}, last 30 days)`}
        head={
          <>
            <Th>Workspace</Th>
            <Th>Members</Th>
            <Th>Apps</Th>
            <Th>Sessions (30 d)</Th>
            <Th>Webhook failures (30 d)</Th>
            <Th>Created</Th>
          </>
        }
        columns={6}
        row={(w) => (
          <tr key={w.workspaceId} data-testid="workspace-row">
            <Td className="min-w-48">
              <Link
                href={`/operator/${env}/workspaces/${w.workspaceId}`}
                className="font-semibold break-words text-blue-800 underline"
              >
                {w.name}
              </Link>
              <div className="font-mono text-xs break-all text-gray-700">{w.workspaceId}</div>
            </Td>
            <Td>{w.memberCount}</Td>
            <Td className="whitespace-nowrap">
              <div>
                {w.apps.sandbox} <span className="text-gray-700">sandbox</span>
              </div>
              <div>
                {w.apps.production} <span className="text-gray-700">production</span>
              </div>
            </Td>
            <Td data-testid="workspace-row-sessions">{w.sessionsLast30Days}</Td>
            <Td className="whitespace-nowrap">
              <Badge tone={failureTone(w.webhooks.failureRate)}>
                {formatFailureRate(w.webhooks.failureRate)}
              </Badge>
              <div className="text-xs text-gray-700">{failedDeliveries(w.webhooks)}</div>
            </Td>
            <Td className="whitespace-nowrap">{formatDate(w.createdAt)}</Td>
          </tr>
        )}
        noMatch="No workspace matches this search."
        pagesLabel="Workspace pages"
      />
    </div>
  );
}
