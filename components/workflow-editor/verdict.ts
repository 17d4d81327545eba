"use client";
/**
 * The verdict on the draft: the API validates it 400 ms after the last edit (read only: never),
 * and a refused save adds its own details for the draft it sent. Each detail is shown once, on
 * its node when its path points into one (`nodes[2].config…`), else in the workflow's list; the
 * name's detail goes to the name field.
 */
import { useEffect, useMemo, useState } from "react";
import { ApiRequestError } from "@/components/console/api";
import { shortMessage } from "./inspector/fields";
import { splitNodePath } from "./mapping";
import { useValidation, type TValidationDetail, type TValidationResult } from "./queries";
import type { TDraft } from "./types";
import type { TSaveIssues } from "./use-workflow-save";

/** What validation answered: a verdict, or a body it refused outright (400) with its details. */
interface TValidationState {
  data: TValidationResult | undefined;
  isError: boolean;
  error: unknown;
}

/** The details of the last refused save (of this very draft) and of validation, once each. */
export function verdictDetails(
  saveIssues: TSaveIssues | null,
  validation: TValidationState,
  draft: TDraft,
): TValidationDetail[] {
  const fromSave = saveIssues && saveIssues.draft === draft ? saveIssues.details : [];
  // a body the endpoint refuses outright (400) carries its details like a verdict
  const fromValidation: TValidationDetail[] =
    validation.error instanceof ApiRequestError && validation.error.status === 400
      ? validation.error.details
      : validation.data && !validation.isError
        ? validation.data.details
        : [];
  const all: TValidationDetail[] = [...fromSave, ...fromValidation];
  const seen = new Set<string>();
  return all
    .filter((d) => {
      const k = `${d.path}\n${d.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .map((d) => {
      if (d.nodeId) return d;
      const at = splitNodePath(d.path);
      const id = at ? draft.nodes[at.index]?.id : undefined;
      return id ? { ...d, nodeId: id } : d;
    });
}

/** The short messages of each node of the draft that has any. */
export function issuesByNode(
  details: readonly TValidationDetail[],
  nodes: TDraft["nodes"],
): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const d of details) {
    if (!d.nodeId || !nodes.some((n) => n.id === d.nodeId)) continue;
    map.set(d.nodeId, [...(map.get(d.nodeId) ?? []), shortMessage(d.message)]);
  }
  return map;
}

/** The details of no node of the draft, the name's excepted (shown on the name field). */
export function generalIssues(
  details: readonly TValidationDetail[],
  nodes: TDraft["nodes"],
): TValidationDetail[] {
  return details.filter((d) => (!d.nodeId || !nodes.some((n) => n.id === d.nodeId)) && d.path !== "name");
}

export function useVerdict({
  clientId,
  draft,
  readOnly,
  saveIssues,
}: {
  clientId: string;
  draft: TDraft;
  readOnly: boolean;
  saveIssues: TSaveIssues | null;
}) {
  const [debounced, setDebounced] = useState(draft);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(draft), 400);
    return () => clearTimeout(t);
  }, [draft]);
  const validation = useValidation(clientId, readOnly ? null : debounced);
  const details = useMemo(
    () =>
      verdictDetails(
        saveIssues,
        { data: validation.data, isError: validation.isError, error: validation.error },
        draft,
      ),
    [saveIssues, validation.data, validation.isError, validation.error, draft],
  );
  const byNode = useMemo(() => issuesByNode(details, draft.nodes), [details, draft.nodes]);
  return {
    validation,
    details,
    issuesByNode: byNode,
    generalIssues: generalIssues(details, draft.nodes),
    nameError: details.find((d) => d.path === "name")?.message,
    /** the API is still to answer on the draft as it is now */
    checking: !readOnly && (validation.isFetching || debounced !== draft),
  };
}
