"use client";
/**
 * Saving the draft: a new workflow is created (POST) and the editor moves to its route; a stored
 * one is saved (PATCH) with If-Match on the version the draft started from. The API's details on
 * a refused save are kept with the draft they are about; a 412 means someone else saved first
 * (`conflict`), resolved by reloading their version or keeping this draft on top of it.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { appKeys } from "@/components/apps/queries";
import { api, ApiRequestError, errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { useToast } from "@/components/ui/toast";
import { draftOf, NEW_WORKFLOW_ID } from "./draft";
import {
  draftBody,
  workflowKeys,
  workflowPath,
  workflowsPath,
  type TValidationDetail,
  type TWorkflow,
} from "./queries";
import type { TDraft } from "./types";

/** The API's details on the last refused save, and the draft that was sent. */
export interface TSaveIssues {
  draft: TDraft;
  details: TValidationDetail[];
}

export function useWorkflowSave({
  clientId,
  workflowId,
  version,
  base,
  markSaved,
  loadTheirs,
}: {
  clientId: string;
  workflowId: string;
  version: number | undefined;
  /** the app's Workflows page */
  base: string;
  markSaved: (saved: TDraft, version?: number) => void;
  /** puts their version in place of this draft */
  loadTheirs: (draft: TDraft) => void;
}) {
  const { env } = useConsole();
  const isNew = workflowId === NEW_WORKFLOW_ID;
  const router = useRouter();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [saveIssues, setSaveIssues] = useState<TSaveIssues | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);

  const refetchTheirs = () =>
    queryClient.fetchQuery({
      queryKey: workflowKeys.detail(env, clientId, workflowId),
      queryFn: () => api<TWorkflow>(env, workflowPath(clientId, workflowId)),
      staleTime: 0,
    });
  const save = useMutation({
    mutationFn: (d: TDraft) =>
      isNew
        ? api<TWorkflow>(env, workflowsPath(clientId), { method: "POST", body: draftBody(d) })
        : api<TWorkflow>(env, workflowPath(clientId, workflowId), {
            method: "PATCH",
            body: draftBody(d),
            headers: version !== undefined ? { "If-Match": `"${version}"` } : undefined,
          }),
    onMutate: () => {
      setSaveError(null);
      setSaveIssues(null);
    },
    onSuccess: (saved, d) => {
      queryClient.setQueryData(workflowKeys.detail(env, clientId, saved.workflowId), saved);
      void queryClient.invalidateQueries({ queryKey: workflowKeys.list(env, clientId) });
      void queryClient.invalidateQueries({ queryKey: appKeys.detail(env, clientId), exact: true });
      if (isNew) {
        markSaved(d);
        toast.show({ message: "Workflow created" });
        router.replace(`${base}/${encodeURIComponent(saved.workflowId)}`);
        return;
      }
      markSaved(d, saved.version);
      toast.show({ message: saved.version ? `Saved as version ${saved.version}` : "Workflow saved" });
    },
    onError: (err, d) => {
      if (err instanceof ApiRequestError && err.status === 412) {
        setConflict(err.message);
        return;
      }
      if (err instanceof ApiRequestError && err.details.length > 0) {
        setSaveIssues({ draft: d, details: err.details });
        setSaveError(`${err.message} The problems are marked on the nodes and fields.`);
        return;
      }
      setSaveError(errorMessage(err));
    },
  });
  const resolveConflict = useMutation({
    mutationFn: async (choice: "theirs" | "mine") => ({ choice, theirs: await refetchTheirs() }),
    onSuccess: ({ choice, theirs }) => {
      const d = draftOf(theirs);
      markSaved(d, theirs.version);
      if (choice === "theirs") {
        loadTheirs(d);
        toast.show({ message: `Loaded version ${theirs.version ?? ""}`.trim() });
      }
      setConflict(null);
    },
  });

  return {
    save,
    saveIssues,
    saveError,
    /** the API's message when someone else saved first, until resolved or dismissed */
    conflict,
    dismissConflict: () => setConflict(null),
    resolveConflict,
  };
}
