"use client";
/**
 * One production-test request: what the integrator asked for, its app and workspace, the
 * decision (Schedule / Fail while pending, the reason once failed), and once scheduled its
 * challenge, the report figures (participations, stamps per provider) and the participations,
 * newest first (claimed filter and pages in the URL). A running challenge refreshes by itself.
 */
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState, type ReactNode } from "react";
import { api } from "@/components/console/api";
import { FilterBar, ListResults, useListErrors, useUrlFilters } from "@/components/console/list-filters";
import { QueryError } from "@/components/console/query-error";
import { SelectFilter } from "@/components/logs/filters";
import { PLATFORM_LABELS, share, STATE_BADGES, testState } from "@/components/production-tests/format";
import { Badge } from "@/components/ui/badge";
import { useFocusWhenLost } from "@/components/ui/focus";
import { Card } from "@/components/ui/card";
import { Loading } from "@/components/ui/spinner";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { formatTime } from "../format";
import { useOperator } from "../context";
import { ConflictNotice, FailForm, ScheduleForm } from "./decision-forms";
import { productionTestOperatorKeys, requestPath, type TRequestDetail } from "./queries";
import { providerList, type TProviderNames } from "./request-list";

const LIMIT = 50;
const FILTERS = ["claimed"] as const;
const REFRESH_MS = 10_000;
const CLAIMED_OPTIONS = [
  { value: "true", label: "Claimed a stamp" },
  { value: "false", label: "No stamp" },
];

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {items.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="font-medium text-gray-700">{k}</dt>
          <dd className="break-words text-gray-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function json(value: unknown): string {
  return value === null || value === undefined ? "—" : JSON.stringify(value);
}

