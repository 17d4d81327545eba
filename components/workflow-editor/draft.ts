/**
 * The editor's draft outside React: the draft of a stored or a new workflow, and the copy of an
 * unsaved draft kept in this browser's localStorage, so that a reload does not lose it. Storage
 * may be missing (server render), full or refused: then nothing is kept and the editor works on.
 */
import { withPositions } from "./layout";
import type { TWorkflow } from "./queries";
import type { TDraft } from "./types";

/** The workflow id of the editor's route for a workflow not created yet. */
export const NEW_WORKFLOW_ID = "new";

export function draftOf(w: Pick<TWorkflow, "name" | "entryNodeId" | "nodes" | "positions">): TDraft {
  return withPositions({
    name: w.name,
    entryNodeId: w.entryNodeId,
    nodes: w.nodes,
    positions: w.positions ?? {},
  });
}

export function blankDraft(name: string): TDraft {
  return {
    name,
    entryNodeId: "request",
    nodes: [
      { id: "request", type: "request", next: "response" },
      { id: "response", type: "response" },
    ],
    positions: { request: { x: 0, y: 0 }, response: { x: 0, y: 220 } },
  };
}

export const sameDraft = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** An unsaved draft kept in the browser, and when it was kept (ms since the epoch). */
export interface TKeptDraft {
  draft: TDraft;
  savedAt: number;
}

/** One key per workflow version (a new workflow has one per app): a newer version starts clean. */
export function keptDraftKey(env: string, clientId: string, workflowId: string, version: number | undefined) {
  return workflowId === NEW_WORKFLOW_ID
    ? `idv.workflow-draft.${env}.${clientId}.new`
    : `idv.workflow-draft.${env}.${clientId}.${workflowId}.v${version ?? 0}`;
}

/** Runs `run` on localStorage; `fallback` when there is none or it refuses (full, blocked). */
function withStorage<T>(run: (storage: Storage) => T, fallback: T): T {
  try {
    return typeof window === "undefined" ? fallback : run(window.localStorage);
  } catch {
    return fallback;
  }
}

/** The draft kept under `key`, unless there is none, it is unreadable or it equals `current`. */
export function readKeptDraft(key: string, current: TDraft): TKeptDraft | null {
  return withStorage((storage) => {
    const raw = storage.getItem(key);
    if (!raw) return null;
    const kept = JSON.parse(raw) as TKeptDraft;
    if (!kept?.draft?.nodes || sameDraft(kept.draft, current)) return null;
    return kept;
  }, null);
}

export function keepDraft(key: string, draft: TDraft): void {
  withStorage(
    (storage) => storage.setItem(key, JSON.stringify({ draft, savedAt: Date.now() } satisfies TKeptDraft)),
    undefined,
  );
}

export function forgetKeptDraft(key: string): void {
  withStorage((storage) => storage.removeItem(key), undefined);
}
