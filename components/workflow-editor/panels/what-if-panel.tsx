"use client";
/**
 * "What-if" side panel: replays the app's recent ended sessions of this workflow (their decision
 * records) through the draft (POST …/workflows/what-if) and shows how many outcomes and paths
 * would change, with examples linked to their sessions; choosing an example draws its new path
 * on the canvas.
 */
import { useMutation } from "@tanstack/react-query";
import { FlaskConical, Route } from "lucide-react";
import Link from "next/link";
import { useState, type FormEvent, type ReactNode } from "react";
import { api, ApiRequestError } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { formatDateTime } from "@/components/verifications/format";
import type { TPanelProps } from "../types";
import { ActionError, OutcomeBadge, PanelSection, PathList, StaleNote } from "./panel-ui";
import {
  pathHighlight,
  runnable,
  usePanelHighlight,
  useRunKey,
  workflowsPath,
  type TWhatIfResult,
  type TWhatIfSide,
} from "./queries";

const MAX_SESSIONS = 1000;

export function WhatIfPanel({ clientId, workflowId, draft, onHighlight }: TPanelProps) {
  const { env } = useConsole();
  const runKey = useRunKey(draft);
  const highlight = usePanelHighlight(onHighlight, runKey);
  const [limit, setLimit] = useState(String(MAX_SESSIONS));
  const [shown, setShown] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: (input: { runKey: string; limit: number; workflow: ReturnType<typeof runnable> }) =>
      api<TWhatIfResult>(env, workflowsPath(clientId, "what-if"), {
        method: "POST",
        body: { workflow: input.workflow, workflowId, limit: input.limit },
      }),
    onMutate: () => {
      setShown(null);
      highlight.clear();
    },
  });
  const result = run.data;
  const stale = Boolean(result && run.variables && run.variables.runKey !== runKey);
  const limitNumber = Number(limit);
  const limitValid = Number.isInteger(limitNumber) && limitNumber >= 1 && limitNumber <= MAX_SESSIONS;
  const apiError = run.error instanceof ApiRequestError ? run.error : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!limitValid) return;
    run.mutate({ runKey, limit: limitNumber, workflow: runnable(draft) });
  };

  const showPath = (verificationId: string, after: TWhatIfSide) => {
    setShown(verificationId);
    highlight.show(pathHighlight(after), runKey);
  };

  return (
    <div className="space-y-5" data-testid="what-if-panel">
      <PanelSection title="What if this draft had run?">
        <p className="text-sm text-gray-700">
          Replays this workflow&apos;s most recent ended sessions through the draft, from their decision
          records (provider, LoA, which claims were present, match verdicts; no personal data), and counts
          what would change.
        </p>
        <form className="space-y-3" onSubmit={onSubmit} noValidate>
          <Input
            label="Sessions to consider"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_SESSIONS}
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
            description={`The most recent ones, up to ${MAX_SESSIONS}.`}
            error={
              !limitValid ? `Enter a whole number from 1 to ${MAX_SESSIONS}.` : apiError?.fieldError("limit")
            }
          />
          <Button
            type="submit"
            pending={run.isPending}
            disabled={!limitValid}
            icon={<FlaskConical aria-hidden className="h-4 w-4" />}
          >
            Run what-if
          </Button>
          <ActionError error={run.error} fields={["limit"]} />
        </form>
      </PanelSection>

      {result ? (
        <PanelSection title="What would change">
          <div className="space-y-3" aria-live="polite" data-testid="what-if-result">
            {stale ? (
              <StaleNote>The draft changed since this run. Run what-if again to see its effect.</StaleNote>
            ) : null}
            <dl className="grid grid-cols-2 gap-2">
              <Stat label="Sessions considered" value={result.total} testId="what-if-total" />
              <Stat
                label="Outcomes that would change"
                value={result.changedOutcomes}
                testId="what-if-outcomes"
              />
              <Stat label="Paths that would change" value={result.changedPaths} testId="what-if-paths" />
              {typeof result.cannotTell === "number" ? (
                <Stat label="Could not be evaluated" value={result.cannotTell} testId="what-if-cannot-tell" />
              ) : null}
            </dl>
            {result.total === 0 ? (
              <p className="text-sm text-gray-700">
                No ended sessions of this workflow with decision records yet. Sessions record their decision
                when they complete or fail.
              </p>
            ) : result.examples.length === 0 ? (
              <p className="text-sm text-gray-700">No session would end differently or take another path.</p>
            ) : (
              <div className="space-y-2">
                <h3 className="text-xs font-semibold tracking-wide text-gray-600 uppercase">
                  Examples{result.examples.length >= 20 ? " (the first 20)" : ""}
                </h3>
                <ul aria-label="Changed sessions" className="space-y-2">
                  {result.examples.map((ex) => (
                    <li
                      key={ex.verificationId}
                      data-testid="what-if-example"
                      className={`space-y-2 rounded-md border p-2 text-sm ${shown === ex.verificationId ? "border-blue-300 bg-blue-50" : "border-gray-200"}`}
                    >
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <Link
                          href={`/console/${env}/verifications/${encodeURIComponent(ex.verificationId)}`}
                          className="font-mono text-xs font-semibold break-all text-blue-800 underline"
                        >
                          {ex.verificationId}
                        </Link>
                        <time dateTime={ex.createdAt} className="text-xs text-gray-600">
                          {formatDateTime(ex.createdAt)}
                        </time>
                      </div>
                      <Side label="Before" side={ex.before} id={ex.verificationId} />
                      <Side label="After" side={ex.after} id={ex.verificationId} />
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-pressed={shown === ex.verificationId}
                        aria-label={`Show the new path of ${ex.verificationId} on the canvas`}
                        disabled={stale}
                        onClick={() => showPath(ex.verificationId, ex.after)}
                        icon={<Route aria-hidden className="h-4 w-4" />}
                      >
                        Show new path
                      </Button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        </PanelSection>
      ) : null}
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: number; testId: string }): ReactNode {
  return (
    <div className="rounded-md border border-gray-200 p-2">
      <dt className="text-xs text-gray-700">{label}</dt>
      <dd className="text-lg font-semibold text-gray-900 tabular-nums" data-testid={testId}>
        {value.toLocaleString("en")}
      </dd>
    </div>
  );
}

function Side({ label, side, id }: { label: string; side: TWhatIfSide; id: string }) {
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-1.5 text-xs text-gray-700">
        <span className="font-semibold">{label}:</span>
        <OutcomeBadge outcome={side.outcome} reasonCode={side.reasonCode} />
      </div>
      <PathList path={side.path} label={`${label} path of ${id}`} />
    </div>
  );
}
