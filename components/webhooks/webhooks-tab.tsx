"use client";
/**
 * An app's Webhooks tab: the endpoint (URL, on/off, events), a test event with the receiver's
 * answer, the signing secret, the delivery log and how to verify signatures.
 */
import { useCurrentApp } from "@/components/apps/app-frame";
import { Loading } from "@/components/ui/spinner";
import { DeliveryLog } from "./delivery-log";
import { useWebhookConfig } from "./queries";
import { SigningSecret } from "./signing-secret";
import { TestEvent } from "./test-event";
import { VerifySnippet } from "./verify-snippet";
import { WebhookSettings } from "./webhook-settings";
import { QueryError } from "@/components/console/query-error";

export function WebhooksTab() {
  const app = useCurrentApp();
  const config = useWebhookConfig(app.clientId);
  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-sm text-gray-700">
        The service POSTs an event to your server as a verification session moves on, so you need not poll.
        Deliveries are retried when your receiver fails, and each one is logged below.
      </p>
      {config.isPending ? (
        <Loading label="Loading the webhook settings" />
      ) : config.isError ? (
        <QueryError error={config.error} onRetry={() => config.refetch()} />
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <div className="min-w-0">
            <WebhookSettings clientId={app.clientId} config={config.data} />
          </div>
          <div className="min-w-0 space-y-6">
            <TestEvent clientId={app.clientId} config={config.data} />
            <SigningSecret clientId={app.clientId} config={config.data} />
          </div>
        </div>
      )}
      <DeliveryLog clientId={app.clientId} />
      <VerifySnippet />
    </div>
  );
}
