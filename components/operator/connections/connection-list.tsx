"use client";
/**
 * Every catalog provider with its connection in this environment: the production adapter the
 * catalog names, the connection's state, its error rate over the last hour and day (when the
 * API reports health) and its last error. Each provider's name opens its connection page.
 * A table from `md` up; below it a card per provider (the same data and links), so a phone shows
 * which connections fail without scrolling sideways.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { api } from "@/components/console/api";
import { QueryError } from "@/components/console/query-error";
import { Badge } from "@/components/ui/badge";
import { Loading } from "@/components/ui/spinner";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { formatTime } from "../format";
import { useOperator } from "../context";
import { connectionKeys, errorRateText, healthOf, STATE_BADGES, type TConnection } from "./queries";

export function ConnectionList() {
  const { env } = useOperator();
  const query = useQuery({
    queryKey: connectionKeys.list(env),
    queryFn: () => api<TConnection[]>(env, "/v1/operator/connections"),
  });
  if (query.isPending) return <Loading label="Loading connections" />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  const connections = query.data;
  const connected = connections.filter((c) => c.state !== "not_connected").length;
  return (
    <section aria-labelledby="connections-heading" className="space-y-3">
      <h2 id="connections-heading" className="text-lg font-semibold">
        Providers
      </h2>
      <p className="text-sm text-gray-700">
        {connected} of {connections.length} providers have a connection in this environment.
      </p>
      <Table caption="Provider connections, in catalog order" className="hidden md:block">
        <thead>
          <tr>
            <Th>Provider</Th>
            <Th>Production adapter</Th>
            <Th>State</Th>
            <Th>Errors, last hour</Th>
            <Th>Errors, last day</Th>
            <Th>Last error</Th>
          </tr>
        </thead>
        <TBody>
          {connections.map((c) => {
            const health = healthOf(c);
            return (
              <tr key={c.providerId} data-testid={`connection-${c.providerId}`}>
                <Td>
                  <ProviderName env={env} connection={c} />
                </Td>
                <Td>
                  <Adapter connection={c} />
                </Td>
                <Td>
                  <StateBadge connection={c} />
                </Td>
                <Td className="whitespace-nowrap tabular-nums">{errorRateText(health?.lastHour)}</Td>
                <Td className="whitespace-nowrap tabular-nums">{errorRateText(health?.lastDay)}</Td>
                <Td className="min-w-48">
                  <LastError connection={c} />
                </Td>
              </tr>
            );
          })}
        </TBody>
      </Table>
      {/* below md the table would scroll sideways and hide the state: a card per provider instead */}
      <ul aria-label="Provider connections, in catalog order" className="space-y-3 md:hidden">
        {connections.map((c) => (
          <li
            key={c.providerId}
            data-testid={`connection-card-${c.providerId}`}
            className="rounded-lg border border-gray-200 bg-white p-4 text-sm"
          >
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0 flex-1">
                <ProviderName env={env} connection={c} />
              </div>
              <div className="shrink-0">
                <StateBadge connection={c} />
              </div>
            </div>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
              <dt className="text-gray-700">Production adapter</dt>
              <dd className="min-w-0">
                <Adapter connection={c} />
              </dd>
              <dt className="text-gray-700">Errors, last hour</dt>
              <dd className="tabular-nums">{errorRateText(healthOf(c)?.lastHour)}</dd>
              <dt className="text-gray-700">Errors, last day</dt>
              <dd className="tabular-nums">{errorRateText(healthOf(c)?.lastDay)}</dd>
              <dt className="text-gray-700">Last error</dt>
              <dd className="min-w-0">
                <LastError connection={c} />
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The provider's name, linking its connection page, over its id. */
function ProviderName({ env, connection: c }: { env: string; connection: TConnection }) {
  return (
    <>
      <Link
        href={`/operator/${env}/connections/${c.providerId}`}
        className="font-semibold text-blue-800 underline"
      >
        {c.providerName}
      </Link>
      <div className="font-mono text-xs break-all text-gray-700">{c.providerId}</div>
    </>
  );
}

/** The catalog's production adapter, and the one the connection uses when it differs. */
function Adapter({ connection: c }: { connection: TConnection }) {
  return (
    <>
      <span className="font-mono text-xs">{c.productionAdapter}</span>
      {c.adapter && c.adapter !== c.productionAdapter ? (
        <div className="text-xs text-gray-700">
          connected through <span className="font-mono">{c.adapter}</span>
        </div>
      ) : null}
    </>
  );
}

function StateBadge({ connection: c }: { connection: TConnection }) {
  const badge = STATE_BADGES[c.state];
  return (
    <Badge tone={badge.tone}>
      <span data-testid="connection-state">{badge.label}</span>
    </Badge>
  );
}

/** The last error's message and when it happened, or "—". */
function LastError({ connection: c }: { connection: TConnection }) {
  return c.lastError ? (
    <>
      <div className="break-words">{c.lastError}</div>
      <div className="text-xs whitespace-nowrap text-gray-700">{formatTime(c.lastErrorAt)}</div>
    </>
  ) : (
    "—"
  );
}
