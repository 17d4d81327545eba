"use client";
/**
 * Every catalog provider with its connection in this environment: the production adapter the
 * catalog names, the connection's state, its error rate over the last hour and day (when the
 * API reports health) and its last error. Each provider's name opens its connection page.
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
      <Table caption="Provider connections, in catalog order">
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
            const badge = STATE_BADGES[c.state];
            const health = healthOf(c);
            return (
              <tr key={c.providerId} data-testid={`connection-${c.providerId}`}>
                <Td>
                  <Link
                    href={`/operator/${env}/connections/${c.providerId}`}
                    className="font-semibold text-blue-800 underline"
                  >
                    {c.providerName}
                  </Link>
                  <div className="font-mono text-xs text-gray-700">{c.providerId}</div>
                </Td>
                <Td>
                  <span className="font-mono text-xs">{c.productionAdapter}</span>
                  {c.adapter && c.adapter !== c.productionAdapter ? (
                    <div className="text-xs text-gray-700">
                      connected through <span className="font-mono">{c.adapter}</span>
                    </div>
                  ) : null}
                </Td>
                <Td>
                  <Badge tone={badge.tone}>
                    <span data-testid="connection-state">{badge.label}</span>
                  </Badge>
                </Td>
                <Td className="whitespace-nowrap tabular-nums">{errorRateText(health?.lastHour)}</Td>
                <Td className="whitespace-nowrap tabular-nums">{errorRateText(health?.lastDay)}</Td>
                <Td className="min-w-48">
                  {c.lastError ? (
                    <>
                      <div className="break-words">{c.lastError}</div>
                      <div className="text-xs whitespace-nowrap text-gray-700">
                        {formatTime(c.lastErrorAt)}
                      </div>
                    </>
                  ) : (
                    "—"
                  )}
                </Td>
              </tr>
            );
          })}
        </TBody>
      </Table>
    </section>
  );
}
