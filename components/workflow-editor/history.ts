/**
 * Undo/redo over drafts, pure: every edit pushes the previous draft. Edits with the same
 * `coalesce` key within a second (typing in one field, a drag) become one step.
 */
import type { TDraft } from "./types";

export const HISTORY_LIMIT = 100;
const COALESCE_MS = 1000;

export interface THistory {
  past: TDraft[];
  present: TDraft;
  future: TDraft[];
  lastKey?: string;
  lastAt?: number;
}

export type THistoryAction =
  | { type: "edit"; draft: TDraft; coalesce?: string; at?: number }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "reset"; draft: TDraft };

export function initHistory(draft: TDraft): THistory {
  return { past: [], present: draft, future: [] };
}

export function historyReducer(state: THistory, action: THistoryAction): THistory {
  switch (action.type) {
    case "edit": {
      if (action.draft === state.present) return state;
      const at = action.at ?? Date.now();
      const merge =
        action.coalesce !== undefined &&
        action.coalesce === state.lastKey &&
        state.lastAt !== undefined &&
        at - state.lastAt < COALESCE_MS;
      return {
        past: merge ? state.past : [...state.past, state.present].slice(-HISTORY_LIMIT),
        present: action.draft,
        future: [],
        lastKey: action.coalesce,
        lastAt: at,
      };
    }
    case "undo": {
      const prev = state.past.at(-1);
      if (!prev) return state;
      return { past: state.past.slice(0, -1), present: prev, future: [state.present, ...state.future] };
    }
    case "redo": {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return { past: [...state.past, state.present], present: next, future: rest };
    }
    case "reset":
      return initHistory(action.draft);
  }
}
