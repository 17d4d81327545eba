"use client";
/**
 * Production-test requests of one environment across workspaces, in one state (pending by default,
 * oldest first: the queue; scheduled and failed newest first), optionally of one app. Filters
 * live in the URL. A pending request is scheduled or failed from its row (a dialog with the form)
 * or from its page; a request another operator decided first is reported above the table.
 */
import { CalendarCheck, FlaskConical, X } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/console/api";
import { usePagedList } from "@/components/console/paged-list";
import { FilterBar, ListResults } from "@/components/console/list-filters";
import { CodeFilter, SelectFilter } from "@/components/logs/filters";
import { PLATFORM_LABELS, STATE_BADGES, testState } from "@/components/production-tests/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Td, Th } from "@/components/ui/table";
import { formatTime } from "../format";
import { useOperator } from "../context";
import { ConflictNotice, FailForm, ScheduleForm } from "./decision-forms";
import {
  DEFAULT_REQUEST_STATUS,
  productionTestOperatorKeys,
  REQUEST_STATUS_OPTIONS,
  requestHref,
  type TOperatorItem,
  type TOperatorItemPage,
} from "./queries";

const LIMIT = 50;
const FILTERS = ["status", "clientId"] as const;

export type TProviderNames = Record<string, string>;

export function providerList(ids: readonly string[], names: TProviderNames): string {
  return ids.map((id) => names[id] ?? id).join(", ");
}

export function RequestList({ providerNames }: { providerNames: TProviderNames }) {
  const { env } = useOperator();
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: ({ offset }, values) => productionTestOperatorKeys.list(env, values, offset),
    queryFn: ({ offset }, values) =>
      api<TOperatorItemPage>(env, "/v1/operator/production-tests", {
        query: {
          status: values.status || DEFAULT_REQUEST_STATUS,
          clientId: values.clientId || undefined,
          limit: LIMIT,
          offset,
        },
      }),
    keepPreviousPage: false,
  });
  const { values, setFilter, fieldError } = list;
  const status = values.status || DEFAULT_REQUEST_STATUS;
  const [dialog, setDialog] = useState<{ action: "schedule" | "fail"; item: TOperatorItem } | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);

  const statusLabel = REQUEST_STATUS_OPTIONS.find((o) => o.value === status)?.label ?? status;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Production tests</h1>
        <p className="text-sm text-gray-700">
          Requests for live tests of every workspace in this environment. Pending requests are listed oldest
          first: schedule one to create its challenge, or fail it with a reason the integrator reads.
        </p>
      </div>
      <FilterBar label="Filter production-test requests" {...list.filterBar}>
        <SelectFilter
          label="State"
          value={status}
          onChange={(v) => setFilter("status", v === DEFAULT_REQUEST_STATUS ? "" : v)}
          error={fieldError("status")}
          options={REQUEST_STATUS_OPTIONS}
        />
        <CodeFilter
          label="Client ID"
          value={values.clientId}
          onCommit={(v) => setFilter("clientId", v)}
          placeholder="app_…"
          error={fieldError("clientId")}
        />
      </FilterBar>
      {conflict ? <ConflictNotice message={conflict} onDismiss={() => setConflict(null)} /> : null}
      <ListResults
        {...list.results}
        loadingLabel="Loading production-test requests"
        empty={
          <EmptyState title="No pending request" icon={<FlaskConical className="h-8 w-8" />}>
            No production test is waiting to be scheduled in this environment.
          </EmptyState>
        }
        caption={`Production-test requests: ${statusLabel}`}
        head={
          <>
            <Th>Request</Th>
            <Th>App</Th>
            <Th>Providers</Th>
            <Th>Stamps</Th>
            <Th>Platform</Th>
            <Th>Requested</Th>
            <Th>State</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </>
        }
        columns={8}
        row={(item) => {
          const { request, app } = item;
          const badge = STATE_BADGES[testState(item)];
          return (
            <tr key={request.id} data-testid="production-test-row">
              <Td>
                <Link
                  href={requestHref(env, request.id)}
                  className="font-semibold break-words text-blue-800 underline"
                >
                  {request.payload.title}
                </Link>
                <div className="font-mono text-xs text-gray-700">{request.id}</div>
              </Td>
              <Td>
                <div>{app.name}</div>
                <div className="font-mono text-xs text-gray-700">{app.clientId}</div>
                <div className="font-mono text-xs text-gray-700">{app.workspaceId}</div>
              </Td>
              <Td>{providerList(request.payload.providerIds, providerNames)}</Td>
              <Td className="tabular-nums">{request.payload.maxStampClaims.toLocaleString("en")}</Td>
              <Td>{PLATFORM_LABELS[request.payload.targetPlatform ?? "none"]}</Td>
              <Td className="whitespace-nowrap">{formatTime(request.createdAt)}</Td>
              <Td>
                <Badge tone={badge.tone}>{badge.label}</Badge>
                {item.challenge ? (
                  <div className="font-mono text-xs text-gray-700">{item.challenge.id}</div>
                ) : null}
              </Td>
              <Td>
                {request.status === "pending" ? (
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      icon={<CalendarCheck aria-hidden className="h-4 w-4" />}
                      aria-label={`Schedule ${request.payload.title}`}
                      onClick={() => {
                        setConflict(null);
                        setDialog({ action: "schedule", item });
                      }}
                    >
                      Schedule
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      icon={<X aria-hidden className="h-4 w-4" />}
                      aria-label={`Fail ${request.payload.title}`}
                      onClick={() => {
                        setConflict(null);
                        setDialog({ action: "fail", item });
                      }}
                    >
                      Fail
                    </Button>
                  </div>
                ) : null}
              </Td>
            </tr>
          );
        }}
        noMatch="No request matches these filters."
        pagesLabel="Request pages"
      />
      <Dialog
        open={dialog !== null}
        onClose={() => setDialog(null)}
        title={
          dialog
            ? `${dialog.action === "schedule" ? "Schedule" : "Fail"} “${dialog.item.request.payload.title}”`
            : ""
        }
        description={
          dialog ? (
            <>
              {dialog.item.app.name} ({dialog.item.app.clientId}) ·{" "}
              {providerList(dialog.item.request.payload.providerIds, providerNames)}
            </>
          ) : undefined
        }
      >
        {dialog?.action === "schedule" ? (
          <ScheduleForm
            idPrefix="list-schedule"
            item={dialog.item}
            onDone={() => setDialog(null)}
            onConflict={(message) => {
              setDialog(null);
              setConflict(message);
            }}
          />
        ) : dialog?.action === "fail" ? (
          <FailForm
            idPrefix="list-fail"
            item={dialog.item}
            onDone={() => setDialog(null)}
            onConflict={(message) => {
              setDialog(null);
              setConflict(message);
            }}
          />
        ) : null}
      </Dialog>
    </div>
  );
}
