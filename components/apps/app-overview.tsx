"use client";
/**
 * An app's Overview: credentials (client secret rotation shown once), name and logo, redirect
 * URIs, default return addresses, the OpenID Connect security settings (oidc-security.tsx), the
 * quick start, a sandbox try-out, and deletion.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Plus, RotateCw, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { api, ApiRequestError, errorMessage, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy-button";
import { ConfirmActions, Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, Input } from "@/components/ui/field";
import { LogoField } from "@/components/ui/logo-field";
import { useToast } from "@/components/ui/toast";
import { usePatchApp, useCurrentApp } from "./app-frame";
import { OidcSecurityCard } from "./oidc-security";
import { appKeys, type TApp } from "./queries";
import { QuickStart } from "./quick-start";
import { SaveButton } from "./save-button";
import { SecretOnce, SecretShown } from "./secret-once";
import { VerificationSettingsCards } from "./verification-settings";

function CredentialsCard({ app }: { app: TApp }) {
  const { env, permissions } = useConsole();
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn: () =>
      api<{ clientSecret: string; rotatedAt: string }>(env, `/v1/apps/${app.clientId}/rotate-client-secret`, {
        method: "POST",
      }),
  });
  const close = () => {
    setConfirming(false);
    mutation.reset();
  };
  return (
    <Card title="Credentials">
      <div className="space-y-4">
        <CopyField label="Client ID" value={app.clientId} copyLabel="Copy client ID" />
        <div className="space-y-1">
          <div className="text-sm font-medium">Client secret</div>
          <p className="text-sm text-gray-700">
            Shown once, when the app was created or the secret rotated. Your server sends it with the client
            ID.
          </p>
          {permissions.credentials ? (
            <Button
              variant="secondary"
              icon={<RotateCw aria-hidden className="h-4 w-4" />}
              onClick={() => setConfirming(true)}
            >
              Rotate secret
            </Button>
          ) : (
            <p className="text-sm text-gray-600">Your role may not rotate secrets in this environment.</p>
          )}
        </div>
      </div>
      <Dialog
        open={confirming}
        onClose={close}
        title={mutation.data ? "New client secret" : "Rotate the client secret?"}
        description={
          mutation.data
            ? undefined
            : "The current secret stops working at once: servers using it get 401 until they use the new one."
        }
      >
        {mutation.data ? (
          <SecretShown onDone={close}>
            <SecretOnce
              label="Client secret"
              value={mutation.data.clientSecret}
              explanation="Update your server's configuration with it."
            />
          </SecretShown>
        ) : (
          <ConfirmActions error={<FormError message={formErrorMessage(mutation.error)} />} onCancel={close}>
            <Button variant="danger" pending={mutation.isPending} onClick={() => mutation.mutate()}>
              Rotate secret
            </Button>
          </ConfirmActions>
        )}
      </Dialog>
    </Card>
  );
}

function DetailsCard({ app }: { app: TApp }) {
  const { permissions } = useConsole();
  const toast = useToast();
  const [name, setName] = useState(app.name);
  const [logo, setLogo] = useState<string | null>(app.logo);
  const mutation = usePatchApp(app.clientId);
  // A saved change (or another tab's) resets the form to what the server holds.
  const [shown, setShown] = useState(app);
  if (shown.name !== app.name || shown.logo !== app.logo) {
    setShown(app);
    setName(app.name);
    setLogo(app.logo);
  }
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const dirty = name !== app.name || logo !== app.logo;
  return (
    <Card title="Name and logo">
      <Form
        className="space-y-4"
        onSubmit={() => {
          mutation.mutate(
            { ...(name !== app.name ? { name } : {}), ...(logo !== app.logo ? { logo: logo ?? "" } : {}) },
            { onSuccess: () => toast.show({ message: "Saved" }) },
          );
        }}
      >
        <Input
          label="Name"
          required
          maxLength={100}
          value={name}
          disabled={!permissions.write}
          onChange={(e) => setName(e.target.value)}
          error={error?.fieldError("name")}
        />
        <LogoField
          value={logo}
          onChange={setLogo}
          error={error?.fieldError("logo")}
          disabled={!permissions.write}
        />
        <FormError message={formErrorMessage(mutation.error, "name", "logo")} />
        <SaveButton disabled={!dirty} pending={mutation.isPending} />
      </Form>
    </Card>
  );
}

function RedirectUrisCard({ app }: { app: TApp }) {
  const { permissions, env } = useConsole();
  const toast = useToast();
  const [uris, setUris] = useState<string[]>(app.redirectUris.length ? app.redirectUris : [""]);
  const [success, setSuccess] = useState(app.defaultSuccessRedirectUri ?? "");
  const [failure, setFailure] = useState(app.defaultFailureRedirectUri ?? "");
  const mutation = usePatchApp(app.clientId);
  const [shown, setShown] = useState(app);
  if (
    shown.redirectUris.join("\n") !== app.redirectUris.join("\n") ||
    shown.defaultSuccessRedirectUri !== app.defaultSuccessRedirectUri ||
    shown.defaultFailureRedirectUri !== app.defaultFailureRedirectUri
  ) {
    setShown(app);
    setUris(app.redirectUris.length ? app.redirectUris : [""]);
    setSuccess(app.defaultSuccessRedirectUri ?? "");
    setFailure(app.defaultFailureRedirectUri ?? "");
  }
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const listError = error?.details.find((d) => d.path === "redirectUris")?.message;
  const placeholder =
    env === "sandbox" ? "http://localhost:3001/api/auth/callback/idv" : "https://example.com/callback";
  return (
    <Card title="Redirect URIs">
      <Form
        className="space-y-4"
        onSubmit={() => {
          mutation.mutate(
            {
              redirectUris: uris.map((u) => u.trim()).filter(Boolean),
              defaultSuccessRedirectUri: success.trim() || null,
              defaultFailureRedirectUri: failure.trim() || null,
            },
            { onSuccess: () => toast.show({ message: "Redirect URIs saved" }) },
          );
        }}
      >
        <p className="text-sm text-gray-700">
          Where the OpenID sign-in and the hosted pages may send the end-user back to. Exact matches only.
        </p>
        <ul className="space-y-2">
          {uris.map((uri, i) => (
            <li key={i} className="flex items-end gap-2">
              <Input
                fieldClassName="flex-1"
                label={`Redirect URI ${i + 1}`}
                type="url"
                placeholder={placeholder}
                value={uri}
                disabled={!permissions.write}
                onChange={(e) => setUris((all) => all.map((u, j) => (j === i ? e.target.value : u)))}
                error={error?.fieldError(`redirectUris[${i}]`)}
              />
              {permissions.write ? (
                <Button
                  variant="ghost"
                  aria-label={`Remove redirect URI ${i + 1}`}
                  onClick={() => setUris((all) => (all.length === 1 ? [""] : all.filter((_, j) => j !== i)))}
                >
                  <Trash2 aria-hidden className="h-4 w-4" />
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
        {listError ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {listError}
          </p>
        ) : null}
        {permissions.write ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<Plus aria-hidden className="h-4 w-4" />}
            onClick={() => setUris((all) => [...all, ""])}
          >
            Add redirect URI
          </Button>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label="Default success redirect URI"
            type="url"
            value={success}
            disabled={!permissions.write}
            onChange={(e) => setSuccess(e.target.value)}
            error={error?.fieldError("defaultSuccessRedirectUri")}
            description="After a completed verification started without a redirect_uri."
          />
          <Input
            label="Default failure redirect URI"
            type="url"
            value={failure}
            disabled={!permissions.write}
            onChange={(e) => setFailure(e.target.value)}
            error={error?.fieldError("defaultFailureRedirectUri")}
            description="After a failed or cancelled one."
          />
        </div>
        <FormError
          message={
            mutation.error && (!error || error.details.length === 0) ? errorMessage(mutation.error) : null
          }
        />
        <SaveButton pending={mutation.isPending} />
      </Form>
    </Card>
  );
}

function TryOutCard({ app }: { app: TApp }) {
  const { env, permissions } = useConsole();
  const mutation = useMutation({
    mutationFn: () =>
      api<{ verificationId: string; url: string }>(env, `/v1/apps/${app.clientId}/test-verifications`, {
        method: "POST",
        body: {},
      }),
    onSuccess: (created) => {
      window.open(created.url, "_blank", "noopener");
    },
  });
  if (env !== "sandbox" || !permissions.write) return null;
  return (
    <Card title="Try it">
      <div className="space-y-3">
        <p className="text-sm text-gray-700">
          Start a sandbox verification with this app&apos;s default workflow and go through the hosted pages
          as an end-user would, with test identities.
        </p>
        <Button
          icon={<ExternalLink aria-hidden className="h-4 w-4" />}
          pending={mutation.isPending}
          onClick={() => mutation.mutate()}
        >
          Start a test verification
        </Button>
        <FormError message={formErrorMessage(mutation.error)} />
        {mutation.data ? (
          <p role="status" className="text-sm">
            Started{" "}
            <a
              className="font-semibold text-blue-800 underline"
              href={`/console/${env}/verifications/${mutation.data.verificationId}`}
            >
              {mutation.data.verificationId}
            </a>
            . The hosted page opened in a new tab (
            <a className="text-blue-800 underline" href={mutation.data.url} target="_blank" rel="noopener">
              open it again
            </a>
            ).
          </p>
        ) : null}
      </div>
    </Card>
  );
}

function DeleteCard({ app }: { app: TApp }) {
  const { env, permissions } = useConsole();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const mutation = useMutation({
    mutationFn: () => api(env, `/v1/apps/${app.clientId}`, { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: appKeys.all(env) });
      router.push(`/console/${env}/apps`);
    },
  });
  if (!permissions.credentials) return null;
  return (
    <Card title="Delete app">
      <p className="mb-3 text-sm text-gray-700">
        Its credentials stop working at once; open verifications can no longer be read.
      </p>
      <Button
        variant="danger"
        icon={<Trash2 aria-hidden className="h-4 w-4" />}
        onClick={() => setOpen(true)}
      >
        Delete app
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete ${app.name}?`}
        description="This cannot be undone."
      >
        <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
          <Input
            label={`Type ${app.name} to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
          />
          <FormError message={formErrorMessage(mutation.error)} />
          <DialogActions onCancel={() => setOpen(false)}>
            <Button type="submit" variant="danger" disabled={typed !== app.name} pending={mutation.isPending}>
              Delete app
            </Button>
          </DialogActions>
        </Form>
      </Dialog>
    </Card>
  );
}

export function AppOverview() {
  const app = useCurrentApp();
  return (
    <div className="space-y-6">
      <div className="grid gap-6 xl:grid-cols-2">
        <CredentialsCard app={app} />
        <TryOutCard app={app} />
        <DetailsCard app={app} />
        <RedirectUrisCard app={app} />
        <div className="min-w-0 xl:col-span-2">
          <OidcSecurityCard app={app} />
        </div>
      </div>
      <VerificationSettingsCards app={app} />
      <QuickStart app={app} />
      <DeleteCard app={app} />
    </div>
  );
}
