"use client";
/**
 * The endpoint of an app's webhook: URL, on/off and the subscribed event types (a grouped
 * checklist), saved with PATCH …/webhook-config. API errors show on the field they name.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, Form, FormError, Input } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import type { TEventType } from "@/lib/webhooks/event-types";
import { EVENT_GROUPS } from "./event-groups";
import {
  toCachedConfig,
  webhookConfigPath,
  webhookKeys,
  type TWebhookConfig,
  type TWebhookConfigWithSecret,
} from "./queries";

const ALL_EVENTS: TEventType[] = EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.type));
const FIELDS = ["url", "enabled", "events"];

function sameEvents(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((e) => b.includes(e));
}

export function WebhookSettings({ clientId, config }: { clientId: string; config: TWebhookConfig }) {
  const { env, role, permissions } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [url, setUrl] = useState(config.url ?? "");
  const [enabled, setEnabled] = useState(config.enabled);
  const [events, setEvents] = useState<string[]>(config.events);
  // A saved change (or a refetch showing another member's) resets the form to what the server holds.
  const [shown, setShown] = useState(config);
  if (shown !== config) {
    setShown(config);
    setUrl(config.url ?? "");
    setEnabled(config.enabled);
    setEvents(config.events);
  }
  const mutation = useMutation({
    mutationFn: () =>
      api<TWebhookConfigWithSecret>(env, webhookConfigPath(clientId), {
        method: "PATCH",
        body: { url: url.trim() || null, enabled, events },
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(webhookKeys.config(env, clientId), toCachedConfig(saved));
      toast.show({ message: "Webhook settings saved" });
    },
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const eventsError = error?.fieldError("events");
  const canWrite = permissions.write;
  const dirty =
    url.trim() !== (config.url ?? "") || enabled !== config.enabled || !sameEvents(events, config.events);
  const toggle = (type: string, on: boolean) =>
    setEvents((all) =>
      on ? ALL_EVENTS.filter((e) => e === type || all.includes(e)) : all.filter((e) => e !== type),
    );

  return (
    <Card title="Endpoint">
      <Form className="space-y-5" onSubmit={() => mutation.mutate()}>
        {canWrite ? null : (
          <p className="text-sm text-gray-700">
            Your role ({role}) can read the webhook settings but not change them.
          </p>
        )}
        <Input
          label="Webhook URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={env === "sandbox" ? "http://localhost:4000/webhooks" : "https://example.com/webhooks"}
          value={url}
          disabled={!canWrite}
          onChange={(e) => setUrl(e.target.value)}
          error={error?.fieldError("url")}
          description={
            env === "sandbox"
              ? "Where the service POSTs events: http or https in the sandbox."
              : "Where the service POSTs events: https only in production."
          }
        />
        <Checkbox
          label="Enabled"
          checked={enabled}
          disabled={!canWrite}
          onChange={(e) => setEnabled(e.target.checked)}
          error={error?.fieldError("enabled")}
          description="Deliver the selected events to the URL. Test events and redeliveries are sent even while this is off."
        />
        <fieldset className="space-y-4" aria-describedby={eventsError ? "webhook-events-error" : undefined}>
          <legend className="text-sm font-medium text-gray-900">Events</legend>
          <div className="-mt-2 flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-gray-600">
              {events.length === 0
                ? "None selected: only test events and redeliveries are sent."
                : `${events.length} of ${ALL_EVENTS.length} selected.`}
            </p>
            {canWrite ? (
              <span className="flex gap-1">
                <Button variant="ghost" size="sm" onClick={() => setEvents(ALL_EVENTS)}>
                  Select all events
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setEvents([])}>
                  Clear events
                </Button>
              </span>
            ) : null}
          </div>
          {EVENT_GROUPS.map((group) => (
            <fieldset
              key={group.id}
              className="space-y-2 rounded-md border border-gray-200 p-3"
              aria-describedby={`webhook-group-${group.id}`}
            >
              <legend className="px-1 text-sm font-semibold text-gray-900">{group.label}</legend>
              <p id={`webhook-group-${group.id}`} className="text-sm text-gray-600">
                {group.description}
              </p>
              {group.events.map((event) => (
                <Checkbox
                  key={event.type}
                  label={<span className="font-mono text-xs break-all">{event.type}</span>}
                  description={event.description}
                  checked={events.includes(event.type)}
                  disabled={!canWrite}
                  onChange={(e) => toggle(event.type, e.target.checked)}
                />
              ))}
            </fieldset>
          ))}
          {eventsError ? (
            <p id="webhook-events-error" role="alert" className="text-sm font-medium text-red-700">
              {eventsError}
            </p>
          ) : null}
        </fieldset>
        <FormError
          message={
            mutation.error && !FIELDS.some((f) => error?.fieldError(f)) ? errorMessage(mutation.error) : null
          }
        />
        {canWrite ? (
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" pending={mutation.isPending} disabled={!dirty}>
              Save
            </Button>
            {dirty ? <span className="text-sm text-gray-600">Unsaved changes</span> : null}
          </div>
        ) : null}
      </Form>
    </Card>
  );
}
