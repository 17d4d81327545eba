"use client";
/**
 * Regression cases of a workflow (saved test runs, sandbox only): the list with each case's
 * result against the latest saved version and against the draft (POST …/cases/run, re-run a
 * moment after each edit), deleting a case, and `RegressionSummary` — "n/m cases pass" on the
 * draft — which the editor shows beside its Save button.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ApiRequestError, errorMessage, formErrorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { QueryError } from "@/components/console/query-error";
import type { TDraft } from "../types";
import { OutcomeBadge } from "./panel-ui";
import {
  casesSummary,
  panelKeys,
  useCases,
  useCasesOnDraft,
  workflowPath,
  type TCaseResult,
  type TRegressionCase,
} from "./queries";

function ResultLine({ label, result }: { label: string; result: TCaseResult | undefined }) {
  if (!result) return null;
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-xs text-gray-700">
      <span>{label}:</span>
      <Badge tone={result.passed ? "green" : "red"}>{result.passed ? "Passes" : "Fails"}</Badge>
      <OutcomeBadge outcome={result.outcome} reasonCode={result.reasonCode} />
    </div>
  );
}

/** A draft that cannot be run answers 400 with its validation details: not an outage. */
function draftErrorMessage(error: unknown): string {
  if (error instanceof ApiRequestError && error.status === 400)
    return `The cases cannot run on this draft: ${errorMessage(error)}`;
  return errorMessage(error);
}

/** The saved workflow whose cases run, and the draft they run against. */
interface TDraftCasesProps {
  clientId: string;
  workflowId: string;
  draft: TDraft;
}

export function RegressionCases({ clientId, workflowId, draft }: TDraftCasesProps) {
  const { env, permissions } = useConsole();
  const queryClient = useQueryClient();
  const cases = useCases(clientId, workflowId);
  const hasCases = (cases.data?.length ?? 0) > 0;
  const onDraft = useCasesOnDraft(clientId, workflowId, draft, hasCases);
  const [deleting, setDeleting] = useState<TRegressionCase | null>(null);
  const remove = useMutation({
    mutationFn: (c: TRegressionCase) =>
      api<{ deleted: boolean }>(env, workflowPath(clientId, workflowId, "cases", c.id), { method: "DELETE" }),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: panelKeys.cases(env, clientId, workflowId) });
    },
  });

  if (cases.isPending) return <Loading label="Loading the regression cases" />;
  if (cases.isError) return <QueryError error={cases.error} onRetry={() => cases.refetch()} />;
  if (cases.data.length === 0)
    return (
      <p className="text-sm text-gray-700">
        No regression cases yet. Run a test, then save it as a case: its outcome becomes what every later
        draft must still produce.
      </p>
    );

  const draftResults = new Map((onDraft.data ?? []).map((c) => [c.id, c.result]));
  const summary = onDraft.data ? casesSummary(onDraft.data) : null;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2" aria-live="polite">
        {onDraft.isError ? (
          <FormError message={draftErrorMessage(onDraft.error)} />
        ) : summary ? (
          <p className="text-sm font-medium text-gray-900" data-testid="cases-on-draft">
            On the draft: {summary.passing}/{summary.total} cases pass
            {summary.failing.length > 0 ? `; the draft would break ${summary.failing.length}` : ""}.
          </p>
        ) : (
          <p className="text-sm text-gray-700">Running the cases on the draft…</p>
        )}
        <Button
          variant="secondary"
          size="sm"
          pending={onDraft.isFetching}
          onClick={() => onDraft.refetch()}
          aria-label="Run the cases on the draft again"
        >
          Run again
        </Button>
      </div>
      <ul aria-label="Regression cases" className="space-y-2">
        {cases.data.map((c) => {
          const draftResult = draftResults.get(c.id);
          const breaks = draftResult ? !draftResult.passed : false;
          return (
            <li
              key={c.id}
              data-testid="regression-case"
              className={`space-y-1 rounded-md border p-2 ${breaks ? "border-red-300 bg-red-50" : "border-gray-200"}`}
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="text-sm font-semibold break-words text-gray-900">{c.name}</p>
                  <p className="text-xs break-all text-gray-600">
                    {c.providerId} · {c.identityId}
                  </p>
                </div>
                {permissions.write ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete case ${c.name}`}
                    onClick={() => {
                      remove.reset();
                      setDeleting(c);
                    }}
                  >
                    Delete
                  </Button>
                ) : null}
              </div>
              <div className="flex flex-wrap items-center gap-1.5 text-xs text-gray-700">
                <span>Expected:</span>
                <OutcomeBadge outcome={c.expectedOutcome} />
              </div>
              <ResultLine label="Saved version" result={c.result} />
              <ResultLine label="Draft" result={draftResult} />
              {breaks ? (
                <p className="text-xs font-semibold text-red-800">The draft would break this case.</p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <Dialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this regression case?"
        description={deleting ? `"${deleting.name}" is no longer checked against drafts.` : undefined}
      >
        <FormError message={formErrorMessage(remove.error)} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            pending={remove.isPending}
            onClick={() => deleting && remove.mutate(deleting)}
          >
            Delete case
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

/**
 * "n/m cases pass" on the draft, for the editor's toolbar beside Save (sandbox only; nothing when
 * the workflow has no cases). Failing cases are named in the text screen readers get.
 */
export function RegressionSummary({ clientId, workflowId, draft }: TDraftCasesProps) {
  const { env } = useConsole();
  const cases = useCases(clientId, workflowId);
  const hasCases = (cases.data?.length ?? 0) > 0;
  const onDraft = useCasesOnDraft(clientId, workflowId, draft, hasCases);
  if (env !== "sandbox" || !hasCases) return null;
  if (onDraft.isError)
    return (
      <span role="status" className="text-xs text-amber-900" title={draftErrorMessage(onDraft.error)}>
        Cases not run
        <span className="sr-only">: {draftErrorMessage(onDraft.error)}</span>
      </span>
    );
  if (!onDraft.data)
    return (
      <span role="status" className="text-xs text-gray-700">
        Running cases…
      </span>
    );
  const { passing, total, failing } = casesSummary(onDraft.data);
  return (
    <span role="status" data-testid="regression-summary" className="inline-flex items-center gap-1 text-xs">
      <Badge tone={failing.length ? "red" : "green"}>
        {passing}/{total} cases pass
      </Badge>
      {failing.length ? (
        <span className="sr-only">. Failing: {failing.map((c) => c.name).join(", ")}</span>
      ) : null}
    </span>
  );
}
