"use client";
/**
 * "Test run" side panel (sandbox): runs the draft through the real engine with a provider's test
 * identity (POST …/workflows/test-run, nothing is created), shows the outcome, the path with each
 * node's result and the claims the integrator would receive, and highlights the path on the
 * canvas until the draft changes or the panel closes. Below: the workflow's regression cases
 * (save this run as one; what the draft would break) and a real sandbox session on the hosted page.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Play } from "lucide-react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { QueryError } from "@/components/console/query-error";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Form, FormError, Input, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { loaLabel } from "@/components/verifications/format";
import { useActivatedProviders, type TActivatedProvider } from "../queries";
import type { TDraft, TPanelProps } from "../types";
import { formatValue } from "./diff";
import { ActionError, OutcomeBadge, PanelSection, PathList, StaleNote } from "./panel-ui";
import {
  nodeLabel,
  panelKeys,
  runnable,
  usePanelHighlight,
  useRunKey,
  useTestIdentities,
  workflowPath,
  workflowsPath,
  type TOutcome,
  type TTestIdentity,
  type TTestRunResult,
} from "./queries";
import { RegressionCases } from "./regression";

export { RegressionSummary } from "./regression";

const SCENARIO_LABELS: Record<string, string> = {
  success: "passes",
  failure: "provider failure",
  cancel: "cancels",
  expiry: "times out",
  low_loa: "low LoA",
  missing_claims: "missing claims",
  mismatch: "mismatch",
};

function identityOption(identity: TTestIdentity): string {
  const scenario = SCENARIO_LABELS[identity.scenario] ?? identity.scenario;
  return `${identity.id} — ${scenario}, LoA ${identity.loa} (${loaLabel(identity.loa).toLowerCase()})`;
}

/** Provider first enabled, then any activated one. */
function defaultProvider(providers: readonly TActivatedProvider[]): string {
  return (providers.find((p) => p.enabled) ?? providers[0])?.id ?? "";
}

interface TRunInput {
  providerId: string;
  identityId: string;
  runKey: string;
}

export function TestRunPanel(props: TPanelProps) {
  const { env } = useConsole();
  if (env !== "sandbox")
    return (
      <div className="space-y-2 text-sm text-gray-700" data-testid="test-run-panel">
        <p className="font-semibold text-gray-900">Test runs are a sandbox feature.</p>
        <p>
          Test identities and regression cases exist only in the sandbox. Build the workflow in a sandbox app,
          test it there, then create it here. The What-if panel works in production too, over this app&apos;s
          real sessions.
        </p>
      </div>
    );
  return <SandboxTestRun {...props} />;
}

