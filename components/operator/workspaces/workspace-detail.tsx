"use client";
/**
 * One workspace for the people who run the service: its overview figures, its members and its
 * apps of the environment shown, each with its providers' activation status and a link to the
 * latest activation ticket (the ticket page is where operators act). Read-only.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { api } from "@/components/console/api";
import { QueryError } from "@/components/console/query-error";
import { Badge, statusTone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Loading } from "@/components/ui/spinner";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { formatDate } from "@/components/verifications/format";
import { useOperator } from "../context";
import {
  DOMAIN_STATUS_LABELS,
  ENV_LABELS,
  failedDeliveries,
  failureTone,
  formatFailureRate,
  PROVIDER_STATUS_LABELS,
  ROLE_LABELS,
  workspaceKeys,
  type TWorkspaceDetail,
} from "./queries";

type TApp = TWorkspaceDetail["appsInEnvironment"][number];

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-gray-700">{label}</dt>
      <dd className="text-lg font-semibold break-words text-gray-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function AppSection({ app }: { app: TApp }) {
  const { env } = useOperator();
  const headingId = `app-${app.clientId}`;
  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid={`workspace-app-${app.clientId}`}
    >
      <div className="space-y-1">
        <h3 id={headingId} className="text-base font-semibold break-words text-gray-900">
          {app.name}
        </h3>
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-gray-700">
          <div className="flex min-w-0 gap-1">
            <dt>Client ID:</dt>
            <dd className="font-mono text-xs leading-5 break-all text-gray-900">{app.clientId}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Created:</dt>
            <dd className="text-gray-900">{formatDate(app.createdAt)}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Custom domain:</dt>
            <dd className="text-gray-900">
              {DOMAIN_STATUS_LABELS[app.customDomainStatus] ?? app.customDomainStatus}
            </dd>
          </div>
        </dl>
      </div>
      {app.providers.length === 0 ? (
        <p className="text-sm text-gray-700">No provider has been activated or requested for this app.</p>
      ) : (
        <Table caption={`Providers of ${app.name}`}>
          <thead>
            <tr>
              <Th>Provider</Th>
              <Th>Activation</Th>
              <Th>Enabled</Th>
              <Th>Activated</Th>
              <Th>Latest ticket</Th>
            </tr>
          </thead>
          <TBody>
            {app.providers.map((p) => (
              <tr key={p.providerId} data-testid="workspace-app-provider">
                <Td>
                  <div>{p.providerName}</div>
                  <div className="font-mono text-xs text-gray-700">{p.providerId}</div>
                </Td>
                <Td>
                  <Badge tone={p.status === "not_activated" ? "gray" : statusTone(p.status)}>
                    {PROVIDER_STATUS_LABELS[p.status] ?? p.status}
                  </Badge>
                </Td>
                <Td>{p.enabled ? "Yes" : "No"}</Td>
                <Td className="whitespace-nowrap">{formatDate(p.activatedAt)}</Td>
                <Td>
                  {p.currentTicketId ? (
                    <Link
                      href={`/operator/${env}/activations/${p.currentTicketId}`}
                      className="font-mono text-xs font-semibold break-all text-blue-800 underline"
                    >
                      {p.currentTicketId}
                      <span className="sr-only"> ({p.providerName} activation ticket)</span>
                    </Link>
                  ) : (
                    "—"
                  )}
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </section>
  );
}

export function WorkspaceDetail({ workspaceId }: { workspaceId: string }) {
  const { env } = useOperator();
  const query = useQuery({
    queryKey: workspaceKeys.detail(env, workspaceId),
    queryFn: ({ signal }) =>
      api<TWorkspaceDetail>(env, `/v1/operator/workspaces/${encodeURIComponent(workspaceId)}`, { signal }),
  });
  const back = (
    <Link href={`/operator/${env}/workspaces`} className="text-sm font-semibold text-blue-800 underline">
      Back to workspaces
    </Link>
  );
  if (query.isPending) return <Loading label="Loading the workspace" />;
  if (query.isError && !query.data) {
    return (
      <div className="space-y-4">
        {back}
        <h1 className="text-2xl font-semibold">Workspace</h1>
        <QueryError error={query.error} onRetry={() => query.refetch()} />
      </div>
    );
  }
  const w = query.data!;
  const envLabel = ENV_LABELS[env];
  const otherEnv = env === "sandbox" ? "production" : "sandbox";
  return (
    <div className="space-y-6">
      {back}
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold break-words">{w.name}</h1>
        <p className="text-sm text-gray-700">
          <span className="font-mono text-xs break-all">{w.workspaceId}</span> · created{" "}
          {formatDate(w.createdAt)}
        </p>
      </div>

      <Card title="Overview">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Figure label="Members" testId="workspace-members">
            {w.memberCount}
          </Figure>
          <Figure label="Apps" testId="workspace-apps">
            {w.apps.sandbox} sandbox · {w.apps.production} production
          </Figure>
          <Figure label={`Sessions in ${envLabel}, last 30 days`} testId="workspace-sessions">
            {w.sessionsLast30Days}
          </Figure>
          <Figure label={`Webhook failure rate in ${envLabel}, last 30 days`} testId="workspace-webhooks">
            <Badge tone={failureTone(w.webhooks.failureRate)}>
              {formatFailureRate(w.webhooks.failureRate)}
            </Badge>
            <span className="block text-sm font-normal text-gray-700">
              {failedDeliveries(w.webhooks, "deliveries")}
            </span>
          </Figure>
        </dl>
      </Card>

      <section className="space-y-2" aria-labelledby="workspace-members-heading">
        <h2 id="workspace-members-heading" className="text-lg font-semibold">
          Members
        </h2>
        <Table caption="Members, oldest first">
          <thead>
            <tr>
              <Th>Email</Th>
              <Th>Name</Th>
              <Th>Role</Th>
              <Th>Joined</Th>
            </tr>
          </thead>
          <TBody>
            {w.members.map((m) => (
              <tr key={m.userId} data-testid="workspace-member">
                <Td className="min-w-48 break-all">{m.email}</Td>
                <Td>{m.name ?? "—"}</Td>
                <Td>{ROLE_LABELS[m.role] ?? m.role}</Td>
                <Td className="whitespace-nowrap">{formatDate(m.joinedAt)}</Td>
              </tr>
            ))}
            {w.members.length === 0 ? (
              <tr>
                <Td colSpan={4}>This workspace has no members.</Td>
              </tr>
            ) : null}
          </TBody>
        </Table>
      </section>

      <section className="space-y-3" aria-labelledby="workspace-apps-heading">
        <div>
          <h2 id="workspace-apps-heading" className="text-lg font-semibold">
            Apps in {envLabel}
          </h2>
          <p className="text-sm text-gray-700">
            Newest first, with each provider&apos;s activation; open a ticket to review it.{" "}
            <Link
              href={`/operator/${otherEnv}/workspaces/${w.workspaceId}`}
              className="text-blue-800 underline"
            >
              Apps in {ENV_LABELS[otherEnv]}
            </Link>
          </p>
        </div>
        {w.appsInEnvironment.length === 0 ? (
          <p className="rounded-lg border border-dashed border-gray-300 bg-white px-4 py-6 text-sm text-gray-700">
            This workspace has no app in {envLabel}.
          </p>
        ) : (
          w.appsInEnvironment.map((app) => <AppSection key={app.clientId} app={app} />)
        )}
      </section>
    </div>
  );
}
