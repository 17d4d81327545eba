/**
 * Query keys, API shapes (contract "Workflow editor", sections 1 and 2) and reads of the editor's
 * side panels: versions, regression cases, the app's providers and sandbox test identities, plus
 * the highlight bookkeeping every panel shares (clear it when the draft changes or the panel goes).
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { api, type TEnv } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import type { z } from "zod";
import type { TPage } from "@/lib/http/pagination";
import type { ZTestIdentityJson } from "@/lib/verifications/endpoints";
import type { TCaseJson } from "@/lib/workflows/cases";
import type { TWorkflowNode } from "@/lib/workflows/json";
import type { ZTestRunJson, ZWhatIfJson } from "@/lib/workflows/run-endpoints";
import type {
  TVersionAuthor as TVersionAuthorJson,
  TWorkflowVersionJson,
  TWorkflowVersionSummaryJson,
} from "@/lib/workflows/versions";
import { stableJson } from "./diff";
import { workflowKeys } from "../queries";
import type { TDraft, THighlight } from "../types";

// --- API shapes -------------------------------------------------------------------------------

export type TOutcome = TTestRunResult["outcome"];
export type TTestRunResult = z.infer<typeof ZTestRunJson>;
export type TTestIdentity = z.infer<typeof ZTestIdentityJson>;
export type TVersionAuthor = TVersionAuthorJson;
export type TVersionItem = TWorkflowVersionSummaryJson;
export type TVersionPage = TPage<TVersionItem>;
export type TVersion = TWorkflowVersionJson;
export type TRegressionCase = TCaseJson;
export type TCaseResult = TRegressionCase["result"];
export type TWhatIfResult = z.infer<typeof ZWhatIfJson>;
export type TWhatIfSide = TWhatIfResult["examples"][number]["before"];

// --- keys and paths ---------------------------------------------------------------------------

/**
 * The panels' reads live under the editor's prefix (workflowKeys.all = ["workflows", env,
 * clientId]), so a restore, or the editor's save, refreshes them with one invalidation.
 */
export const panelKeys = {
  workflow: (env: TEnv, clientId: string, workflowId: string) =>
    [...workflowKeys.all(env, clientId), "panels", workflowId] as const,
  versions: (env: TEnv, clientId: string, workflowId: string, offset: number) =>
    [...panelKeys.workflow(env, clientId, workflowId), "versions", { offset }] as const,
  version: (env: TEnv, clientId: string, workflowId: string, version: number) =>
    [...panelKeys.workflow(env, clientId, workflowId), "version", version] as const,
  cases: (env: TEnv, clientId: string, workflowId: string) =>
    [...panelKeys.workflow(env, clientId, workflowId), "cases"] as const,
  casesRun: (env: TEnv, clientId: string, workflowId: string, draftKey: string) =>
    [...panelKeys.cases(env, clientId, workflowId), "run", draftKey] as const,
  identities: (env: TEnv, providerId: string) => ["sandbox-identities", env, providerId] as const,
};

export const workflowPath = (clientId: string, workflowId: string, ...rest: (string | number)[]) =>
  [
    `/v1/apps/${encodeURIComponent(clientId)}/workflows/${encodeURIComponent(workflowId)}`,
    ...rest.map((r) => encodeURIComponent(String(r))),
  ].join("/");

export const workflowsPath = (clientId: string, action: "test-run" | "what-if") =>
  `/v1/apps/${encodeURIComponent(clientId)}/workflows/${action}`;

/** What the engine runs of a draft (the run endpoints take no name or positions). */
export function runnable(draft: Pick<TDraft, "entryNodeId" | "nodes">): {
  entryNodeId: string;
  nodes: TWorkflowNode[];
} {
  return { entryNodeId: draft.entryNodeId, nodes: draft.nodes };
}

/** A key that changes exactly when what the engine runs changes. */
export function stableRunKey(draft: Pick<TDraft, "entryNodeId" | "nodes">): string {
  return stableJson(runnable(draft));
}

export function useRunKey(draft: TDraft): string {
  const { entryNodeId, nodes } = draft;
  return useMemo(() => stableRunKey({ entryNodeId, nodes }), [entryNodeId, nodes]);
}

/** A value that follows `value` once it stopped changing for `ms` (for requests per edit). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

// --- reads ------------------------------------------------------------------------------------

export function useVersions(clientId: string, workflowId: string, offset: number, limit = 20) {
  const { env } = useConsole();
  return useQuery({
    queryKey: panelKeys.versions(env, clientId, workflowId, offset),
    queryFn: ({ signal }) =>
      api<TVersionPage>(env, workflowPath(clientId, workflowId, "versions"), {
        query: { limit, offset },
        signal,
      }),
  });
}

export function useVersion(clientId: string, workflowId: string, version: number | null) {
  const { env } = useConsole();
  return useQuery({
    queryKey: panelKeys.version(env, clientId, workflowId, version ?? 0),
    queryFn: ({ signal }) =>
      api<TVersion>(env, workflowPath(clientId, workflowId, "versions", version!), { signal }),
    enabled: version !== null,
    // a version is immutable
    staleTime: Infinity,
  });
}

export function useCases(clientId: string, workflowId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: panelKeys.cases(env, clientId, workflowId),
    queryFn: ({ signal }) =>
      api<TRegressionCase[]>(env, workflowPath(clientId, workflowId, "cases"), { signal }),
    enabled: env === "sandbox",
  });
}

/** The saved cases run against a draft (POST …/cases/run, nothing stored, so a query). */
export function useCasesOnDraft(clientId: string, workflowId: string, draft: TDraft, enabled = true) {
  const { env } = useConsole();
  // one request per pause in editing; the body is the draft the key was made from
  const key = useDebounced(useRunKey(draft), 600);
  return useQuery({
    queryKey: panelKeys.casesRun(env, clientId, workflowId, key),
    queryFn: ({ signal }) =>
      api<TRegressionCase[]>(env, workflowPath(clientId, workflowId, "cases", "run"), {
        method: "POST",
        body: { workflow: JSON.parse(key) as ReturnType<typeof runnable> },
        signal,
      }),
    enabled: enabled && env === "sandbox",
    placeholderData: (previous) => previous,
  });
}

