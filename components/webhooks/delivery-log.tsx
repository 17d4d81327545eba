"use client";
/**
 * The delivery log of an app: newest first, 20 a page, filterable by status; each row links to
 * the delivery's page. Refreshes by itself while a delivery on the page is pending.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Inbox, RefreshCw } from "lucide-react";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { api, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FormError, Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { Loading } from "@/components/ui/spinner";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { formatShortDateTime, httpTone } from "@/components/verifications/format";
import { DELIVERY_STATUS_LABEL, DELIVERY_STATUS_TONE, formatMs } from "./format";
import {
  deliveriesPath,
  LIVE_INTERVAL_MS,
  webhookKeys,
  type TDelivery,
  type TDeliveryPage,
  type TDeliveryStatus,
} from "./queries";
import { QueryError } from "@/components/console/query-error";

const LIMIT = 20;

function LastResponse({ delivery }: { delivery: TDelivery }) {
  const last = delivery.attempts.at(-1);
  if (!last) return <span className="text-gray-600">—</span>;
  return (
    <div className="space-y-0.5">
      <div className="flex items-center gap-2 whitespace-nowrap">
        {last.responseStatus !== null ? (
          <Badge tone={httpTone(last.responseStatus)}>{last.responseStatus}</Badge>
        ) : (
          <Badge tone="red">No response</Badge>
        )}
        <span className="text-gray-700">{formatMs(last.durationMs)}</span>
      </div>
      {last.error && last.responseStatus === null ? (
        <p className="max-w-56 truncate text-xs text-gray-600" title={last.error}>
          {last.error}
        </p>
      ) : null}
    </div>
  );
}

export function DeliveryLog({ clientId }: { clientId: string }) {
  const { env } = useConsole();
  const [status, setStatus] = useState<TDeliveryStatus | "">("");
  const [offset, setOffset] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const query = useQuery({
    queryKey: webhookKeys.deliveryList(env, clientId, { status, offset, limit: LIMIT }),
    queryFn: ({ signal }) =>
      api<TDeliveryPage>(env, deliveriesPath(clientId), {
        query: { limit: LIMIT, offset, status: status || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.data.some((d) => d.status === "pending") ? LIVE_INTERVAL_MS : false,
  });
  const live = query.data?.data.some((d) => d.status === "pending") ?? false;
  const base = `/console/${env}/apps/${encodeURIComponent(clientId)}/webhooks`;

  let content: ReactNode;
  if (query.isPending) content = <Loading label="Loading deliveries" />;
  else if (query.isError && !query.data)
    content = <QueryError error={query.error} onRetry={() => query.refetch()} />;
  else if (query.data.total === 0 && offset === 0)
    content = status ? (
      <p className="text-sm text-gray-700">No {DELIVERY_STATUS_LABEL[status].toLowerCase()} deliveries.</p>
    ) : (
      <EmptyState icon={<Inbox className="h-8 w-8" />} title="No deliveries yet">
        Every event sent to this app&apos;s webhook appears here with each attempt. Send a test event to try
        your receiver.
      </EmptyState>
    );
  else
    content = (
      <div className="space-y-3">
        <Table caption="Webhook deliveries">
          <thead>
            <tr>
              <Th>Event</Th>
              <Th>Status</Th>
              <Th>Attempts</Th>
              <Th>Last response</Th>
              <Th>Next attempt</Th>
              <Th>Created</Th>
            </tr>
          </thead>
          <TBody>
            {query.data.data.map((d) => (
              <tr key={d.deliveryId} data-delivery-id={d.deliveryId}>
                <Td>
                  <Link
                    href={`${base}/${encodeURIComponent(d.deliveryId)}`}
                    className="font-mono text-xs font-semibold break-all text-blue-800 underline"
                  >
                    {d.eventType}
                  </Link>
                </Td>
                <Td>
                  <Badge tone={DELIVERY_STATUS_TONE[d.status]}>{DELIVERY_STATUS_LABEL[d.status]}</Badge>
                </Td>
                <Td>{d.attemptCount}</Td>
                <Td>
                  <LastResponse delivery={d} />
                </Td>
                <Td className="whitespace-nowrap">
                  {d.nextAttemptAt ? (
                    <time dateTime={d.nextAttemptAt}>{formatShortDateTime(d.nextAttemptAt)}</time>
                  ) : (
                    "—"
                  )}
                </Td>
                <Td className="whitespace-nowrap">
                  <time dateTime={d.createdAt}>{formatShortDateTime(d.createdAt)}</time>
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
        <Pagination
          label="Delivery pages"
          total={query.data.total}
          limit={LIMIT}
          offset={offset}
          onChange={setOffset}
        />
        {query.isError ? <FormError message={`Refreshing failed: ${errorMessage(query.error)}`} /> : null}
      </div>
    );

  return (
    <Card title="Delivery log">
      <div className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <Select
            label="Status"
            fieldClassName="w-48"
            value={status}
            onChange={(e) => {
              const value = e.target.value;
              setStatus(value === "pending" || value === "succeeded" || value === "dead" ? value : "");
              setOffset(0);
            }}
          >
            <option value="">All statuses</option>
            <option value="pending">{DELIVERY_STATUS_LABEL.pending}</option>
            <option value="succeeded">{DELIVERY_STATUS_LABEL.succeeded}</option>
            <option value="dead">{DELIVERY_STATUS_LABEL.dead}</option>
          </Select>
          <div className="flex flex-wrap items-center gap-3">
            {live ? (
              <p className="flex items-center gap-1 text-sm text-gray-600">
                <RefreshCw aria-hidden className="h-4 w-4" />
                Deliveries pending: refreshing by itself.
              </p>
            ) : null}
            <Button
              variant="secondary"
              size="sm"
              pending={refreshing}
              onClick={() => {
                setRefreshing(true);
                void query.refetch().finally(() => setRefreshing(false));
              }}
            >
              Refresh
            </Button>
          </div>
        </div>
        {content}
      </div>
    </Card>
  );
}
