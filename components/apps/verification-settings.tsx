"use client";
/**
 * The app's verification settings on its Overview: which workflow runs by default, what it
 * verifies (identity claims or a minimum age) and how the hosted pages are branded. The last two
 * live in the default workflow's first verification node; `PATCH …/verification` writes them
 * there with the same checks as the workflow API, so the API's messages land on these fields.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api, ApiRequestError, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Card } from "@/components/ui/card";
import { Checkbox, Form, FormError, Input, Select } from "@/components/ui/field";
import { LogoField } from "@/components/ui/logo-field";
import { Loading } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { humanize } from "@/components/verifications/format";
import type { TNodeTypeDefinition } from "@/lib/workflows/node-types";
import type { TVerificationSettings } from "@/lib/workflows/settings";
import { appKeys, type TApp } from "./queries";
import { SaveButton } from "./save-button";
import { QueryError } from "@/components/console/query-error";

const settingsKey = (env: string, clientId: string) => [
  ...appKeys.detail(env as never, clientId),
  "verification",
];

function useSettings(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: settingsKey(env, clientId),
    queryFn: ({ signal }) =>
      api<TVerificationSettings>(env, `/v1/apps/${encodeURIComponent(clientId)}/verification`, { signal }),
  });
}

/** The claim names the workflow API accepts (from its node-type catalog, never a copy). */
function useClaimNames(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: [...appKeys.detail(env, clientId), "node-types"],
    queryFn: ({ signal }) =>
      api<TNodeTypeDefinition[]>(env, `/v1/apps/${encodeURIComponent(clientId)}/workflows/node-types`, {
        signal,
      }),
    select: (types) =>
      types.find((t) => t.type === "verification")?.fields.find((f) => f.name === "claims")?.enumValues ?? [],
    staleTime: Infinity,
  });
}

function usePatchSettings(clientId: string) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Record<string, unknown>) =>
      api<TVerificationSettings>(env, `/v1/apps/${encodeURIComponent(clientId)}/verification`, {
        method: "PATCH",
        body: patch,
      }),
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKey(env, clientId), settings);
      void queryClient.invalidateQueries({ queryKey: appKeys.detail(env, clientId), exact: true });
    },
  });
}

