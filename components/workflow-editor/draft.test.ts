import { afterEach, describe, expect, it, vi } from "vitest";
import {
  blankDraft,
  forgetKeptDraft,
  keepDraft,
  keptDraftKey,
  readKeptDraft,
  type TKeptDraft,
} from "./draft";
import type { TDraft } from "./types";

const CURRENT = blankDraft("Onboarding");
const EDITED: TDraft = { ...CURRENT, name: "Onboarding v2" };

/** localStorage over a Map; `refuse` makes every call throw as a blocked or full storage does. */
function storage(refuse = false) {
  const items = new Map<string, string>();
  const guard = () => {
    if (refuse) throw new DOMException("refused", "SecurityError");
  };
  const localStorage = {
    getItem: (k: string) => (guard(), items.get(k) ?? null),
    setItem: (k: string, v: string) => (guard(), void items.set(k, v)),
    removeItem: (k: string) => (guard(), void items.delete(k)),
  };
  vi.stubGlobal("window", { localStorage });
  return items;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("keptDraftKey", () => {
  it("keys a stored workflow by version and a new one by app", () => {
    expect(keptDraftKey("sandbox", "app_1", "wf_1", 3)).toBe("idv.workflow-draft.sandbox.app_1.wf_1.v3");
    expect(keptDraftKey("sandbox", "app_1", "wf_1", undefined)).toBe(
      "idv.workflow-draft.sandbox.app_1.wf_1.v0",
    );
    expect(keptDraftKey("production", "app_1", "new", 3)).toBe("idv.workflow-draft.production.app_1.new");
  });
});

describe("kept drafts", () => {
  const KEY = "idv.workflow-draft.sandbox.app_1.wf_1.v1";

  it("keeps a draft with the time and reads it back while it differs from the current one", () => {
    const items = storage();
    vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000);
    keepDraft(KEY, EDITED);
    expect(JSON.parse(items.get(KEY)!)).toEqual({ draft: EDITED, savedAt: 1_700_000_000_000 });
    expect(readKeptDraft(KEY, CURRENT)).toEqual<TKeptDraft>({ draft: EDITED, savedAt: 1_700_000_000_000 });
    vi.restoreAllMocks();
  });

  it("offers nothing when the kept draft equals the current one, is missing, unreadable or not a draft", () => {
    const items = storage();
    keepDraft(KEY, CURRENT);
    expect(readKeptDraft(KEY, CURRENT)).toBeNull();
    expect(readKeptDraft("idv.workflow-draft.other", CURRENT)).toBeNull();
    items.set(KEY, "{not json");
    expect(readKeptDraft(KEY, CURRENT)).toBeNull();
    items.set(KEY, JSON.stringify({ draft: { name: "no nodes" }, savedAt: 1 }));
    expect(readKeptDraft(KEY, CURRENT)).toBeNull();
    items.set(KEY, "null");
    expect(readKeptDraft(KEY, CURRENT)).toBeNull();
  });

  it("forgets a kept draft", () => {
    const items = storage();
    keepDraft(KEY, EDITED);
    forgetKeptDraft(KEY);
    expect(items.has(KEY)).toBe(false);
    expect(readKeptDraft(KEY, CURRENT)).toBeNull();
  });

  it("works on without a storage: refused, or no window at all (server render)", () => {
    storage(true);
    expect(() => keepDraft(KEY, EDITED)).not.toThrow();
    expect(() => forgetKeptDraft(KEY)).not.toThrow();
    expect(readKeptDraft(KEY, CURRENT)).toBeNull();
    vi.unstubAllGlobals();
    expect(typeof window).toBe("undefined");
    expect(() => keepDraft(KEY, EDITED)).not.toThrow();
    expect(readKeptDraft(KEY, CURRENT)).toBeNull();
  });
});
