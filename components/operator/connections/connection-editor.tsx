"use client";
/**
 * The settings form of a connection (./connection-detail.tsx): generated from the chosen
 * adapter's settings schema (GET /v1/operator/connections/schema), with the enabled switch, Save
 * (PUT, the API's field errors on their fields, the others on the form's own error line) and
 * Disconnect (DELETE, confirmed); the "Try it" card (./connection-try-it.tsx) below it.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Save, Unplug } from "lucide-react";
import { useMemo, useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Checkbox, Form, FormError, Select } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { useOperator } from "../context";
import { ConnectionTryIt } from "./connection-try-it";
import {
  connectionKeys,
  connectionPath,
  type TConnection,
  type TConnectionSchemas,
  type TTestResult,
} from "./queries";
import { SettingFields } from "./settings-fields";
import {
  detailsNoFieldShows,
  draftOf,
  fieldsOf,
  settingsOf,
  type TDraft,
  type TDraftValue,
  type TJsonSchema,
} from "./settings-model";

function storedSecretsOf(c: TConnection): string[] {
  const listed = (c as { secretsSet?: string[] }).secretsSet;
  if (Array.isArray(listed)) return listed;
  return c.clientSecretSet ? ["clientSecret"] : [];
}

/** The form of one adapter; remounted (fresh draft, secrets empty) when the saved connection changes. */
export function ConnectionEditor({
  connection,
  schemas,
  lastTest,
  onSaved,
}: {
  connection: TConnection;
  schemas: TConnectionSchemas;
  lastTest: TTestResult | null;
  /** a save or a disconnect: the form starts again from the saved connection */
  onSaved: () => void;
}) {
  const { env } = useOperator();
  const queryClient = useQueryClient();
  const toast = useToast();
  const adapters = schemas.adapters;
  const initialAdapter =
    connection.adapter ??
    (adapters.some((a) => a.adapter === connection.productionAdapter)
      ? connection.productionAdapter
      : (adapters[0]?.adapter ?? "oidc"));
  const [adapter, setAdapter] = useState<string>(initialAdapter);
  const [enabled, setEnabled] = useState(connection.connectionId ? connection.enabled : true);
  const [drafts, setDrafts] = useState<Record<string, TDraft>>({});
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [disconnecting, setDisconnecting] = useState<TConnection | null>(null);

  const entry = adapters.find((a) => a.adapter === adapter);
  const fields = useMemo(() => (entry ? fieldsOf(entry.schema as TJsonSchema, entry.secrets) : []), [entry]);
  const stored = adapter === connection.adapter;
  const draft = drafts[adapter] ?? draftOf(fields, stored ? connection.settings : null);
  const setField = (path: string, value: TDraftValue) =>
    setDrafts((all) => ({ ...all, [adapter]: { ...draft, [path]: value } }));

  const save = useMutation({
    mutationFn: (body: { adapter: string; enabled: boolean; settings: Record<string, unknown> }) =>
      api<TConnection>(env, connectionPath(connection.providerId), { method: "PUT", body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(connectionKeys.detail(env, connection.providerId), saved);
      void queryClient.invalidateQueries({ queryKey: connectionKeys.list(env) });
      onSaved();
      toast.show({ tone: "success", message: `${connection.providerName}: connection saved` });
    },
  });
  const disconnect = useMutation({
    mutationFn: () => api<void>(env, connectionPath(connection.providerId), { method: "DELETE" }),
    onSuccess: async () => {
      setDisconnecting(null);
      // the form starts again from the refetched (not connected) state
      await queryClient.invalidateQueries({ queryKey: connectionKeys.all(env) });
      onSaved();
      toast.show({ tone: "success", message: `${connection.providerName} disconnected` });
    },
  });

  const apiError = save.error instanceof ApiRequestError ? save.error : undefined;
  const errorOf = (path: string) => localErrors[path] ?? apiError?.fieldError(`settings.${path}`);
  // the answer's details that no field shows go to the form's own error line
  const unshown = detailsNoFieldShows(fields, apiError?.details ?? []);
  const formError = save.error
    ? apiError && apiError.details.length && !unshown.length
      ? "Check the highlighted fields."
      : apiError && unshown.length
        ? `${apiError.message}: ${unshown.map((d) => `${d.path} ${d.message}`).join("; ")}`
        : errorMessage(save.error)
    : Object.keys(localErrors).length
      ? "Check the highlighted fields."
      : null;
  const insecure = draft.allowInsecureRequests === true;
  const connected = connection.connectionId !== null;

  const onSave = () => {
    const { settings, errors } = settingsOf(fields, draft);
    setLocalErrors(errors);
    if (Object.keys(errors).length) return;
    save.mutate({ adapter, enabled, settings });
  };

  return (
    <>
      <Card title="Settings">
        <Form onSubmit={onSave} noValidate aria-label="Connection settings" className="space-y-4">
          <Select
            label="Adapter"
            description="The protocol the broker speaks with this provider's identity service."
            value={adapter}
            onChange={(e) => setAdapter(e.target.value)}
            error={apiError?.fieldError("adapter")}
          >
            {adapters.map((a) => (
              <option key={a.adapter} value={a.adapter}>
                {a.title} ({a.adapter})
              </option>
            ))}
          </Select>
          <Checkbox
            label="Enabled"
            description="A disabled connection is kept but runs nothing: the provider is not offered."
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
            error={apiError?.fieldError("enabled")}
          />
          {insecure ? (
            <p
              className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
              data-testid="insecure-warning"
            >
              <span className="font-semibold">Insecure requests allowed.</span> An http issuer or metadata URL
              is accepted and nothing protects the traffic to it: for local testing only, never for a real
              identity provider.
            </p>
          ) : null}
          <SettingFields
            fields={fields}
            draft={draft}
            onChange={setField}
            errorOf={errorOf}
            storedSecrets={stored ? storedSecretsOf(connection) : []}
            upstreamClaims={lastTest?.outcome === "success" ? lastTest.rawClaims : null}
          />
          <FormError message={formError} />
          <div className="flex flex-wrap items-center gap-3 border-t border-gray-100 pt-4">
            <Button type="submit" pending={save.isPending} icon={<Save aria-hidden className="h-4 w-4" />}>
              Save
            </Button>
            {connected ? (
              <Button
                variant="danger"
                onClick={() => setDisconnecting(connection)}
                icon={<Unplug aria-hidden className="h-4 w-4" />}
              >
                Disconnect
              </Button>
            ) : null}
          </div>
        </Form>
      </Card>

      <ConnectionTryIt connection={connection} lastTest={lastTest} />

      <ConfirmDialog
        subject={disconnecting}
        onClose={() => {
          setDisconnecting(null);
          disconnect.reset();
        }}
        title={`Disconnect ${connection.providerName}?`}
        description="The connection and its secrets are deleted. Production sessions of this provider can no longer start, and sign-ins under way fail with provider_unavailable."
        error={<FormError message={disconnect.error ? errorMessage(disconnect.error) : null} />}
        confirmLabel="Disconnect"
        pending={disconnect.isPending}
        onConfirm={() => disconnect.mutate()}
      />
    </>
  );
}
