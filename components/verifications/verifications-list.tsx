"use client";
/**
 * The Verifications log: the workspace's sessions in this environment, newest first, filtered by
 * status, provider, app and creation date (kept in the URL), refreshed every few seconds while
 * the tab is visible so a session started elsewhere (a sandbox try-out) shows up on its own.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import { useMemo } from "react";
import { api } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge, statusTone } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/field";
import { Td, Th } from "@/components/ui/table";
import { isVerificationState, VERIFICATION_STATES } from "@/lib/verifications/state-machine";
import {
  flowLabel,
  formatDateTime,
  formatSeconds,
  formatShortDateTime,
  humanize,
  loaLabel,
  providerNamer,
  secondsBetween,
  statusLabel,
  type TProviderOption,
} from "./format";
import {
  LIVE_INTERVAL_MS,
  useAppOptions,
  verificationKeys,
  type TVerificationFilters,
  type TVerificationPage,
} from "./queries";
import {
  DateRangeFilter,
  FilterBar,
  ListResults,
  useListErrors,
  useUrlFilters,
} from "@/components/console/list-filters";

const LIMIT = 20;
const FILTERS = ["status", "providerId", "appId", "from", "to"] as const;
const OPEN_STATES = "awaiting_user_action,authenticating,processing";

export function VerificationsList({ providers }: { providers: TProviderOption[] }) {
  const { env } = useConsole();
  const filters = useUrlFilters(FILTERS);
  const { values, offset } = filters;
  const apps = useAppOptions();
  const providerName = useMemo(() => providerNamer(providers), [providers]);
  const params: TVerificationFilters & { offset: number; limit: number } = {
    ...values,
    offset,
    limit: LIMIT,
  };
  const query = useQuery({
    queryKey: verificationKeys.list(env, params),
    queryFn: ({ signal }) =>
      api<TVerificationPage>(env, "/v1/verifications", {
        query: {
          limit: LIMIT,
          offset,
          status: values.status || undefined,
          providerId: values.providerId || undefined,
          appId: values.appId || undefined,
          from: values.from || undefined,
          to: values.to || undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const { fieldError, formLevelError } = useListErrors(query.error, FILTERS);

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

      <FilterBar label="Filter verifications" active={filters.active} onClear={filters.clear}>
        <Select
          label="Status"
          value={values.status}
          onChange={(e) => filters.setFilter("status", e.target.value)}
          error={fieldError("status")}
        >
          <option value="">All statuses</option>
          <option value={OPEN_STATES}>Open (not ended)</option>
          {VERIFICATION_STATES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
          {values.status && values.status !== OPEN_STATES && !isVerificationState(values.status) ? (
            <option value={values.status}>{values.status}</option>
          ) : null}
        </Select>
        <Select
          label="Provider"
          value={values.providerId}
          onChange={(e) => filters.setFilter("providerId", e.target.value)}
          error={fieldError("providerId")}
        >
          <option value="">All providers</option>
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
        <Select
          label="App"
          value={values.appId}
          onChange={(e) => filters.setFilter("appId", e.target.value)}
          error={fieldError("appId")}
          description={apps.isError ? "The app list could not be loaded." : undefined}
        >
          <option value="">All apps</option>
          {(apps.data?.data ?? []).map((a) => (
            <option key={a.clientId} value={a.clientId}>
              {a.name}
            </option>
          ))}
          {values.appId && !apps.data?.data.some((a) => a.clientId === values.appId) ? (
            <option value={values.appId}>{values.appId}</option>
          ) : null}
        </Select>
        <DateRangeFilter
          from={values.from}
          to={values.to}
          onChange={filters.setFilter}
          fieldError={fieldError}
          subject="Created"
        />
      </FilterBar>

      <ListResults
        query={query}
        loadingLabel="Loading verifications"
        errorMessage={formLevelError}
        unfiltered={!filters.active && offset === 0}
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
        head={
          <>
            <Th className="px-3">Verification</Th>
            <Th className="px-3">App</Th>
            <Th className="px-3">Provider</Th>
            <Th className="px-3">Flow</Th>
            <Th className="px-3">Status</Th>
            <Th className="px-3">LoA</Th>
            <Th className="px-3">Created</Th>
            <Th className="px-3">Time to complete</Th>
          </>
        }
        columns={8}
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
            <Td className="px-3 whitespace-nowrap">
              <time dateTime={v.createdAt} title={formatDateTime(v.createdAt)}>
                {formatShortDateTime(v.createdAt)}
              </time>
            </Td>
            <Td className="px-3 whitespace-nowrap">
              {v.status === "completed" ? formatSeconds(secondsBetween(v.createdAt, v.verifiedAt)) : "—"}
            </Td>
          </tr>
        )}
        noMatch="No verification matches these filters."
        limit={LIMIT}
        offset={offset}
        onPage={filters.setOffset}
        pagesLabel="Verifications pages"
      />
    </div>
  );
}