export function RequestDetail({
  requestId,
  providerNames,
}: {
  requestId: string;
  providerNames: TProviderNames;
}) {
  const { env } = useOperator();
  const { values, offset, setFilter, setOffset, clear, active } = useUrlFilters(FILTERS);
  const [conflict, setConflict] = useState<string | null>(null);
  const query = useQuery({
    queryKey: productionTestOperatorKeys.detail(env, requestId, values.claimed, offset),
    queryFn: () =>
      api<TRequestDetail>(env, requestPath(requestId), {
        query: { claimed: values.claimed || undefined, limit: LIMIT, offset },
      }),
    // a running challenge gains participations while the page is open
    refetchInterval: (q) => (q.state.data?.challenge?.isActive ? REFRESH_MS : false),
    // keep the shown request while its participations' filter or page changes
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[4] === requestId ? previous : undefined,
  });
  // the decision forms go once the request is decided: focus goes to the request's title
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading, query.data?.request.status);
  const { fieldError, formLevelError } = useListErrors(query.error, FILTERS);
  // the participations as a list result of their own (filters and pages of the same query)
  const participations = {
    ...query,
    data: query.data?.participations,
  } as UseQueryResult<TRequestDetail["participations"]>;

  const backHref = `/operator/${env}/production-tests`;
  if (query.isPending) return <Loading label="Loading the request" />;
  if (query.isError && !query.data) {
    return (
      <div className="space-y-4">
        <Link href={backHref} className="text-sm font-semibold text-blue-800 underline">
          Back to production tests
        </Link>
        <QueryError error={query.error} message={formLevelError} onRetry={() => query.refetch()} />
      </div>
    );
  }
  const item = query.data!;
  const { request, app, workspace, challenge, stats } = item;
  const badge = STATE_BADGES[testState(item)];
  const claims = stats?.totalClaims ?? 0;

  return (
    <div className="space-y-6">
      <Link href={backHref} className="text-sm font-semibold text-blue-800 underline">
        Back to production tests
      </Link>
      <div className="space-y-1">
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold break-words focus:outline-none">
          {request.payload.title}
        </h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-gray-700">
          <Badge tone={badge.tone}>
            <span data-testid="request-state">{badge.label}</span>
          </Badge>
          <span className="font-mono text-xs">{request.id}</span>
        </div>
      </div>

      {conflict ? <ConflictNotice message={conflict} onDismiss={() => setConflict(null)} /> : null}

      <Card title="Request">
        <Facts
          items={[
            ["Workspace", `${workspace.name} (${workspace.workspaceId})`],
            ["App", `${app.name} (${app.clientId})`],
            ["Providers", providerList(request.payload.providerIds, providerNames)],
            ["Stamps needed", request.payload.maxStampClaims.toLocaleString("en")],
            ["Target platform", PLATFORM_LABELS[request.payload.targetPlatform ?? "none"]],
            ["Requested", formatTime(request.createdAt)],
          ]}
        />
      </Card>

      {request.status === "pending" ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Schedule">
            <ScheduleForm idPrefix="detail-schedule" item={item} onConflict={setConflict} />
          </Card>
          <Card title="Fail">
            <FailForm idPrefix="detail-fail" item={item} onConflict={setConflict} />
          </Card>
        </div>
      ) : null}

      {request.status === "failed" ? (
        <Card title="Failed">
          <p className="text-sm text-gray-900">
            <span className="font-semibold">Reason: </span>
            <span data-testid="request-failure-reason">
              {request.failureReason ?? "No reason was given."}
            </span>
          </p>
        </Card>
      ) : null}

      {challenge ? (
        <section aria-labelledby="challenge-heading" className="space-y-4">
          <h2 id="challenge-heading" className="text-lg font-semibold">
            Challenge
          </h2>
          <div className="rounded-lg border border-gray-200 bg-white p-4" data-testid="request-challenge">
            <Facts
              items={[
                [
                  "Challenge",
                  <span key="id" className="font-mono text-xs" data-testid="challenge-id">
                    {challenge.id}
                  </span>,
                ],
                ["Title", challenge.title],
                ["Description", challenge.description ?? "—"],
                ["Mode", challenge.challengeMode],
                ["Created", formatTime(challenge.createdAt)],
                ["Ends", formatTime(challenge.expiresAt)],
                ["Completed", formatTime(challenge.completedAt)],
                ["Running", challenge.isActive ? "Yes" : "No"],
                [
                  "Sponsor",
                  <code key="sponsor" className="text-xs break-all">
                    {json(challenge.sponsor)}
                  </code>,
                ],
                [
                  "Sources",
                  <code key="sources" className="text-xs break-all">
                    {json(challenge.sources)}
                  </code>,
                ],
              ]}
            />
          </div>
          {stats ? (
            <div className="space-y-3">
              <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {[
                  ["Participations", stats.totalParticipations, "request-participations"],
                  ["Stamps claimed", claims, "request-claims"],
                  [
                    "Progress",
                    `${share(claims, request.payload.maxStampClaims)}% of ${request.payload.maxStampClaims.toLocaleString("en")}`,
                    "request-progress",
                  ],
                ].map(([label, value, testId]) => (
                  <div key={label} className="rounded-lg border border-gray-200 bg-white p-3">
                    <dt className="text-sm text-gray-700">{label}</dt>
                    <dd className="text-xl font-semibold tabular-nums" data-testid={testId as string}>
                      {typeof value === "number" ? value.toLocaleString("en") : value}
                    </dd>
                  </div>
                ))}
              </dl>
              <Table caption="Stamps per provider">
                <thead>
                  <tr>
                    <Th>Provider</Th>
                    <Th>Stamps</Th>
                  </tr>
                </thead>
                <TBody>
                  {stats.providerBreakdown.map((p) => (
                    <tr key={p.providerId}>
                      <Td>{p.providerName}</Td>
                      <Td className="tabular-nums">{p.claimCount.toLocaleString("en")}</Td>
                    </tr>
                  ))}
                </TBody>
              </Table>
            </div>
          ) : null}
        </section>
      ) : null}

      {challenge ? (
        <section aria-labelledby="participations-heading" className="space-y-3">
          <h2 id="participations-heading" className="text-lg font-semibold">
            Participations
          </h2>
          <FilterBar label="Filter participations" active={active} onClear={clear}>
            <SelectFilter
              label="Stamp"
              value={values.claimed}
              onChange={(v) => setFilter("claimed", v)}
              error={fieldError("claimed")}
              allLabel="All participations"
              options={CLAIMED_OPTIONS}
            />
          </FilterBar>
          <ListResults
            query={participations}
            loadingLabel="Loading participations"
            errorMessage={formLevelError}
            unfiltered={!active && offset === 0}
            empty={<p className="text-sm text-gray-700">Nobody has taken part yet.</p>}
            caption="Participations, newest first"
            head={
              <>
                <Th>Participation</Th>
                <Th>Verification</Th>
                <Th>Provider</Th>
                <Th>Verified</Th>
                <Th>Stamp</Th>
                <Th>When</Th>
              </>
            }
            columns={6}
            row={(p) => (
              <tr key={p.id} data-testid="participation-row">
                <Td className="font-mono text-xs">{p.id}</Td>
                <Td className="font-mono text-xs">{p.verificationId ?? "—"}</Td>
                <Td>{p.providerName}</Td>
                <Td>
                  <Badge tone={p.successful ? "green" : "red"}>
                    {p.successful ? "Successful" : "Unsuccessful"}
                  </Badge>
                </Td>
                <Td>
                  <Badge tone={p.claimed ? "green" : "gray"}>{p.claimed ? "Claimed" : "None"}</Badge>
                </Td>
                <Td className="whitespace-nowrap">{formatTime(p.createdAt)}</Td>
              </tr>
            )}
            noMatch="No participation matches this filter."
            limit={LIMIT}
            offset={offset}
            onPage={setOffset}
            pagesLabel="Participation pages"
          />
        </section>
      ) : null}
    </div>
  );
}
