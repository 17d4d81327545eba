"use client";
/**
 * The Dashboard: the environment's sessions over the last 24 hours, 7 or 30 days (kept in the
 * URL): totals, outcomes per day, completion per provider and the funnel. A workspace without
 * any session gets a pointer to its first test verification instead. Above either, the
 * first-run checklist until its steps are done or it is dismissed (first-run-checklist.tsx).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { LayoutDashboard } from "lucide-react";
import { useMemo } from "react";
import { api, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { FormError, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { SegmentedControl } from "@/components/ui/tabs";
import { percent, providerNamer, type TProviderOption } from "@/components/verifications/format";
import { useAppOptions, useHasVerifications } from "@/components/verifications/queries";
import { useUrlFilters } from "@/components/console/list-filters";
import { Funnel, OutcomeChart, ProviderTable } from "./charts";
import { FirstRunChecklist } from "./first-run-checklist";
import { statsKeys, type TStatsPeriod, type TVerificationStats } from "./queries";
import { QueryError } from "@/components/console/query-error";

const PERIODS: { value: TStatsPeriod; label: string }[] = [
  { value: "24h", label: "24 h" },
  { value: "7d", label: "7 d" },
  { value: "30d", label: "30 d" },
];
const PERIOD_WORDS: Record<TStatsPeriod, string> = {
  "24h": "the last 24 hours",
  "7d": "the last 7 days",
  "30d": "the last 30 days",
};
const FILTERS = ["period", "appId"] as const;

function Totals({ stats }: { stats: TVerificationStats }) {
  const t = stats.totals;
  const items = [
    { label: "Created", value: t.created, note: null },
    {
      label: "Completed",
      value: t.completed,
      note: t.created ? `${percent(t.completed, t.created)} of created` : null,
    },
    { label: "Failed", value: t.failed, note: null },
    { label: "Cancelled", value: t.cancelled, note: null },
    { label: "Expired", value: t.expired, note: null },
    { label: "Open", value: t.open, note: "Not ended yet" },
  ];
  return (
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading" className="sr-only">
        Totals
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="totals">
        {items.map((i) => (
          <div key={i.label} className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
            <dt className="text-sm font-medium text-gray-700">{i.label}</dt>
            <dd
              className="text-2xl font-semibold text-gray-900 tabular-nums"
              data-testid={`total-${i.label.toLowerCase()}`}
            >
              {i.value}
            </dd>
            {i.note ? <dd className="text-xs text-gray-600">{i.note}</dd> : null}
          </div>
        ))}
      </dl>
    </section>
  );
}

export function Dashboard({ providers }: { providers: TProviderOption[] }) {
  const { env } = useConsole();
  const filters = useUrlFilters(FILTERS);
  const period: TStatsPeriod = PERIODS.find((p) => p.value === filters.values.period)?.value ?? "7d";
  const appId = filters.values.appId;
  const apps = useAppOptions();
  const any = useHasVerifications();
  const providerName = useMemo(() => providerNamer(providers), [providers]);
  const stats = useQuery({
    queryKey: statsKeys.verifications(env, { period, appId }),
    queryFn: ({ signal }) =>
      api<TVerificationStats>(env, "/v1/stats/verifications", {
        query: { period, appId: appId || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
    enabled: any.data !== false,
  });

  const heading = (
    <div>
      <h1 className="text-2xl font-semibold">Dashboard</h1>
      <p className="text-sm text-gray-700">
        Verification sessions of this environment over {PERIOD_WORDS[period]}.
      </p>
    </div>
  );

  if (any.isPending)
    return (
      <div className="space-y-4">
        {heading}
        <Loading label="Loading the dashboard" />
      </div>
    );
  if (any.data === false)
    return (
      <div className="space-y-4">
        <div>
          <h1 className="text-2xl font-semibold">Dashboard</h1>
        </div>
        <FirstRunChecklist />
        <EmptyState
          icon={<LayoutDashboard className="h-8 w-8" />}
          title="No verifications yet"
          action={
            <ButtonLink href={`/console/${env}/apps`} variant="primary">
              Go to Apps
            </ButtonLink>
          }
        >
          {env === "sandbox" ? (
            <>
              Statistics appear once sessions run. Open <strong>Apps</strong>, pick an app and choose{" "}
              <strong>Start a test verification</strong> to run one with test identities.
            </>
          ) : (
            <>Statistics appear once your apps start verification sessions in production.</>
          )}
        </EmptyState>
      </div>
    );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        {heading}
        <div className="flex flex-wrap items-end gap-3">
          <Select
            label="App"
            value={appId}
            onChange={(e) => filters.setFilter("appId", e.target.value)}
            fieldClassName="min-w-48"
          >
            <option value="">All apps</option>
            {(apps.data?.data ?? []).map((a) => (
              <option key={a.clientId} value={a.clientId}>
                {a.name}
              </option>
            ))}
            {appId && !apps.data?.data.some((a) => a.clientId === appId) ? (
              <option value={appId}>{appId}</option>
            ) : null}
          </Select>
          <div className="space-y-1">
            <div className="text-sm font-medium text-gray-900" aria-hidden="true">
              Period
            </div>
            <SegmentedControl
              label="Period"
              options={PERIODS}
              value={period}
              onChange={(p) => filters.setFilter("period", p === "7d" ? "" : p)}
            />
          </div>
        </div>
      </div>

      <FirstRunChecklist />
      {any.isError ? <FormError message={errorMessage(any.error)} /> : null}
      {stats.isPending ? (
        <Loading label="Loading statistics" />
      ) : stats.isError && !stats.data ? (
        <QueryError error={stats.error} onRetry={() => stats.refetch()} />
      ) : (
        <div className="space-y-6" aria-busy={stats.isPlaceholderData || undefined}>
          {stats.isError ? <FormError message={`Refreshing failed: ${errorMessage(stats.error)}`} /> : null}
          <Totals stats={stats.data} />
          <OutcomeChart stats={stats.data} />
          <div className="grid grid-cols-1 gap-6 2xl:grid-cols-2">
            <ProviderTable providers={stats.data.providers} providerName={providerName} />
            <Funnel funnel={stats.data.funnel} />
          </div>
        </div>
      )}
    </div>
  );
}