function SandboxTestRun({ clientId, workflowId, draft, onHighlight }: TPanelProps) {
  const { env, permissions } = useConsole();
  const providers = useActivatedProviders(clientId);
  const runKey = useRunKey(draft);
  const highlight = usePanelHighlight(onHighlight, runKey);

  // the choices are derived: a provider that is gone falls back to the default, and an identity is
  // remembered per provider
  const [picked, setPicked] = useState<{ providerId: string; identityId: string }>({
    providerId: "",
    identityId: "",
  });
  const list = providers.data ?? [];
  const providerId = list.some((p) => p.id === picked.providerId) ? picked.providerId : defaultProvider(list);
  const identities = useTestIdentities(clientId, providerId);
  const identityList = identities.data ?? [];
  const typedIdentity = picked.providerId === providerId ? picked.identityId : "";
  const identityId = identities.isError
    ? typedIdentity.trim()
    : identityList.some((i) => i.id === typedIdentity)
      ? typedIdentity
      : ((identityList.find((i) => i.scenario === "success") ?? identityList[0])?.id ?? "");
  const identity = identityList.find((i) => i.id === identityId);

  const run = useMutation({
    mutationFn: (input: TRunInput & { workflow: ReturnType<typeof runnable> }) =>
      api<TTestRunResult>(env, workflowsPath(clientId, "test-run"), {
        method: "POST",
        body: { workflow: input.workflow, providerId: input.providerId, identityId: input.identityId },
      }),
    onSuccess: (result, input) => highlight.show({ path: result.path, nodes: result.nodes }, input.runKey),
    onError: () => highlight.clear(),
  });
  const result = run.data;
  const ranWith = run.variables;
  const stale = Boolean(result && ranWith && ranWith.runKey !== runKey);
  const runError = run.error instanceof ApiRequestError ? run.error : null;

  const onRun = (e: FormEvent) => {
    e.preventDefault();
    if (!providerId || !identityId) return;
    run.mutate({ providerId, identityId, runKey, workflow: runnable(draft) });
  };

  return (
    <div className="space-y-5" data-testid="test-run-panel">
      <PanelSection title="Run the draft with a test identity">
        <p className="text-sm text-gray-700">
          Runs the real engine on the draft as it is now, with a sandbox test identity. Nothing is saved and
          no session is created.
        </p>
        {providers.isPending ? (
          <Loading label="Loading the app's providers" />
        ) : providers.isError ? (
          <QueryError error={providers.error} onRetry={() => providers.refetch()} />
        ) : list.length === 0 ? (
          <p className="text-sm text-gray-700">
            This app has no activated provider yet. Activate one on the app&apos;s Providers tab.
          </p>
        ) : (
          <form className="space-y-3" onSubmit={onRun} noValidate>
            <Select
              label="Provider"
              value={providerId}
              onChange={(e) => setPicked({ providerId: e.target.value, identityId: "" })}
              error={runError?.fieldError("providerId")}
            >
              {list.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {p.enabled ? "" : " (switched off)"}
                </option>
              ))}
            </Select>
            {identities.isPending ? (
              <Loading label="Loading the test identities" />
            ) : identities.isError ? (
              <div className="space-y-2">
                <FormError
                  message={`The test identities could not be loaded: ${errorMessage(identities.error)}`}
                />
                <Input
                  label="Test identity id"
                  description={`e.g. ${providerId}-low-loa; ids are <provider>-<scenario> or <provider>-<person>.`}
                  value={typedIdentity}
                  onChange={(e) => setPicked({ providerId, identityId: e.target.value })}
                  error={runError?.fieldError("identityId")}
                  autoComplete="off"
                  spellCheck={false}
                />
              </div>
            ) : (
              <Select
                label="Test identity"
                value={identityId}
                onChange={(e) => setPicked({ providerId, identityId: e.target.value })}
                description={identity?.description}
                error={runError?.fieldError("identityId")}
              >
                {identityList.map((i) => (
                  <option key={i.id} value={i.id}>
                    {identityOption(i)}
                  </option>
                ))}
              </Select>
            )}
            <Button
              type="submit"
              pending={run.isPending}
              disabled={!providerId || !identityId}
              icon={<Play aria-hidden className="h-4 w-4" />}
            >
              Run test
            </Button>
            <ActionError error={run.error} fields={["providerId", "identityId"]} />
          </form>
        )}
      </PanelSection>

      {result && ranWith ? <RunResult result={result} draft={draft} stale={stale} /> : null}

      <PanelSection title="Regression cases">
        {result && ranWith && !stale && permissions.write ? (
          <SaveCaseForm
            clientId={clientId}
            workflowId={workflowId}
            input={ranWith}
            outcome={result.outcome}
            key={`${ranWith.runKey}|${ranWith.providerId}|${ranWith.identityId}`}
          />
        ) : null}
        <RegressionCases clientId={clientId} workflowId={workflowId} draft={draft} />
      </PanelSection>

      {permissions.write ? (
        <SandboxSession clientId={clientId} workflowId={workflowId} providerId={providerId} />
      ) : null}
    </div>
  );
}

