"use client";
/**
 * The Verifications log: the workspace's sessions in this environment, newest first, filtered by
 * status, provider, app and creation date (kept in the URL), refreshed every few seconds while
 * the tab is visible so a session started elsewhere (a sandbox try-out) shows up on its own.
 */
import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import { useMemo } from "react";
import { useConsole } from "@/components/console/context";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import { DateRangeFilter, FilterBar, ListResults } from "@/components/console/list-filters";
import { logColumns, TimeCell } from "@/components/logs/cells";
import { SelectFilter } from "@/components/logs/filters";
import { ProviderFilter } from "@/components/providers/provider-filter";
import { Badge, statusTone } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Td } from "@/components/ui/table";
import { VERIFICATION_STATES } from "@/lib/verifications/state-machine";
import { AppFilter } from "./app-filter";
import {
  flowLabel,
  formatSeconds,
  humanize,
  loaLabel,
  providerNamer,
  secondsBetween,
  statusLabel,
  type TProviderOption,
} from "./format";
import { LIVE_INTERVAL_MS, verificationKeys, type TVerificationPage } from "./queries";

const LIMIT = 20;
const FILTERS = ["status", "providerId", "appId", "from", "to"] as const;
const OPEN_STATES = "awaiting_user_action,authenticating,processing";
const STATUS_OPTIONS = [
  { value: OPEN_STATES, label: "Open (not ended)" },
  ...VERIFICATION_STATES.map((s) => ({ value: s, label: statusLabel(s) })),
];

export function VerificationsList({ providers }: { providers: TProviderOption[] }) {
  const { env } = useConsole();
  const providerName = useMemo(() => providerNamer(providers), [providers]);
  const list = usePagedList({
    filters: FILTERS,
    limit: LIMIT,
    queryKey: (page, values) => verificationKeys.list(env, { ...values, ...page }),
    queryFn: pageFetcher<TVerificationPage>(env, "/v1/verifications"),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const { values, setFilter, fieldError } = list;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Verifications</h1>
          <p className="text-sm text-gray-700">
            Every verification session of this environment, newest first. The list refreshes by itself.
          </p>
        </div>
      </div>

      <FilterBar label="Filter verifications" {...list.filterBar}>
        <SelectFilter
          label="Status"
          value={values.status}
          onChange={(v) => setFilter("status", v)}
          error={fieldError("status")}
          allLabel="All statuses"
          options={STATUS_OPTIONS}
          keepUnknown
        />
        <ProviderFilter
          providers={providers}
          value={values.providerId}
          onChange={(v) => setFilter("providerId", v)}
          error={fieldError("providerId")}
        />
        <AppFilter value={values.appId} onChange={(v) => setFilter("appId", v)} error={fieldError("appId")} />
        <DateRangeFilter
          from={values.from}
          to={values.to}
          onChange={setFilter}
          fieldError={fieldError}
          subject="Created"
        />
      </FilterBar>

      <ListResults
        {...list.results}
        loadingLabel="Loading verifications"
        empty={
          <EmptyState
            icon={<ShieldCheck className="h-8 w-8" />}
            title="No verifications yet"
            action={
              <ButtonLink href={`/console/${env}/apps`} variant="primary">
                Go to Apps
              </ButtonLink>
            }
          >
            {env === "sandbox" ? (
              <>
                Open an app and choose <strong>Start a test verification</strong> to run one with test
                identities, or start one from your server with <code>POST /v1/verifications</code>. It appears
                here within seconds.
              </>
            ) : (
              <>
                Sessions appear here once your server starts them with <code>POST /v1/verifications</code> or
                users sign in through the OpenID Provider.
              </>
            )}
          </EmptyState>
        }
        caption="Verifications"
        {...logColumns([
          "Verification",
          "App",
          "Provider",
          "Flow",
          "Status",
          "LoA",
          "Created",
          "Time to complete",
        ])}
        row={(v) => (
          <tr key={v.verificationId} data-testid="verification-row">
            <Td className="px-3">
              <Link
                href={`/console/${env}/verifications/${v.verificationId}`}
                className="font-mono text-xs font-semibold break-all text-blue-800 underline xl:break-normal xl:whitespace-nowrap"
              >
                {v.verificationId}
              </Link>
            </Td>
            <Td className="px-3 whitespace-nowrap">{v.appName}</Td>
            <Td className="px-3 whitespace-nowrap">{providerName(v.providerId)}</Td>
            <Td className="px-3 whitespace-nowrap">{flowLabel(v.flowType)}</Td>
            <Td className="px-3">
              <Badge tone={statusTone(v.status)}>{statusLabel(v.status)}</Badge>
              {v.statusReason ? (
                <div className="mt-1 min-w-28 text-xs text-gray-600" title={v.statusReason}>
                  {humanize(v.statusReason)}
                </div>
              ) : null}
            </Td>
            <Td className="px-3">{loaLabel(v.loa)}</Td>
            <TimeCell at={v.createdAt} />
            <Td className="px-3 whitespace-nowrap">
              {v.status === "completed" ? formatSeconds(secondsBetween(v.createdAt, v.verifiedAt)) : "—"}
            </Td>
          </tr>
        )}
        noMatch="No verification matches these filters."
        pagesLabel="Verifications pages"
      />
    </div>
  );
}
