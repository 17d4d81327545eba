"use client";
/**
 * A session's one timeline: its events, the API requests that named it and its webhook
 * deliveries, merged and ordered by time, each item labelled by its kind.
 */
import { Activity, Send, Zap } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useConsole } from "@/components/console/context";
import { Badge, statusTone, type BadgeTone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { credentialLabel, formatDateTime, httpTone } from "./format";
import type { TTimelineDelivery, TTimelineEvent, TTimelineRequest, TVerificationActivity } from "./queries";

type TItem =
  | { kind: "event"; at: string; id: string; event: TTimelineEvent }
  | { kind: "request"; at: string; sortAt: number; id: string; request: TTimelineRequest }
  | { kind: "delivery"; at: string; id: string; delivery: TTimelineDelivery };

const KIND: Record<TItem["kind"], { label: string; icon: typeof Zap; dot: string }> = {
  event: { label: "Event", icon: Zap, dot: "bg-purple-100 text-purple-800 ring-purple-300" },
  request: { label: "API request", icon: Activity, dot: "bg-blue-100 text-blue-800 ring-blue-300" },
  delivery: { label: "Webhook delivery", icon: Send, dot: "bg-green-100 text-green-800 ring-green-300" },
};

// at the same millisecond: the request that caused it, its event, then the delivery
const ORDER: Record<TItem["kind"], number> = { request: 0, event: 1, delivery: 2 };

function sortKey(item: TItem): number {
  return item.kind === "request" ? item.sortAt : Date.parse(item.at);
}

/** The console's own reads of a session (this page's refreshes), hidden unless asked for. */
export function isConsoleRead(request: TTimelineRequest): boolean {
  return request.credentialType === "session" && (request.method === "GET" || request.method === "HEAD");
}

export function timelineItems(
  activity: TVerificationActivity,
  options: { consoleReads?: boolean } = {},
): TItem[] {
  const requests = options.consoleReads
    ? activity.requests
    : activity.requests.filter((r) => !isConsoleRead(r));
  const items: TItem[] = [
    ...activity.events.map((event) => ({
      kind: "event" as const,
      at: event.createdAt,
      id: event.eventId,
      event,
    })),
    ...requests.map((request) => ({
      kind: "request" as const,
      at: request.createdAt,
      // logged when it ended: ordered by when it began, before what it caused
      sortAt: Date.parse(request.createdAt) - request.durationMs,
      id: request.requestId,
      request,
    })),
    ...activity.deliveries.map((delivery) => ({
      kind: "delivery" as const,
      at: delivery.createdAt,
      id: delivery.deliveryId,
      delivery,
    })),
  ];
  // a stable sort: each source is already oldest first
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        sortKey(a.item) - sortKey(b.item) || ORDER[a.item.kind] - ORDER[b.item.kind] || a.index - b.index,
    )
    .map(({ item }) => item);
}

const DELIVERY_TONE: Record<string, BadgeTone> = { pending: "blue", succeeded: "green", dead: "red" };
const DELIVERY_LABEL: Record<string, string> = { pending: "Pending", succeeded: "Delivered", dead: "Failed" };

function Meta({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-baseline gap-1">
      <span className="text-gray-600">{label}</span>
      <span className="min-w-0 break-all text-gray-900">{children}</span>
    </span>
  );
}

function EventItem({ event }: { event: TTimelineEvent }) {
  const metadata = event.metadata ? Object.entries(event.metadata) : [];
  return (
    <>
      <p className="font-mono text-sm font-semibold break-all">{event.type}</p>
      {metadata.length ? (
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
          {metadata.map(([k, v]) => (
            <Meta key={k} label={k}>
              {typeof v === "object" ? JSON.stringify(v) : String(v)}
            </Meta>
          ))}
        </p>
      ) : null}
    </>
  );
}

