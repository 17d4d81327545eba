"use client";
/**
 * The form that requests a production test (POST /v1/apps/{client_id}/production-tests): a
 * title, the providers to test (the app's activated ones), how many stamps to collect and the
 * platform the end-users should use. The API's messages land on their fields.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Send } from "lucide-react";
import Link from "next/link";
import { useId, useState } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, FormError, Input, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { PLATFORM_LABELS } from "./format";
import {
  MAX_STAMP_CLAIMS,
  productionTestKeys,
  productionTestsPath,
  TITLE_MAX,
  useAppProviders,
  type TCreateProductionTestBody,
  type TProductionTestItem,
  type TTargetPlatform,
} from "./queries";

const FIELDS = ["title", "providerIds", "maxStampClaims", "targetPlatform"] as const;
const PLATFORMS: { value: string; platform: TTargetPlatform }[] = [
  { value: "", platform: null },
  { value: "web", platform: "web" },
  { value: "ios", platform: "ios" },
  { value: "android", platform: "android" },
];

export function RequestForm({ clientId }: { clientId: string }) {
  const { env } = useConsole();
  const toast = useToast();
  const queryClient = useQueryClient();
  const providers = useAppProviders(clientId);
  const [title, setTitle] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [stamps, setStamps] = useState("100");
  const [platform, setPlatform] = useState("");
  const providersErrorId = useId();

  const mutation = useMutation({
    mutationFn: (body: TCreateProductionTestBody) =>
      api<TProductionTestItem>(env, productionTestsPath(clientId), { method: "POST", body }),
    onSuccess: async (item) => {
      await queryClient.invalidateQueries({ queryKey: productionTestKeys.list(env, clientId) });
      toast.show({ message: `“${item.request.payload.title}” requested: an operator will schedule it` });
      setTitle("");
      setPicked([]);
      setStamps("100");
      setPlatform("");
    },
  });

  const activated = (providers.data ?? []).filter((p) => p.isActive);
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const fieldError = (field: (typeof FIELDS)[number]) => error?.fieldError(field);
  const unplaced = mutation.error && !FIELDS.some((f) => fieldError(f)) ? errorMessage(mutation.error) : null;
  const providersError = fieldError("providerIds");

  return (
    <Card title="Request a production test">
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate({
            title,
            // in the order the app lists them, which is the order the report shows them
            providerIds: activated.map((p) => p.id).filter((id) => picked.includes(id)),
            maxStampClaims: Number(stamps),
            targetPlatform: PLATFORMS.find((p) => p.value === platform)?.platform ?? null,
          });
        }}
      >
        <Input
          label="Title"
          required
          maxLength={TITLE_MAX}
          autoComplete="off"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={fieldError("title")}
          description="What the end-users see as the challenge's name, e.g. “Open an account in 2 minutes”."
        />

        <fieldset className="space-y-2" aria-describedby={providersError ? providersErrorId : undefined}>
          <legend className="text-sm font-medium text-gray-900">Providers to test</legend>
          <p className="text-sm text-gray-600">
            End-users verify with one of these. Only providers activated for this app can be tested.
          </p>
          {providers.isPending ? (
            <Loading label="Loading the app's providers" />
          ) : providers.isError ? (
            <div className="space-y-2">
              <FormError message={errorMessage(providers.error)} />
              <Button variant="secondary" size="sm" onClick={() => providers.refetch()}>
                Try again
              </Button>
            </div>
          ) : activated.length === 0 ? (
            <p className="text-sm text-gray-800">
              No provider is activated for this app yet.{" "}
              <Link
                className="font-semibold text-blue-800 underline"
                href={`/console/${env}/apps/${encodeURIComponent(clientId)}/providers`}
              >
                Activate one on the Providers tab
              </Link>
              .
            </p>
          ) : (
            <div className="grid gap-2 sm:grid-cols-2">
              {activated.map((p) => (
                <Checkbox
                  key={p.id}
                  label={p.name}
                  checked={picked.includes(p.id)}
                  onChange={(e) =>
                    setPicked((all) => (e.target.checked ? [...all, p.id] : all.filter((id) => id !== p.id)))
                  }
                  description={
                    p.enabled ? undefined : "Activated but switched off: switch it on before the test runs."
                  }
                />
              ))}
            </div>
          )}
          {providersError ? (
            <p id={providersErrorId} role="alert" className="text-sm font-medium text-red-700">
              {providersError}
            </p>
          ) : null}
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label="Stamps needed"
            type="number"
            inputMode="numeric"
            required
            min={1}
            max={MAX_STAMP_CLAIMS}
            step={1}
            value={stamps}
            onChange={(e) => setStamps(e.target.value)}
            error={fieldError("maxStampClaims")}
            description={`Successful verifications to collect (1–${MAX_STAMP_CLAIMS.toLocaleString("en")}); the test ends when all are claimed.`}
          />
          <Select
            label="Target platform"
            value={platform}
            onChange={(e) => setPlatform(e.target.value)}
            error={fieldError("targetPlatform")}
            description="Where the end-users should take part."
          >
            {PLATFORMS.map((p) => (
              <option key={p.value} value={p.value}>
                {PLATFORM_LABELS[p.platform ?? "none"]}
              </option>
            ))}
          </Select>
        </div>

        <FormError message={unplaced} />
        <Button
          type="submit"
          icon={<Send aria-hidden className="h-4 w-4" />}
          pending={mutation.isPending}
          disabled={activated.length === 0}
        >
          Request test
        </Button>
      </form>
    </Card>
  );
}