function RunResult({ result, draft, stale }: { result: TTestRunResult; draft: TDraft; stale: boolean }) {
  const claims = Object.entries(result.claims ?? {});
  return (
    <PanelSection title="Result">
      <div aria-live="polite" className="space-y-3" data-testid="test-run-result">
        {stale ? (
          <StaleNote>The draft changed since this run. Run the test again to see its result.</StaleNote>
        ) : null}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-gray-700">Outcome</dt>
          <dd data-testid="test-run-outcome">
            <OutcomeBadge outcome={result.outcome} reasonCode={result.reasonCode} />
          </dd>
          <dt className="text-gray-700">LoA</dt>
          <dd>
            {result.loa} ({loaLabel(result.loa)})
          </dd>
          <dt className="text-gray-700">Path</dt>
          <dd className="min-w-0">
            <PathList path={result.path} label="Path taken" />
          </dd>
        </dl>
        <div className="space-y-1">
          <h3 className="text-xs font-semibold tracking-wide text-gray-600 uppercase">Nodes</h3>
          <ol aria-label="Node results" className="space-y-1">
            {result.path.map((id, i) => {
              const r = result.nodes[id];
              return (
                <li key={`${id}-${i}`} className="flex flex-wrap items-center gap-1.5 text-sm">
                  <code className="text-xs break-all">{nodeLabel(draft.nodes, id)}</code>
                  {r ? (
                    <Badge tone={r.result === "passed" ? "green" : "red"}>
                      {r.result === "passed" ? "passed" : "failed"}
                    </Badge>
                  ) : null}
                  {r?.reason ? <span className="text-xs break-all text-gray-700">{r.reason}</span> : null}
                </li>
              );
            })}
          </ol>
        </div>
        <div className="space-y-1">
          <h3 className="text-xs font-semibold tracking-wide text-gray-600 uppercase">
            Claims the integrator would receive
          </h3>
          {claims.length === 0 ? (
            <p className="text-sm text-gray-700">None.</p>
          ) : (
            <dl
              aria-label="Claims"
              className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm"
              data-testid="test-run-claims"
            >
              {claims.map(([name, value]) => (
                <div key={name} className="contents">
                  <dt>
                    <code className="text-xs">{name}</code>
                  </dt>
                  <dd className="min-w-0 break-words text-gray-900">{formatValue(value, 200)}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      </div>
    </PanelSection>
  );
}

function SaveCaseForm({
  clientId,
  workflowId,
  input,
  outcome,
}: {
  clientId: string;
  workflowId: string;
  input: TRunInput;
  outcome: TOutcome;
}) {
  const { env } = useConsole();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const save = useMutation({
    mutationFn: () =>
      api(env, workflowPath(clientId, workflowId, "cases"), {
        method: "POST",
        body: {
          name: name.trim(),
          providerId: input.providerId,
          identityId: input.identityId,
          expectedOutcome: outcome,
        },
      }),
    onSuccess: async () => {
      setName("");
      await queryClient.invalidateQueries({ queryKey: panelKeys.cases(env, clientId, workflowId) });
    },
  });
  const error = save.error instanceof ApiRequestError ? save.error : null;
  const nameError = error?.fieldError("name");
  return (
    <Form
      className="space-y-2 rounded-md border border-gray-200 bg-gray-50 p-3"
      noValidate
      onSubmit={() => save.mutate()}
    >
      <Input
        label="Case name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={100}
        required
        error={nameError}
        description={`Expected outcome: ${outcome} (this run's result) with ${input.identityId}.`}
      />
      <Button type="submit" variant="secondary" pending={save.isPending} disabled={name.trim() === ""}>
        Save as regression case
      </Button>
      <ActionError error={save.error} fields={["name"]} />
      {save.isSuccess ? (
        <p role="status" className="text-sm text-green-800">
          Case saved.
        </p>
      ) : null}
    </Form>
  );
}

function SandboxSession({
  clientId,
  workflowId,
  providerId,
}: {
  clientId: string;
  workflowId: string;
  providerId: string;
}) {
  const { env } = useConsole();
  const start = useMutation({
    mutationFn: () =>
      api<{ verificationId: string; url: string }>(
        env,
        `/v1/apps/${encodeURIComponent(clientId)}/test-verifications`,
        {
          method: "POST",
          body: { workflowId, ...(providerId ? { providerId } : {}) },
        },
      ),
    onSuccess: (created) => {
      window.open(created.url, "_blank", "noopener");
    },
  });
  return (
    <PanelSection title="Sandbox session">
      <p className="text-sm text-gray-700">
        Starts a real sandbox session with the last saved version of this workflow and opens its hosted page
        in a new tab. Save the draft first to include your changes.
      </p>
      <Button
        variant="secondary"
        pending={start.isPending}
        onClick={() => start.mutate()}
        icon={<ExternalLink aria-hidden className="h-4 w-4" />}
      >
        Start a sandbox session
      </Button>
      <ActionError error={start.error} />
      {start.data ? (
        <p role="status" className="text-sm">
          Started{" "}
          <Link
            className="font-semibold break-all text-blue-800 underline"
            href={`/console/${env}/verifications/${start.data.verificationId}`}
          >
            {start.data.verificationId}
          </Link>
          . The hosted page opened in a new tab (
          <a className="text-blue-800 underline" href={start.data.url} target="_blank" rel="noopener">
            open it again
          </a>
          ).
        </p>
      ) : null}
    </PanelSection>
  );
}
