"use client";
/**
 * `Send test event`: queues a webhook.test delivery (POST …/webhook-config/test) and shows the
 * receiver's answer to its first attempt inline: status, duration and the start of the body, or
 * why no answer came. The delivery itself appears in the log like any other.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Loader2, Send } from "lucide-react";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { api, errorMessage, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormError } from "@/components/ui/field";
import { httpTone } from "@/components/verifications/format";
import { formatMs } from "./format";
import { AttemptResponseBody } from "./response-body";
import {
  useDelivery,
  webhookConfigPath,
  webhookKeys,
  type TDeliveryDetail,
  type TWebhookConfig,
} from "./queries";

function TestAnswer({ clientId, deliveryId }: { clientId: string; deliveryId: string }) {
  const { env } = useConsole();
  const query = useDelivery(clientId, deliveryId);
  const delivery = query.data;
  const attempt = delivery?.attempts[0];
  const href = `/console/${env}/apps/${encodeURIComponent(clientId)}/webhooks/${encodeURIComponent(deliveryId)}`;
  let body: ReactNode;
  if (!delivery || (!attempt && delivery.status === "pending")) {
    body = (
      <p className="flex items-center gap-2 text-sm text-gray-700">
        <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
        Sent. Waiting for your receiver&apos;s answer…
      </p>
    );
  } else if (!attempt) {
    body = <p className="text-sm text-gray-800">{delivery.lastError ?? "The test event was not sent."}</p>;
  } else {
    body = (
      <div className="space-y-2">
        <p className="flex flex-wrap items-center gap-2 text-sm text-gray-900">
          {attempt.responseStatus !== null ? (
            <Badge tone={httpTone(attempt.responseStatus)}>HTTP {attempt.responseStatus}</Badge>
          ) : (
            <Badge tone="red">No response</Badge>
          )}
          <span>after {formatMs(attempt.durationMs)}</span>
          <span className="font-semibold">
            {attempt.success
              ? "Your receiver accepted the test event."
              : "The attempt failed; the event is retried like any other."}
          </span>
        </p>
        {attempt.error ? <p className="text-sm break-words text-red-800">{attempt.error}</p> : null}
        <AttemptResponseBody attempt={attempt} />
      </div>
    );
  }
  return (
    <div className="space-y-2 rounded-md border border-gray-200 bg-gray-50 p-3">
      <div role="status">{body}</div>
      {query.isError ? <FormError message={errorMessage(query.error)} /> : null}
      <Link href={href} className="inline-block text-sm font-semibold text-blue-800 underline">
        View test delivery
      </Link>
    </div>
  );
}

export function TestEvent({ clientId, config }: { clientId: string; config: TWebhookConfig }) {
  const { env, permissions } = useConsole();
  const queryClient = useQueryClient();
  const [deliveryId, setDeliveryId] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => api<TDeliveryDetail>(env, `${webhookConfigPath(clientId)}/test`, { method: "POST" }),
    onSuccess: (delivery) => {
      queryClient.setQueryData(webhookKeys.delivery(env, clientId, delivery.deliveryId), delivery);
      setDeliveryId(delivery.deliveryId);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(env, clientId) });
    },
  });
  if (!permissions.write) return null;
  return (
    <Card title="Test your receiver">
      <div className="space-y-3">
        <p className="text-sm text-gray-700">
          Sends a <code className="font-mono text-xs">webhook.test</code> event to the saved URL, signed like
          every delivery, whatever events are selected and even while the webhook is disabled.
        </p>
        {config.url ? (
          <p className="text-sm break-all text-gray-700">
            To <code className="font-mono text-xs">{config.url}</code>
          </p>
        ) : (
          <p className="text-sm text-gray-700">Save a webhook URL first.</p>
        )}
        <Button
          icon={<Send aria-hidden className="h-4 w-4" />}
          pending={send.isPending}
          disabled={!config.url}
          onClick={() => send.mutate()}
        >
          Send test event
        </Button>
        <FormError message={formErrorMessage(send.error)} />
        {deliveryId ? <TestAnswer key={deliveryId} clientId={clientId} deliveryId={deliveryId} /> : null}
      </div>
    </Card>
  );
}
