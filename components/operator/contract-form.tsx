"use client";
/**
 * Recording a signed contract: a contract provider is activated off-API once its contract is
 * signed; this form records it for an app of this environment (POST /v1/operator/activations).
 * The API's verdict lands on the field it concerns (unknown app on the client ID, a provider that
 * is not a contract one or is already activated on the provider).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FileSignature } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormError, Input, Select } from "@/components/ui/field";
import type { TTicketJson } from "@/lib/activation/schema";
import { useOperator } from "./context";
import { operatorKeys } from "./queries";

export function ContractForm({ providers }: { providers: { id: string; name: string }[] }) {
  const { env } = useOperator();
  const queryClient = useQueryClient();
  const [clientId, setClientId] = useState("");
  const [providerId, setProviderId] = useState("");
  const mutation = useMutation({
    mutationFn: () =>
      api<TTicketJson>(env, "/v1/operator/activations", {
        method: "POST",
        body: { clientId: clientId.trim(), providerId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operatorKeys.activations(env) }),
  });
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const clientIdError =
    error?.fieldError("clientId") ?? (error?.code === "RESOURCE_NOT_FOUND" ? error.message : undefined);
  const providerError = error?.fieldError("providerId");
  const formError = mutation.error && !clientIdError && !providerError ? errorMessage(mutation.error) : null;
  const recorded = mutation.data;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Contracts</h1>
        <p className="text-sm text-gray-700">
          Contract providers are activated once their contract is signed. Record it here: the provider is
          activated and enabled for the app at once, and the step is audited under your name.
        </p>
      </div>
      <Card title="Record a signed contract">
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            mutation.mutate();
          }}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <Input
              label="Client ID"
              description={`The app's client ID in ${env === "sandbox" ? "the sandbox" : "production"}.`}
              required
              autoComplete="off"
              spellCheck={false}
              value={clientId}
              onChange={(e) => setClientId(e.target.value)}
              error={clientIdError}
            />
            <Select
              label="Provider"
              description="Only providers activated by contract."
              required
              value={providerId}
              onChange={(e) => setProviderId(e.target.value)}
              error={providerError}
            >
              <option value="">Choose a provider</option>
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          </div>
          <FormError message={formError} />
          <Button
            type="submit"
            icon={<FileSignature aria-hidden className="h-4 w-4" />}
            pending={mutation.isPending}
          >
            Record contract
          </Button>
        </form>
        {recorded ? (
          <p
            role="status"
            className="mt-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900"
          >
            {recorded.providerName} is activated for {recorded.appName} ({recorded.clientId}).{" "}
            <Link
              href={`/operator/${env}/activations/${recorded.id}?status=activated`}
              className="font-semibold underline"
            >
              Ticket {recorded.id}
            </Link>
          </p>
        ) : null}
      </Card>
    </div>
  );
}
