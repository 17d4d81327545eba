"use client";
/**
 * The webhook signing secret: hidden until revealed (fetched then, kept only while shown), and
 * rotated after a confirmation. Without a secret deliveries go out unsigned; the first rotation
 * turns signing on. The secret is a credential: reveal and rotate are for roles with the
 * `credentials` permission in this environment (the API's `secretReadable`; developers in the
 * sandbox only), and the API shows the secret to no one else.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Eye, EyeOff, RotateCw, ShieldAlert, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { api, formErrorMessage } from "@/components/console/api";
import { SecretShown, useSecretFocus } from "@/components/apps/secret-once";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy-button";
import { ConfirmActions, Dialog } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";
import { SECRET_ENV_VAR } from "./snippet";
import {
  webhookConfigPath,
  webhookKeys,
  type TWebhookConfig,
  type TWebhookConfigWithSecret,
} from "./queries";

function RotateSecretDialog({
  clientId,
  signed,
  open,
  onClose,
  onRotated,
}: {
  clientId: string;
  signed: boolean;
  open: boolean;
  onClose: () => void;
  onRotated: () => void;
}) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () =>
      api<{ secret: string }>(env, `${webhookConfigPath(clientId)}/rotate-secret`, { method: "POST" }),
    // the new secret lives in this dialog only
    gcTime: 0,
    onSuccess: () => {
      queryClient.setQueryData<TWebhookConfig>(webhookKeys.config(env, clientId), (config) =>
        config ? { ...config, signed: true } : config,
      );
      void queryClient.invalidateQueries({ queryKey: webhookKeys.config(env, clientId) });
      onRotated();
    },
  });
  // the confirm button that had focus is gone once the secret shows: focus its copy button
  const secretRef = useSecretFocus({ shown: mutation.data });
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={
        mutation.data ? "New signing secret" : signed ? "Rotate the signing secret?" : "Turn on signing?"
      }
      description={
        mutation.data
          ? undefined
          : signed
            ? "A new secret replaces the current one at once: from the next attempt on, deliveries are signed with the new secret and signatures made with the old one no longer verify. Update your receiver right after."
            : "This creates the app's first signing secret. From the next attempt on, every delivery carries an X-Service-Signature header made with it; make your receiver verify it."
      }
    >
      {mutation.data ? (
        <SecretShown ref={secretRef} onDone={close}>
          <CopyField label="Signing secret" value={mutation.data.secret} copyLabel="Copy signing secret" />
          <p className="text-sm text-gray-700">
            Put it in your receiver&apos;s configuration, for example as the environment variable{" "}
            <code className="font-mono text-xs">{SECRET_ENV_VAR}</code>. Members who may manage credentials
            here can reveal it again on this page.
          </p>
        </SecretShown>
      ) : (
        <ConfirmActions error={<FormError message={formErrorMessage(mutation.error)} />} onCancel={close}>
          <Button
            variant={signed ? "danger" : "primary"}
            pending={mutation.isPending}
            onClick={() => mutation.mutate()}
          >
            Rotate secret
          </Button>
        </ConfirmActions>
      )}
    </Dialog>
  );
}

export function SigningSecret({ clientId, config }: { clientId: string; config: TWebhookConfig }) {
  const { env, role } = useConsole();
  const [rotating, setRotating] = useState(false);
  // a GET, but as a mutation: fetched on demand, never cached, gone once hidden or unmounted
  const reveal = useMutation({
    mutationFn: async () =>
      (await api<TWebhookConfigWithSecret>(env, webhookConfigPath(clientId))).secret ?? null,
    gcTime: 0,
  });
  const revealed = reveal.data;
  return (
    <Card title="Signing secret">
      <div className="space-y-4">
        {config.signed ? (
          <p className="flex gap-2 text-sm text-gray-800">
            <ShieldCheck aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-green-700" />
            <span>
              Signing is on: every delivery carries an{" "}
              <code className="font-mono text-xs">X-Service-Signature</code> header, an HMAC-SHA256 of the
              body made with this secret. Verify it before trusting a request.
            </span>
          </p>
        ) : (
          <p
            role="note"
            className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
          >
            <ShieldAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
            <span>
              This app has no signing secret yet, so its deliveries are sent <strong>unsigned</strong>: your
              receiver cannot tell them from a forged request. Rotating the secret creates one and turns
              signing on for every delivery from then on.
            </span>
          </p>
        )}

        {!config.secretReadable ? (
          <p className="text-sm text-gray-700">
            The signing secret is a credential: your role ({role}) may not see or rotate it
            {env === "production" ? " in production" : ""}. Owners and admins can
            {env === "production" ? "" : ", and developers"}.
          </p>
        ) : (
          <>
            {config.signed ? (
              revealed ? (
                <div className="space-y-2">
                  <CopyField label="Signing secret" value={revealed} copyLabel="Copy signing secret" />
                  <Button
                    variant="secondary"
                    size="sm"
                    icon={<EyeOff aria-hidden className="h-4 w-4" />}
                    onClick={() => reveal.reset()}
                  >
                    Hide secret
                  </Button>
                </div>
              ) : (
                <div className="space-y-1">
                  <div className="text-sm font-medium text-gray-900">Signing secret</div>
                  <div className="flex flex-wrap items-center gap-2">
                    <code className="rounded-md border border-gray-300 bg-gray-50 px-3 py-2 font-mono text-sm text-gray-700">
                      whsec_<span aria-hidden>••••••••••••</span>
                      <span className="sr-only"> (hidden)</span>
                    </code>
                    <Button
                      variant="secondary"
                      size="sm"
                      icon={<Eye aria-hidden className="h-4 w-4" />}
                      pending={reveal.isPending}
                      onClick={() => reveal.mutate()}
                    >
                      Reveal secret
                    </Button>
                  </div>
                  <FormError message={formErrorMessage(reveal.error)} />
                </div>
              )
            ) : null}
            <Button
              variant="secondary"
              icon={<RotateCw aria-hidden className="h-4 w-4" />}
              onClick={() => setRotating(true)}
            >
              Rotate secret
            </Button>
          </>
        )}
      </div>
      <RotateSecretDialog
        clientId={clientId}
        signed={config.signed}
        open={rotating}
        onClose={() => setRotating(false)}
        // a revealed old secret must not stay on the page
        onRotated={() => reveal.reset()}
      />
    </Card>
  );
}
