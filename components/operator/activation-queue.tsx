"use client";
/**
 * The activation queue of one environment: tickets across workspaces, oldest first, filtered by
 * status and provider (kept in the URL, so a reload or a shared link keeps them). Keyboard:
 * j / k select the next / previous ticket, Enter (or o) opens it.
 */
import { Inbox } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { api } from "@/components/console/api";
import { usePagedList } from "@/components/console/paged-list";
import { FilterBar, ListResults } from "@/components/console/list-filters";
import { SelectFilter } from "@/components/logs/filters";
import { ProviderFilter } from "@/components/providers/provider-filter";
import { Badge, statusTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Td, Th } from "@/components/ui/table";
import { formatTime } from "./format";
import { useOperator } from "./context";
import {
  DEFAULT_STATUS,
  formatWaiting,
  operatorKeys,
  queueQuery,
  STATUS_OPTIONS,
  statusLabel,
  useNow,
  useShortcuts,
  type TQueuePage,
} from "./queries";
import { ShortcutHints } from "./shortcuts";

const LIMIT = 50;
const FILTERS = ["status", "providerId"] as const;

/** The ticket page's address, carrying the queue's filters (its j / k walk the same queue). */
export function ticketHref(env: string, ticketId: string, filters: { status: string; providerId: string }) {
  const qs = new URLSearchParams();
  if (filters.status) qs.set("status", filters.status);
  if (filters.providerId) qs.set("providerId", filters.providerId);
  const s = qs.toString();
  return `/operator/${env}/activations/${ticketId}${s ? `?${s}` : ""}`;
}

/** A ticket's ID, linking to its page with the queue's filters. */
export function TicketLink({
  ticketId,
  filters,
}: {
  ticketId: string;
  filters: { status: string; providerId: string };
}) {
  const { env } = useOperator();
  return (
    <Link
      href={ticketHref(env, ticketId, filters)}
      className="font-mono text-xs font-semibold text-blue-800 underline"
    >
      {ticketId}
    </Link>
  );
}

export function ActivationQueue({ providers }: { providers: { id: string; name: string }[] }) {
  const { env } = useOperator();
  const router = useRouter();
  const now = useNow();
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: ({ offset }, values) => operatorKeys.queue(env, values, offset),
    queryFn: ({ offset }, values) =>
      api<TQueuePage>(env, "/v1/operator/activations", { query: queueQuery(values, offset, LIMIT) }),
    keepPreviousPage: false,
  });
  const { values, setFilter, fieldError, query } = list;
  const rows = useMemo(() => query.data?.data ?? [], [query.data]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selectedIndex = rows.findIndex((t) => t.id === selectedId);

  const shortcuts = useMemo(() => {
    const move = (delta: number) => {
      if (rows.length === 0) return;
      const next = selectedIndex < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, selectedIndex + delta));
      const id = rows[next]!.id;
      setSelectedId(id);
      document.getElementById(`ticket-row-${id}`)?.scrollIntoView({ block: "nearest" });
    };
    const open = () => {
      const ticket = rows[selectedIndex];
      if (ticket) router.push(ticketHref(env, ticket.id, values));
    };
    return { j: () => move(1), k: () => move(-1), Enter: selectedIndex >= 0 ? open : undefined, o: open };
  }, [rows, selectedIndex, router, env, values]);
  useShortcuts(shortcuts);

  const status = values.status || DEFAULT_STATUS;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Activations</h1>
        <p className="text-sm text-gray-700">
          Registration requests of every workspace in this environment, oldest first. Open a ticket to review
          it.
        </p>
      </div>
      <FilterBar label="Filter tickets" {...list.filterBar}>
        <SelectFilter
          label="Status"
          value={status}
          onChange={(v) => setFilter("status", v === DEFAULT_STATUS ? "" : v)}
          error={fieldError("status")}
          options={STATUS_OPTIONS}
        />
        <ProviderFilter
          providers={providers}
          value={values.providerId}
          onChange={(v) => setFilter("providerId", v)}
          error={fieldError("providerId")}
        />
      </FilterBar>
      <ShortcutHints
        items={[
          { keys: ["j", "k"], label: "next / previous ticket" },
          { keys: ["Enter"], label: "open the selected ticket" },
        ]}
      />
      <ListResults
        {...list.results}
        loadingLabel="Loading tickets"
        empty={
          <EmptyState title="The queue is empty" icon={<Inbox className="h-8 w-8" />}>
            No activation is waiting for review in this environment.
          </EmptyState>
        }
        caption={`Activation tickets: ${statusLabel(status)}`}
        head={
          <>
            <Th>Ticket</Th>
            <Th>Workspace</Th>
            <Th>App</Th>
            <Th>Provider</Th>
            <Th>Kind</Th>
            <Th>Submitted</Th>
            <Th>Waiting</Th>
            <Th>Status</Th>
          </>
        }
        columns={8}
        row={(t) => (
          <tr
            key={t.id}
            id={`ticket-row-${t.id}`}
            aria-current={t.id === selectedId ? "true" : undefined}
            data-testid="ticket-row"
            className={cn(t.id === selectedId && "bg-blue-50 outline-2 -outline-offset-2 outline-blue-700")}
          >
            <Td>
              <TicketLink ticketId={t.id} filters={values} />
            </Td>
            <Td>{t.workspaceName}</Td>
            <Td>
              <div>{t.appName}</div>
              <div className="font-mono text-xs text-gray-700">{t.clientId}</div>
            </Td>
            <Td>{t.providerName}</Td>
            <Td className="capitalize">{t.activationKind}</Td>
            <Td className="whitespace-nowrap">{formatTime(t.requestedAt)}</Td>
            <Td className="whitespace-nowrap">{formatWaiting(t.requestedAt, now)}</Td>
            <Td>
              <Badge tone={statusTone(t.status)}>{statusLabel(t.status)}</Badge>
            </Td>
          </tr>
        )}
        noMatch="No ticket matches these filters."
        pagesLabel="Ticket pages"
      />
    </div>
  );
}
