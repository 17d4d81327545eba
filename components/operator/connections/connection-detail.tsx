"use client";
/**
 * One provider's connection in this environment: its state, health and last error; the form
 * generated from the chosen adapter's settings schema (GET /v1/operator/connections/schema) with
 * the enabled switch, Save (PUT, the API's field errors on their fields) and Disconnect (DELETE,
 * confirmed); "Check connection" with the check's answer; "Test sign-in", which opens the
 * upstream in a new tab and receives that tab's claims (BroadcastChannel, same origin) for the
 * claim-mapping preview. Check and Test sign-in run the saved connection.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FlaskConical, PlugZap, Save, Unplug } from "lucide-react";
import Link from "next/link";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { QueryError } from "@/components/console/query-error";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Checkbox, Form, FormError, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatTime } from "../format";
import { useOperator } from "../context";
import {
  connectionKeys,
  connectionPath,
  errorRateText,
  healthOf,
  isTestSignInMessage,
  STATE_BADGES,
  TEST_SIGN_IN_CHANNEL,
  type TConnection,
  type TConnectionCheck,
  type TConnectionSchemas,
  type TTestResult,
} from "./queries";
import { SettingFields } from "./settings-fields";
import {
  draftOf,
  fieldsOf,
  settingsOf,
  type TDraft,
  type TDraftValue,
  type TJsonSchema,
} from "./settings-model";
import { TestResultSummary } from "./test-result";

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

function storedSecretsOf(c: TConnection): string[] {
  const listed = (c as { secretsSet?: string[] }).secretsSet;
  if (Array.isArray(listed)) return listed;
  return c.clientSecretSet ? ["clientSecret"] : [];
}

function CheckAnswer({ answer }: { answer: TConnectionCheck }) {
  const { ok, error, warnings, checkedAt, ...rest } = answer as TConnectionCheck & { warnings?: string[] };
  return (
    <div className="space-y-2 rounded-md border border-gray-200 p-3" data-testid="check-answer">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={ok ? "green" : "red"}>
          <span data-testid="check-ok">{ok ? "Check passed" : "Check failed"}</span>
        </Badge>
        <span className="text-gray-700">{formatTime(checkedAt)}</span>
      </p>
      {error ? (
        <p className="text-sm break-words text-red-800" data-testid="check-error">
          {error}
        </p>
      ) : null}
      {warnings?.length ? (
        <ul className="list-disc space-y-1 pl-5 text-sm text-amber-900" aria-label="Warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-gray-700">No warnings.</p>
      )}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-blue-800">What the check found</summary>
        <pre className="mt-2 overflow-x-auto rounded bg-gray-50 p-2 text-xs">
          {JSON.stringify(rest, null, 2)}
        </pre>
      </details>
    </div>
  );
}

/** The form of one adapter; remounted (fresh draft, secrets empty) when the saved connection changes. */
function ConnectionEditor({
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
  const check = useMutation({
    mutationFn: () =>
      api<TConnectionCheck>(env, connectionPath(connection.providerId, "check"), { method: "POST" }),
    // a check moves the connection between connected and failing
    onSettled: () => void queryClient.invalidateQueries({ queryKey: connectionKeys.all(env) }),
  });
  const [signInUrl, setSignInUrl] = useState<string | null>(null);
  const testSignIn = useMutation({
    mutationFn: () =>
      api<{ url: string }>(env, connectionPath(connection.providerId, "test-sign-in"), { method: "POST" }),
  });

  const apiError = save.error instanceof ApiRequestError ? save.error : undefined;
  const errorOf = (path: string) => localErrors[path] ?? apiError?.fieldError(`settings.${path}`);
  // the answer's details that no field shows go to the form's own error line
  const fieldPaths = [
    ...fields.flatMap((f) => (f.kind === "group" ? [f.path, ...f.fields.map((g) => g.path)] : [f.path])),
  ];
  const unshown = (apiError?.details ?? []).filter(
    (d) =>
      d.path !== "adapter" &&
      d.path !== "enabled" &&
      !fieldPaths.some((p) =>
        [`settings.${p}`, `settings.${p}.`, `settings.${p}[`].some(
          (s) => d.path === s || d.path.startsWith(s),
        ),
      ),
  );
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

  const onTestSignIn = () => {
    setSignInUrl(null);
    // opened now, within the click (popup blockers), pointed at the upstream once the API answers
    const tab = window.open("", "_blank");
    testSignIn.mutate(undefined, {
      onSuccess: ({ url }) => {
        if (tab) {
          tab.opener = null;
          tab.location.href = url;
        } else setSignInUrl(url);
      },
      onError: () => tab?.close(),
    });
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

      <Card title="Try it">
        <div className="space-y-4">
          <p className="text-sm text-gray-700">
            {connected
              ? "Check connection and Test sign-in use the saved settings. The test sign-in opens the identity provider in a new tab; its claims are shown there and here, and are never stored."
              : "Save a connection first: Check connection and Test sign-in use the saved settings."}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button
              variant="secondary"
              disabled={!connected}
              pending={check.isPending}
              onClick={() => check.mutate()}
              icon={<PlugZap aria-hidden className="h-4 w-4" />}
            >
              Check connection
            </Button>
            <Button
              variant="secondary"
              disabled={!connected || connection.adapter === "wallet"}
              pending={testSignIn.isPending}
              onClick={onTestSignIn}
              icon={<FlaskConical aria-hidden className="h-4 w-4" />}
            >
              Test sign-in
            </Button>
          </div>
          <div aria-live="polite" className="space-y-3">
            {check.data ? <CheckAnswer answer={check.data} /> : null}
            {check.isError ? <FormError message={errorMessage(check.error)} /> : null}
            {testSignIn.isError ? <FormError message={errorMessage(testSignIn.error)} /> : null}
            {signInUrl ? (
              <p className="text-sm">
                The browser kept the new tab from opening:{" "}
                <a
                  href={signInUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-semibold text-blue-800 underline"
                >
                  open the test sign-in
                </a>
                .
              </p>
            ) : null}
            {lastTest ? <TestResultSummary result={lastTest} heading="Last test sign-in" /> : null}
          </div>
        </div>
      </Card>

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
