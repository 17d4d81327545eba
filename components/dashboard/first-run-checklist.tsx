"use client";
/**
 * The first-run checklist on the Dashboard: five steps from a new workspace to production, each
 * ticked from the workspace's real state (GET /v1/workspace/checklist, lib/onboarding/checklist.ts),
 * each with a link to where it is done.
 * Rules:
 * - hidden once every step is done, and once dismissed: the dismissal is remembered in this
 *   browser's localStorage per workspace (docs/decisions.md, "Console fit and finish"), never
 *   sent anywhere; a browser without storage shows the checklist until the page is left;
 * - nothing is shown while loading or when the checklist cannot be read: the dashboard stays
 *   usable without it;
 * - every step's state is in words for screen readers, not only in the icon.
 */
import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, Circle, X } from "lucide-react";
import Link from "next/link";
import { useState, useSyncExternalStore } from "react";
import { api } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Button } from "@/components/ui/button";
import { useAppOptions } from "@/components/verifications/queries";
import type { TChecklist, TChecklistStepId } from "@/lib/onboarding/endpoints";
import { checklistKeys } from "./queries";

const STORAGE_PREFIX = "idv.checklist.dismissed.";

function storage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

function readDismissed(workspaceId: string): boolean {
  try {
    return storage()?.getItem(STORAGE_PREFIX + workspaceId) === "1";
  } catch {
    return false;
  }
}

function writeDismissed(workspaceId: string): void {
  try {
    storage()?.setItem(STORAGE_PREFIX + workspaceId, "1");
  } catch {
    // full or blocked storage: dismissed for this page only
  }
}

/** localStorage changes made in other tabs */
function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

interface TStepText {
  title: string;
  body: string;
}

const TEXTS: Record<TChecklistStepId, TStepText> = {
  app: {
    title: "Create an app",
    body: "An app holds the redirect URIs, providers and workflows of one of your products.",
  },
  test_verification: {
    title: "Run a test verification",
    body: "Open an app in the sandbox and choose Start a test verification: test identities, no real data.",
  },
  webhook: {
    title: "Set a webhook",
    body: "Receive verification events on your server instead of polling.",
  },
  teammate: {
    title: "Invite a teammate",
    body: "Give a colleague their own sign-in and role.",
  },
  production: {
    title: "Request production",
    body: "Submit your providers for activation in production, or ask for a production test with real people.",
  },
};

function useStepHrefs(): Record<TChecklistStepId, string> {
  const { env } = useConsole();
  const apps = useAppOptions();
  const first = apps.data?.data[0]?.clientId;
  const appPath = (tail: string) => (first ? `/console/${env}/apps/${first}${tail}` : `/console/${env}/apps`);
  return {
    app: "/console/sandbox/apps",
    test_verification: env === "sandbox" && first ? appPath("") : "/console/sandbox/apps",
    webhook: appPath("/webhooks"),
    teammate: `/console/${env}/team`,
    production: "/console/production/apps",
  };
}

export function FirstRunChecklist() {
  const { env, workspace } = useConsole();
  const stored = useSyncExternalStore(
    subscribe,
    () => readDismissed(workspace.id),
    () => true, // the server renders nothing: the browser decides
  );
  const [dismissedHere, setDismissedHere] = useState(false);
  const checklist = useQuery({
    queryKey: checklistKeys.workspace(workspace.id),
    queryFn: ({ signal }) => api<TChecklist>(env, "/v1/workspace/checklist", { signal }),
    staleTime: 0,
  });
  const hrefs = useStepHrefs();

  if (stored || dismissedHere || !checklist.data || checklist.data.done) return null;
  const { steps } = checklist.data;
  const doneCount = steps.filter((s) => s.done).length;

  function dismiss() {
    writeDismissed(workspace.id);
    setDismissedHere(true);
  }

  return (
    <section
      aria-labelledby="checklist-heading"
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid="first-run-checklist"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id="checklist-heading" className="text-lg font-semibold text-gray-900">
            Get started
          </h2>
          <p className="text-sm text-gray-700" data-testid="checklist-progress">
            {doneCount} of {steps.length} steps done
          </p>
        </div>
        <Button
          variant="ghost"
          size="sm"
          onClick={dismiss}
          icon={<X aria-hidden className="h-4 w-4" />}
          aria-label="Dismiss the checklist"
        >
          Dismiss
        </Button>
      </div>
      <div
        className="mt-3 h-1.5 overflow-hidden rounded-full bg-gray-200"
        role="progressbar"
        aria-label="Checklist progress"
        aria-valuemin={0}
        aria-valuemax={steps.length}
        aria-valuenow={doneCount}
        aria-valuetext={`${doneCount} of ${steps.length} steps done`}
      >
        <div className="h-full bg-green-700" style={{ width: `${(doneCount / steps.length) * 100}%` }} />
      </div>
      <ol className="mt-4 divide-y divide-gray-200">
        {steps.map((step) => {
          const text = TEXTS[step.id];
          return (
            <li
              key={step.id}
              className="flex items-start gap-3 py-3"
              data-testid={`checklist-step-${step.id}`}
              data-done={step.done}
            >
              {step.done ? (
                <CheckCircle2 aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
              ) : (
                <Circle aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-gray-500" />
              )}
              <div className="min-w-0">
                {step.done ? (
                  <p className="font-medium text-gray-700">
                    {text.title}
                    <span className="sr-only"> (done)</span>
                  </p>
                ) : (
                  <Link
                    href={hrefs[step.id]}
                    className="font-semibold text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                  >
                    {text.title}
                    <span className="sr-only"> (not done yet)</span>
                  </Link>
                )}
                <p className="text-sm text-gray-700">{text.body}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
