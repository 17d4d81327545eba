"use client";
/**
 * One provider's connection in this environment: its state, health and last error, what to
 * register at a SAML identity provider, and the settings form (./connection-editor.tsx) with
 * Check connection and Test sign-in (./connection-try-it.tsx). The result tab of a test sign-in
 * hands its claims to this page (BroadcastChannel, same origin) for the claim-mapping preview and
 * the last test sign-in.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState, type ReactNode } from "react";
import { api } from "@/components/console/api";
import { QueryError } from "@/components/console/query-error";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Loading } from "@/components/ui/spinner";
import { formatTime } from "../format";
import { useOperator } from "../context";
import { ConnectionEditor } from "./connection-editor";
import {
  connectionKeys,
  connectionPath,
  errorRateText,
  healthOf,
  isTestSignInMessage,
  STATE_BADGES,
  TEST_SIGN_IN_CHANNEL,
  type TConnection,
  type TConnectionSchemas,
  type TTestResult,
} from "./queries";

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

export function ConnectionDetail({ providerId }: { providerId: string }) {
  const { env } = useOperator();
  const connection = useQuery({
    queryKey: connectionKeys.detail(env, providerId),
    queryFn: () => api<TConnection>(env, connectionPath(providerId)),
  });
  const schemas = useQuery({
    queryKey: connectionKeys.schemas(env),
    queryFn: () => api<TConnectionSchemas>(env, "/v1/operator/connections/schema"),
    staleTime: 5 * 60_000,
  });
  // the result tab of a test sign-in hands its claims over (same origin, never stored)
  const [lastTest, setLastTest] = useState<TTestResult | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(TEST_SIGN_IN_CHANNEL);
    channel.onmessage = (event: MessageEvent) => {
      if (isTestSignInMessage(event.data) && event.data.env === env && event.data.providerId === providerId)
        setLastTest(event.data.result);
    };
    return () => channel.close();
  }, [env, providerId]);

  const back = (
    <Link href={`/operator/${env}/connections`} className="text-sm font-semibold text-blue-800 underline">
      Back to connections
    </Link>
  );
  if (connection.isPending || schemas.isPending) return <Loading label="Loading the connection" />;
  if (connection.isError || schemas.isError) {
    const error = connection.error ?? schemas.error;
    return (
      <div className="space-y-4">
        {back}
        <QueryError
          error={error}
          onRetry={() => {
            void connection.refetch();
            void schemas.refetch();
          }}
        />
      </div>
    );
  }
  const c = connection.data;
  const badge = STATE_BADGES[c.state];
  const health = healthOf(c);
  const sp = (c as { serviceProvider?: { entityId: string; metadataUrl: string; acsUrl: string } })
    .serviceProvider;
  return (
    <div className="space-y-6">
      {back}
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold break-words">{c.providerName}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-gray-700">
          <Badge tone={badge.tone}>
            <span data-testid="connection-state">{badge.label}</span>
          </Badge>
          <span className="font-mono text-xs">{c.providerId}</span>
          <span>
            Production adapter: <span className="font-mono text-xs">{c.productionAdapter}</span>
          </span>
        </div>
      </div>
      <Card title="Health">
        <Facts
          items={[
            ["Errors, last hour", errorRateText(health?.lastHour)],
            ["Errors, last day", errorRateText(health?.lastDay)],
            ["Last success", c.lastSuccessAt ? formatTime(c.lastSuccessAt) : "—"],
            ["Last error", c.lastError ? `${c.lastError} (${formatTime(c.lastErrorAt)})` : "—"],
            ["Connected", c.createdAt ? formatTime(c.createdAt) : "—"],
            ["Changed", c.updatedAt ? formatTime(c.updatedAt) : "—"],
          ]}
        />
      </Card>
      {sp ? (
        <Card title="Register at the identity provider">
          <Facts
            items={[
              [
                "SP entity ID",
                <code key="e" className="text-xs break-all">
                  {sp.entityId}
                </code>,
              ],
              [
                "SP metadata",
                <code key="m" className="text-xs break-all">
                  {sp.metadataUrl}
                </code>,
              ],
              [
                "Assertion consumer service",
                <code key="a" className="text-xs break-all">
                  {sp.acsUrl}
                </code>,
              ],
            ]}
          />
        </Card>
      ) : null}
      <ConnectionEditor
        key={version}
        connection={c}
        schemas={schemas.data}
        lastTest={lastTest}
        onSaved={() => setVersion((v) => v + 1)}
      />
    </div>
  );
}