function DefaultWorkflowCard({ app }: { app: TApp }) {
  const { env, permissions } = useConsole();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState(app.defaultWorkflowId ?? "");
  const [shownDefault, setShownDefault] = useState(app.defaultWorkflowId);
  if (shownDefault !== app.defaultWorkflowId) {
    setShownDefault(app.defaultWorkflowId);
    setChoice(app.defaultWorkflowId ?? "");
  }
  const mutation = useMutation({
    mutationFn: () =>
      api<TApp>(env, `/v1/apps/${encodeURIComponent(app.clientId)}/default-workflow`, {
        method: "PUT",
        body: { workflowId: choice },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(appKeys.detail(env, app.clientId), updated);
      void queryClient.invalidateQueries({ queryKey: settingsKey(env, app.clientId) });
      toast.show({ message: "Default workflow saved" });
    },
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  return (
    <Card title="Default workflow">
      <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
        <Select
          label="Workflow"
          value={choice}
          disabled={!permissions.write}
          onChange={(e) => setChoice(e.target.value)}
          error={error?.fieldError("workflowId")}
          description="Runs for verifications started without a workflowId, and for OpenID sign-ins."
        >
          {app.workflows.map((w) => (
            <option key={w.workflowId} value={w.workflowId}>
              {w.name}
            </option>
          ))}
        </Select>
        <FormError message={formErrorMessage(mutation.error, "workflowId")} />
        <SaveButton disabled={choice === (app.defaultWorkflowId ?? "")} pending={mutation.isPending} />
      </Form>
    </Card>
  );
}

function VerifyForm({ app, settings }: { app: TApp; settings: TVerificationSettings }) {
  const { env, permissions } = useConsole();
  const toast = useToast();
  const claims = useClaimNames(app.clientId);
  const mutation = usePatchSettings(app.clientId);
  const [type, setType] = useState(settings.verification_type);
  const [age, setAge] = useState(String(settings.minimum_age ?? 18));
  const [picked, setPicked] = useState<string[]>(settings.request_attributes);
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const fieldNames = ["verification_type", "minimum_age", "request_attributes"];
  const claimList = [...new Set([...(claims.data ?? []), ...picked])];
  return (
    <Form
      className="space-y-4"
      onSubmit={() => {
        mutation.mutate(
          {
            verification_type: type,
            ...(type === "age_verification" ? { minimum_age: age === "" ? null : Number(age) } : {}),
            request_attributes: claimList.filter((c) => picked.includes(c)),
          },
          { onSuccess: () => toast.show({ message: "Verification settings saved" }) },
        );
      }}
    >
      <Select
        label="Verification type"
        value={type}
        disabled={!permissions.write}
        onChange={(e) => setType(e.target.value === "age_verification" ? "age_verification" : "identity")}
        error={error?.fieldError("verification_type")}
      >
        <option value="identity">Identity: the claims are disclosed to you</option>
        <option value="age_verification">Age verification: only whether the user is old enough</option>
      </Select>
      {type === "age_verification" ? (
        <Input
          label="Minimum age"
          type="number"
          inputMode="numeric"
          min={0}
          max={150}
          value={age}
          disabled={!permissions.write}
          onChange={(e) => setAge(e.target.value)}
          error={error?.fieldError("minimum_age")}
        />
      ) : null}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-gray-900">Requested claims</legend>
        {claims.isPending ? <Loading label="Loading the claim list" /> : null}
        <div className="grid gap-x-4 gap-y-1.5 sm:grid-cols-2">
          {claimList.map((c) => (
            <Checkbox
              key={c}
              label={
                <>
                  {humanize(c)} <code className="text-xs text-gray-600">{c}</code>
                </>
              }
              checked={picked.includes(c)}
              disabled={!permissions.write}
              onChange={(e) =>
                setPicked((all) => (e.target.checked ? [...all, c] : all.filter((x) => x !== c)))
              }
            />
          ))}
        </div>
        {error?.fieldError("request_attributes") ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error.fieldError("request_attributes")}
          </p>
        ) : null}
      </fieldset>
      <div>
        <p className="text-sm font-medium text-gray-900">Providers of this workflow</p>
        <p className="text-sm text-gray-700">
          {settings.providers
            .filter((p) => p.enabled)
            .map((p) => p.provider_id)
            .join(", ") || "none enabled"}{" "}
          ·{" "}
          <Link
            href={`/console/${env}/apps/${encodeURIComponent(app.clientId)}/providers`}
            className="font-semibold text-blue-800 underline"
          >
            Manage providers
          </Link>
        </p>
      </div>
      <FormError message={formErrorMessage(mutation.error, ...fieldNames)} />
      <SaveButton pending={mutation.isPending} />
    </Form>
  );
}

function BrandingForm({ app, settings }: { app: TApp; settings: TVerificationSettings }) {
  const { permissions } = useConsole();
  const toast = useToast();
  const mutation = usePatchSettings(app.clientId);
  const [useApp, setUseApp] = useState(settings.branding.useAppBranding);
  const [name, setName] = useState(settings.branding.name ?? "");
  const [logo, setLogo] = useState<string | null>(settings.branding.logo);
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  return (
    <Form
      className="space-y-4"
      onSubmit={() => {
        mutation.mutate(
          { branding: { useAppBranding: useApp, name: name.trim() || null, logo } },
          { onSuccess: () => toast.show({ message: "Branding saved" }) },
        );
      }}
    >
      <Checkbox
        label="Show the app's name and logo"
        description={`The hosted pages show “${app.name}” and the app's logo.`}
        checked={useApp}
        disabled={!permissions.write}
        onChange={(e) => setUseApp(e.target.checked)}
      />
      {!useApp ? (
        <>
          <Input
            label="Name on the hosted pages"
            maxLength={100}
            value={name}
            disabled={!permissions.write}
            onChange={(e) => setName(e.target.value)}
            error={error?.fieldError("branding.name")}
          />
          <LogoField
            label="Hosted page logo"
            value={logo}
            onChange={setLogo}
            disabled={!permissions.write}
            error={error?.fieldError("branding.logo")}
          />
        </>
      ) : null}
      <FormError message={formErrorMessage(mutation.error, "branding")} />
      <SaveButton pending={mutation.isPending} />
    </Form>
  );
}

export function VerificationSettingsCards({ app }: { app: TApp }) {
  const settings = useSettings(app.clientId);
  const body = (render: (s: TVerificationSettings) => React.ReactNode) =>
    settings.isPending ? (
      <Loading label="Loading the settings" />
    ) : settings.isError ? (
      <QueryError error={settings.error} onRetry={() => settings.refetch()} />
    ) : (
      render(settings.data)
    );
  // forms restart from the server's values when the default workflow changes
  const key = `${app.defaultWorkflowId}:${settings.dataUpdatedAt}`;
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <DefaultWorkflowCard app={app} />
      <Card title="Hosted page branding">
        {body((s) => (
          <BrandingForm key={key} app={app} settings={s} />
        ))}
      </Card>
      <div className="xl:col-span-2">
        <Card title="What is verified">
          {body((s) => (
            <VerifyForm key={key} app={app} settings={s} />
          ))}
        </Card>
      </div>
    </div>
  );
}