/** A provider's sandbox test identities, read with the console session (GET …/test-identities). */
export function useTestIdentities(clientId: string, providerId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: panelKeys.identities(env, providerId),
    queryFn: ({ signal }) =>
      api<TTestIdentity[]>(env, `/v1/apps/${encodeURIComponent(clientId)}/test-identities`, {
        query: { providerId },
        signal,
      }),
    enabled: env === "sandbox" && providerId !== "",
    staleTime: Infinity,
  });
}

// --- highlight bookkeeping --------------------------------------------------------------------

/**
 * Sends highlights to the canvas on behalf of one panel: `show(h, key)` highlights and remembers
 * the run key it belongs to (ignored when the draft has moved on since); when the draft's run key
 * moves on, or the panel unmounts, the highlight it set is cleared. The callback is read through a ref, so an editor that passes a new
 * function each render neither re-runs nor clears anything.
 */
export function usePanelHighlight(onHighlight: (h: THighlight | null) => void, runKey: string) {
  const callback = useRef(onHighlight);
  const shownFor = useRef<string | null>(null);
  const currentKey = useRef(runKey);
  useEffect(() => {
    callback.current = onHighlight;
  }, [onHighlight]);
  useEffect(() => {
    currentKey.current = runKey;
    if (shownFor.current !== null && shownFor.current !== runKey) {
      shownFor.current = null;
      callback.current(null);
    }
  }, [runKey]);
  useEffect(
    () => () => {
      if (shownFor.current !== null) callback.current(null);
    },
    [],
  );
  return useMemo(
    () => ({
      show(h: THighlight, forKey: string) {
        // a run that answers after the draft moved on belongs to no draft on the canvas
        if (forKey !== currentKey.current) return;
        shownFor.current = forKey;
        callback.current(h);
      },
      clear() {
        if (shownFor.current === null) return;
        shownFor.current = null;
        callback.current(null);
      },
    }),
    [],
  );
}

/**
 * Keeps the canvas showing `highlight` (a value derived during render, e.g. a diff) while the
 * panel is mounted: sent when it changes, cleared when it becomes null or the panel goes.
 */
export function useLiveHighlight(onHighlight: (h: THighlight | null) => void, highlight: THighlight | null) {
  const callback = useRef(onHighlight);
  const shown = useRef(false);
  useEffect(() => {
    callback.current = onHighlight;
  }, [onHighlight]);
  const key = highlight ? stableJson(highlight) : null;
  useEffect(() => {
    if (key === null) {
      if (shown.current) callback.current(null);
      shown.current = false;
      return;
    }
    shown.current = true;
    callback.current(JSON.parse(key) as THighlight);
  }, [key]);
  useEffect(
    () => () => {
      if (shown.current) callback.current(null);
    },
    [],
  );
}

/** A path as a highlight: each node passed, the last one failed when the outcome is failed. */
export function pathHighlight(side: TWhatIfSide): THighlight {
  const nodes: THighlight["nodes"] = {};
  side.path.forEach((id, i) => {
    const last = i === side.path.length - 1;
    nodes[id] =
      last && side.outcome === "failed"
        ? { result: "failed", ...(side.reasonCode ? { reason: side.reasonCode } : {}) }
        : { result: "passed" };
  });
  return { path: [...side.path], nodes };
}

/** n of m cases pass, and the cases that fail. */
export function casesSummary(cases: readonly TRegressionCase[]): {
  passing: number;
  total: number;
  failing: TRegressionCase[];
} {
  const failing = cases.filter((c) => !c.result.passed);
  return { passing: cases.length - failing.length, total: cases.length, failing };
}

/** "Anna (user)", "CI key (API key)", "System". */
export function authorLabel(author: TVersionAuthor | undefined): string {
  if (!author) return "Unknown";
  if (author.type === "system") return author.display ?? "System";
  const who = author.display ?? author.id ?? "unknown";
  return author.type === "api_key" ? `API key ${who}` : who;
}

/** The label of a node for lists: its id, with its type when the draft still has it. */
export function nodeLabel(nodes: readonly TWorkflowNode[], id: string): string {
  const node = nodes.find((n) => n.id === id);
  return node ? `${id} (${node.type})` : id;
}