function RequestItem({ request }: { request: TTimelineRequest }) {
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-semibold break-all">
          {request.method} {request.path}
        </span>
        <Badge tone={httpTone(request.status)}>{request.status}</Badge>
        {request.errorCode ? (
          <code className="font-mono text-xs text-red-800">{request.errorCode}</code>
        ) : null}
      </p>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
        <Meta label="Request ID">
          <code className="font-mono">{request.requestId}</code>
        </Meta>
        <Meta label="Credential">{credentialLabel(request.credentialType, request.credentialName)}</Meta>
        <Meta label="Duration">{request.durationMs} ms</Meta>
      </p>
    </>
  );
}

function DeliveryItem({ delivery }: { delivery: TTimelineDelivery }) {
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-semibold break-all">{delivery.eventType}</span>
        <Badge tone={DELIVERY_TONE[delivery.status] ?? statusTone(delivery.status)}>
          {DELIVERY_LABEL[delivery.status] ?? delivery.status}
        </Badge>
      </p>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
        <Meta label="Attempts">{delivery.attemptCount}</Meta>
        <Meta label="Last response">{delivery.lastStatus ?? "—"}</Meta>
        {delivery.deliveredAt ? (
          <Meta label="Delivered">
            <time dateTime={delivery.deliveredAt}>{formatDateTime(delivery.deliveredAt)}</time>
          </Meta>
        ) : null}
        {delivery.nextAttemptAt ? (
          <Meta label="Next attempt">
            <time dateTime={delivery.nextAttemptAt}>{formatDateTime(delivery.nextAttemptAt)}</time>
          </Meta>
        ) : null}
      </p>
    </>
  );
}

export function Timeline({ activity }: { activity: TVerificationActivity }) {
  const { env } = useConsole();
  const [consoleReads, setConsoleReads] = useState(false);
  const items = timelineItems(activity, { consoleReads });
  const hiddenReads = activity.requests.filter(isConsoleRead).length;
  const counts = {
    event: activity.events.length,
    request: items.filter((i) => i.kind === "request").length,
    delivery: activity.deliveries.length,
  };
  return (
    <Card title="Timeline">
      <p className="mb-4 text-sm text-gray-700">
        {counts.event} {counts.event === 1 ? "event" : "events"}, {counts.request} API{" "}
        {counts.request === 1 ? "request" : "requests"} and {counts.delivery} webhook{" "}
        {counts.delivery === 1 ? "delivery" : "deliveries"}, oldest first.{" "}
        {counts.request > 0 ? (
          <Link
            href={`/console/${env}/requests?verificationId=${encodeURIComponent(activity.verification.verificationId)}`}
            className="font-semibold text-blue-800 underline"
          >
            Open the requests in the API request log
          </Link>
        ) : null}
      </p>
      {hiddenReads > 0 ? (
        <Checkbox
          className="mb-4"
          label={`Include the console's own reads (${hiddenReads})`}
          description="Page views of this verification in the console, such as this page's refreshes."
          checked={consoleReads}
          onChange={(e) => setConsoleReads(e.target.checked)}
        />
      ) : null}
      {items.length === 0 ? (
        <p className="text-sm text-gray-700">Nothing has happened yet.</p>
      ) : (
        <ol
          className="relative space-y-4 border-l border-gray-200 pl-6"
          aria-label="Timeline"
          data-testid="timeline"
        >
          {items.map((item) => {
            const kind = KIND[item.kind];
            const Icon = kind.icon;
            return (
              <li key={`${item.kind}-${item.id}`} className="relative" data-kind={item.kind}>
                <span
                  aria-hidden
                  className={cn(
                    "absolute top-0.5 -left-[36.5px] flex h-6 w-6 items-center justify-center rounded-full ring-1",
                    kind.dot,
                  )}
                >
                  <Icon className="h-3.5 w-3.5" />
                </span>
                <div className="min-w-0 space-y-1">
                  <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
                    <span className="font-semibold tracking-wide text-gray-800 uppercase">{kind.label}</span>
                    <time dateTime={item.at} className="text-gray-600">
                      {formatDateTime(item.at)}
                    </time>
                  </p>
                  {item.kind === "event" ? <EventItem event={item.event} /> : null}
                  {item.kind === "request" ? <RequestItem request={item.request} /> : null}
                  {item.kind === "delivery" ? <DeliveryItem delivery={item.delivery} /> : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
