"use client";
/**
 * Activating one or several providers in one submission (the API takes a map and is all or
 * nothing): a section per provider with its generated form, direct providers needing nothing,
 * and in the sandbox the option of a demo activation (activated about a second later, without
 * review). The API's verdict lands on the field it names (`providers.<id>.<requirement>`), on
 * the provider's section (`providers.<id>`), or above the buttons. Field errors are worded by
 * components/ui/field-errors.ts and go away as soon as the field changes (the page's own check
 * runs again when the field is left).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Checkbox, FormError } from "@/components/ui/field";
import { useFieldErrors, type TFieldErrors } from "@/components/ui/field-errors";
import { useToast } from "@/components/ui/toast";
import {
  checkValue,
  fieldSpec,
  initialValues,
  RequirementField,
  submittedValues,
  type TFormValue,
  type TFormValues,
} from "./activation-form";
import { STATUS_LABELS } from "./format";
import { providerKeys, type TProviderEntry } from "./queries";

function ProviderSection({
  p,
  values,
  onChange,
  clientErrors,
  onBlur,
  apiError,
  fieldErrors,
  disabled,
}: {
  p: TProviderEntry;
  values: TFormValues;
  onChange: (id: string, v: TFormValue) => void;
  clientErrors: Record<string, string | undefined>;
  onBlur: (id: string) => void;
  apiError?: ApiRequestError;
  fieldErrors: TFieldErrors;
  disabled: boolean;
}) {
  const prefix = `providers.${p.id}`;
  const sectionError = apiError?.details.find((d) => d.path === prefix)?.message;
  const inputs = p.activation.requirements;
  return (
    <section aria-labelledby={`activate-${p.id}`} className="space-y-3 rounded-md border border-gray-200 p-4">
      <h3 id={`activate-${p.id}`} className="flex items-center gap-2 font-semibold">
        {/* eslint-disable-next-line @next/next/no-img-element -- a static catalog logo */}
        <img src={p.logoUrl} alt="" className="h-6 w-6 object-contain" />
        {p.name}
      </h3>
      {p.status === "rejected" && p.activation.rejectionReason ? (
        <p className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
          Rejected: {p.activation.rejectionReason} The form holds what you sent; correct it and submit again.
        </p>
      ) : null}
      {inputs.length === 0 ? (
        <p className="text-sm text-gray-700">Nothing to fill in: it is activated as soon as you submit.</p>
      ) : (
        inputs.map((r) => (
          <RequirementField
            key={r.id}
            r={r}
            value={values[r.id]}
            onChange={(v) => onChange(r.id, v)}
            onBlur={() => onBlur(r.id)}
            error={fieldErrors.message(`${prefix}.${r.id}`, fieldSpec(r)) ?? clientErrors[r.id]}
            disabled={disabled}
          />
        ))
      )}
      <FormError message={sectionError} />
    </section>
  );
}

export function ActivationDialog({
  clientId,
  providers,
  onClose,
}: {
  clientId: string;
  /** the providers to activate; the dialog is open while there are any */
  providers: TProviderEntry[];
  onClose: () => void;
}) {
  const { env } = useConsole();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<string, TFormValues>>(() =>
    Object.fromEntries(providers.map((p) => [p.id, initialValues(p)])),
  );
  const [touched, setTouched] = useState<Record<string, Record<string, boolean>>>({});
  const [demo, setDemo] = useState(false);
  const mutation = useMutation({
    mutationFn: () =>
      api<TProviderEntry[]>(env, `/v1/apps/${encodeURIComponent(clientId)}/activation`, {
        method: "POST",
        body: {
          providers: Object.fromEntries(providers.map((p) => [p.id, submittedValues(p, values[p.id] ?? {})])),
          ...(demo ? { demo: true } : {}),
        },
      }),
    onSuccess: (entries) => {
      void queryClient.invalidateQueries({ queryKey: providerKeys.all(env, clientId) });
      void queryClient.invalidateQueries({ queryKey: ["apps", env] });
      toast.show({
        message: entries.map((e) => `${e.name}: ${STATUS_LABELS[e.status]}`).join(" · "),
      });
      onClose();
    },
  });
  const apiError = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const fieldErrors = useFieldErrors(mutation.error);
  const formError =
    mutation.error && !apiError?.details.some((d) => d.path.startsWith("providers."))
      ? errorMessage(mutation.error)
      : apiError && apiError.details.length
        ? "Check the highlighted fields."
        : undefined;
  const needsReview = providers.some((p) => p.activationKind !== "direct");
  const title =
    providers.length === 1 ? `Activate ${providers[0]!.name}` : `Activate ${providers.length} providers`;
  return (
    <Dialog
      open={providers.length > 0}
      onClose={onClose}
      title={title}
      className="max-w-2xl"
      description={
        needsReview
          ? "Registration providers are reviewed by us before they are activated; you can follow the review on this page."
          : "Direct providers are activated at once."
      }
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <div className="max-h-[60vh] space-y-4 overflow-y-auto pr-1">
          {providers.map((p) => (
            <ProviderSection
              key={p.id}
              p={p}
              values={values[p.id] ?? {}}
              disabled={mutation.isPending}
              onChange={(id, v) => {
                setValues((all) => ({ ...all, [p.id]: { ...all[p.id], [id]: v } }));
                // an edited field shows no error until it is left (or sent) again
                fieldErrors.changed(`providers.${p.id}.${id}`);
                setTouched((t) => ({ ...t, [p.id]: { ...t[p.id], [id]: false } }));
              }}
              onBlur={(id) => setTouched((t) => ({ ...t, [p.id]: { ...t[p.id], [id]: true } }))}
              clientErrors={Object.fromEntries(
                p.activation.requirements
                  .filter((r) => touched[p.id]?.[r.id])
                  .map((r) => [r.id, checkValue(r, values[p.id]?.[r.id])]),
              )}
              apiError={apiError}
              fieldErrors={fieldErrors}
            />
          ))}
        </div>
        {env === "sandbox" && needsReview ? (
          <Checkbox
            label="Demo activation"
            description="Sandbox only: skip the review; the providers are activated about a second later."
            checked={demo}
            onChange={(e) => setDemo(e.target.checked)}
          />
        ) : null}
        <FormError message={formError} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" pending={mutation.isPending}>
            {needsReview && !demo ? "Submit for review" : "Activate"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
