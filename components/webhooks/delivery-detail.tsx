"use client";
/**
 * One webhook delivery: its state, the exact payload that was signed, and every attempt with the
 * request headers sent and the receiver's answer (status, headers, start of the body).
 * `Redeliver` sends a finished delivery once more; the page refreshes while it is pending.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, RotateCw } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { useCurrentApp } from "@/components/apps/app-frame";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { FormError } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDateTime, httpTone } from "@/components/verifications/format";
import { DELIVERY_STATUS_LABEL, DELIVERY_STATUS_TONE, formatMs, prettyJson } from "./format";
import { AttemptResponseBody } from "./response-body";
import {
  deliveriesPath,
  useDelivery,
  webhookKeys,
  type TDeliveryAttemptDetail,
  type TDeliveryDetail,
} from "./queries";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-gray-900">{children}</dd>
    </div>
  );
}

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="text-sm text-gray-600">None</p>;
  return (
    <dl className="space-y-1 font-mono text-xs">
      {entries.map(([name, value]) => (
        <div key={name} className="grid gap-x-3 sm:grid-cols-[minmax(0,14rem)_1fr]">
          <dt className="font-semibold break-all text-gray-700">{name}</dt>
          <dd className="break-all text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Attempt({ attempt }: { attempt: TDeliveryAttemptDetail }) {
  return (
    <li className="space-y-3 rounded-md border border-gray-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold text-gray-900">Attempt {attempt.attemptNumber}</h3>
        <Badge tone={attempt.trigger === "manual" ? "purple" : "gray"}>
          {attempt.trigger === "manual" ? "Manual" : "Automatic"}
        </Badge>
        {attempt.responseStatus !== null ? (
          <Badge tone={httpTone(attempt.responseStatus)}>HTTP {attempt.responseStatus}</Badge>
        ) : (
          <Badge tone="red">No response</Badge>
        )}
        <span className="text-sm text-gray-700">{formatMs(attempt.durationMs)}</span>
        <time dateTime={attempt.startedAt} className="text-sm text-gray-600">
          {formatDateTime(attempt.startedAt)}
        </time>
      </div>
      {attempt.error ? <p className="text-sm break-words text-red-800">{attempt.error}</p> : null}
      <details className="rounded-md bg-gray-50 p-2">
        <summary className="cursor-pointer text-sm font-semibold text-gray-900">Request headers</summary>
        <div className="mt-2">
          {attempt.requestHeaders ? (
            <Headers headers={attempt.requestHeaders} />
          ) : (
            <p className="text-sm text-gray-600">Not recorded for this attempt.</p>
          )}
        </div>
      </details>
      {attempt.responseHeaders ? (
        <details className="rounded-md bg-gray-50 p-2">
          <summary className="cursor-pointer text-sm font-semibold text-gray-900">Response headers</summary>
          <div className="mt-2">
            <Headers headers={attempt.responseHeaders} />
          </div>
        </details>
      ) : null}
      <AttemptResponseBody attempt={attempt} />
    </li>
  );
}

function Redeliver({ clientId, delivery }: { clientId: string; delivery: TDeliveryDetail }) {
  const { env, permissions } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const mutation = useMutation({
    mutationFn: () =>
      api<TDeliveryDetail>(
        env,
        `${deliveriesPath(clientId)}/${encodeURIComponent(delivery.deliveryId)}/redeliver`,
        { method: "POST" },
      ),
    onSuccess: (queued) => {
      queryClient.setQueryData(webhookKeys.delivery(env, clientId, queued.deliveryId), queued);
      toast.show({ message: "Redelivery queued" });
    },
    // not awaited: the button's pending state ends with the API's answer (the delivery shows as
    // pending at once, above), not when the list and this delivery have been refetched
    onSettled: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(env, clientId) }),
  });
  if (!permissions.write) return null;
  const pending = delivery.status === "pending";
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          icon={<RotateCw aria-hidden className="h-4 w-4" />}
          pending={mutation.isPending}
          disabled={pending}
          onClick={() => mutation.mutate()}
        >
          Redeliver
        </Button>
        <p className="text-sm text-gray-700">
          {pending
            ? "Pending: its next attempt is already queued."
            : "Sends the same body once more, now, to the current URL with the current secret."}
        </p>
      </div>
      <FormError
        message={
          mutation.error
            ? error?.fieldError("url")
              ? "No webhook URL is configured. Save one on the Webhooks tab first."
              : errorMessage(mutation.error)
            : null
        }
      />
    </div>
  );
}

export function DeliveryDetail({ deliveryId }: { deliveryId: string }) {
  const { env } = useConsole();
  const app = useCurrentApp();
  const query = useDelivery(app.clientId, deliveryId);
  const back = (
    <Link
      href={`/console/${env}/apps/${encodeURIComponent(app.clientId)}/webhooks`}
      className="inline-flex items-center gap-1 text-sm font-semibold text-blue-800 underline"
    >
      <ArrowLeft aria-hidden className="h-4 w-4" />
      All deliveries
    </Link>
  );
  if (query.isPending)
    return (
      <div className="space-y-2">
        {back}
        <Loading label="Loading the delivery" />
      </div>
    );
  if (query.isError && !query.data)
    return (
      <div className="space-y-3">
        {back}
        <h2 className="text-xl font-semibold">Webhook delivery</h2>
        <FormError
          message={
            query.error instanceof ApiRequestError && query.error.status === 404
              ? `This app has no webhook delivery ${deliveryId}.`
              : errorMessage(query.error)
          }
        />
        <Button variant="secondary" onClick={() => query.refetch()}>
          Try again
        </Button>
      </div>
    );
  const d = query.data;
  return (
    <div className="space-y-6">
      {back}
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="text-xl font-semibold">Webhook delivery</h2>
          <span data-testid="delivery-status">
            <Badge tone={DELIVERY_STATUS_TONE[d.status]} className="text-sm">
              {DELIVERY_STATUS_LABEL[d.status]}
            </Badge>
          </span>
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <code className="font-mono text-sm break-all text-gray-800">{d.deliveryId}</code>
          <CopyButton value={d.deliveryId} label="Copy ID" />
        </div>
        {d.status === "pending" ? (
          <p className="text-sm text-gray-600">Pending: this page refreshes by itself.</p>
        ) : null}
        <Redeliver clientId={app.clientId} delivery={d} />
      </div>
      {query.isError ? <FormError message={`Refreshing failed: ${errorMessage(query.error)}`} /> : null}

      <Card title="Details">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Fact label="Event type">
            <code className="font-mono text-xs break-all">{d.eventType}</code>
          </Fact>
          <Fact label="Event ID">
            {d.eventId ? <code className="font-mono text-xs break-all">{d.eventId}</code> : "—"}
          </Fact>
          <Fact label="URL">
            <code className="font-mono text-xs break-all">{d.url}</code>
          </Fact>
          <Fact label="Attempts">{d.attemptCount}</Fact>
          <Fact label="Created">
            <time dateTime={d.createdAt}>{formatDateTime(d.createdAt)}</time>
          </Fact>
          <Fact label="Delivered">
            {d.deliveredAt ? <time dateTime={d.deliveredAt}>{formatDateTime(d.deliveredAt)}</time> : "—"}
          </Fact>
          <Fact label="Next attempt">
            {d.nextAttemptAt ? (
              <time dateTime={d.nextAttemptAt}>{formatDateTime(d.nextAttemptAt)}</time>
            ) : (
              "—"
            )}
          </Fact>
          <Fact label="Last error">{d.lastError ?? "—"}</Fact>
        </dl>
      </Card>

      <Card title="Payload">
        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-gray-700">
              Formatted for reading. The signature covers the raw body exactly as sent: verify it on the bytes
              you receive.
            </p>
            <CopyButton value={d.body} label="Copy raw body" />
          </div>
          <pre
            tabIndex={0}
            className="max-h-96 overflow-y-auto rounded-md border border-gray-200 bg-gray-50 p-3 font-mono text-xs break-all whitespace-pre-wrap text-gray-900"
          >
            {prettyJson(d.body)}
          </pre>
        </div>
      </Card>

      <Card title="Attempts">
        {d.attempts.length === 0 ? (
          <p className="text-sm text-gray-700">No attempt yet: the first one is on its way.</p>
        ) : (
          <ol className="space-y-3">
            {d.attempts.map((a) => (
              <Attempt key={a.attemptNumber} attempt={a} />
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}
