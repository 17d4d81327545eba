"use client";
/**
 * The draft being edited: its undo history (history.ts), the saved state it is compared with
 * (`baseline`, the `version` it was saved as) and the copy kept in the browser while it has
 * unsaved changes (draft.ts). A copy found on opening is offered (`kept`) and not overwritten
 * until it is restored or discarded.
 */
import { useCallback, useEffect, useReducer, useState } from "react";
import {
  forgetKeptDraft,
  keepDraft,
  keptDraftKey,
  NEW_WORKFLOW_ID,
  readKeptDraft,
  sameDraft,
  type TKeptDraft,
} from "./draft";
import { historyReducer, initHistory } from "./history";
import { withPositions } from "./layout";
import type { TDraft } from "./types";

export function useDraft({
  env,
  clientId,
  workflowId,
  initial,
  initialVersion,
  readOnly,
}: {
  env: string;
  clientId: string;
  workflowId: string;
  initial: TDraft;
  initialVersion: number | undefined;
  readOnly: boolean;
}) {
  const isNew = workflowId === NEW_WORKFLOW_ID;
  const [history, dispatch] = useReducer(historyReducer, initial, initHistory);
  const draft = history.present;
  const [baseline, setBaseline] = useState(initial);
  const [version, setVersion] = useState(initialVersion);
  const key = keptDraftKey(env, clientId, workflowId, version);
  const [kept, setKept] = useState<TKeptDraft | null>(() => readKeptDraft(key, initial));

  const dirty = isNew || !sameDraft(draft, baseline);
  /** changes worth keeping and asking about before leaving (a new workflow as it started has none) */
  const unsaved = dirty && !(isNew && sameDraft(draft, initial));

  useEffect(() => {
    if (kept || readOnly) return;
    if (unsaved) keepDraft(key, draft);
    else forgetKeptDraft(key);
  }, [draft, unsaved, key, kept, readOnly]);

  const edit = useCallback(
    (next: TDraft, coalesce?: string) => dispatch({ type: "edit", draft: next, coalesce }),
    [],
  );
  const undo = useCallback(() => dispatch({ type: "undo" }), []);
  const redo = useCallback(() => dispatch({ type: "redo" }), []);
  /** replaces the draft and its undo history */
  const reset = useCallback((next: TDraft) => dispatch({ type: "reset", draft: next }), []);
  /** `saved` is what the server stores now (as `savedVersion`, when given): nothing to keep */
  const markSaved = useCallback(
    (saved: TDraft, savedVersion?: number) => {
      forgetKeptDraft(key);
      setBaseline(saved);
      if (savedVersion !== undefined) setVersion(savedVersion);
    },
    [key],
  );

  return {
    draft,
    version,
    dirty,
    unsaved,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    edit,
    undo,
    redo,
    reset,
    markSaved,
    /** the unsaved draft of an earlier visit, until restored or discarded */
    kept,
    restoreKept: () => {
      if (kept) edit(withPositions(kept.draft));
      setKept(null);
    },
    discardKept: () => {
      forgetKeptDraft(key);
      setKept(null);
    },
  };
}
