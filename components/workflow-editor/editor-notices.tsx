"use client";
/**
 * What the editor tells above the canvas: unsaved changes of an earlier visit kept in this
 * browser (restore or discard them), and the verdict on the draft (checking, no problems, how
 * many, the workflow's own problems; validation unavailable or failed).
 */
import type { UseQueryResult } from "@tanstack/react-query";
import { ApiRequestError, errorMessage } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import type { TKeptDraft } from "./draft";
import { fieldLabel } from "./inspector/fields";
import type { TValidationDetail, TValidationResult } from "./queries";

export function KeptDraftNotice({
  kept,
  onRestore,
  onDiscard,
}: {
  kept: TKeptDraft;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <div
      role="region"
      aria-label="Unsaved changes kept"
      className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <span className="flex-1">
        Unsaved changes from {new Date(kept.savedAt).toLocaleString()} were kept in this browser.
      </span>
      <Button size="sm" onClick={onRestore}>
        Restore changes
      </Button>
      <Button variant="secondary" size="sm" onClick={onDiscard}>
        Discard them
      </Button>
    </div>
  );
}

export function ValidationStatus({
  readOnly,
  validation,
  checking,
  details,
  generalIssues,
}: {
  /** a read-only draft is not validated: no verdict line */
  readOnly: boolean;
  validation: UseQueryResult<TValidationResult>;
  checking: boolean;
  details: readonly TValidationDetail[];
  generalIssues: readonly TValidationDetail[];
}) {
  const unavailable =
    validation.error instanceof ApiRequestError &&
    (validation.error.status === 404 || validation.error.status === 405);
  return (
    <div className="space-y-1" aria-live="polite">
      {readOnly ? null : unavailable ? (
        <p className="text-sm text-gray-700">Validation unavailable: problems are shown when you save.</p>
      ) : validation.isError &&
        !(validation.error instanceof ApiRequestError && validation.error.status === 400) ? (
        <p className="text-sm text-amber-900">Validation failed: {errorMessage(validation.error)}</p>
      ) : checking ? (
        <p className="text-sm text-gray-700">Checking the workflow…</p>
      ) : details.length === 0 && validation.data ? (
        <p className="text-sm text-green-800">No problems found.</p>
      ) : details.length > 0 ? (
        <p className="text-sm font-medium text-red-800">
          {details.length} problem{details.length === 1 ? "" : "s"} to fix before saving.
        </p>
      ) : null}
      {generalIssues.length > 0 ? (
        <ul
          aria-label="Workflow problems"
          className="list-disc space-y-0.5 rounded-md border border-red-300 bg-red-50 py-2 pr-3 pl-7 text-sm text-red-800"
        >
          {generalIssues.map((d) => (
            <li key={`${d.path}:${d.message}`}>
              {d.path && !d.path.startsWith("nodes") ? (
                <span className="font-semibold">{fieldLabel(d.path)}: </span>
              ) : null}
              {d.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
