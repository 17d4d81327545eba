import { describe, expect, it } from "vitest";
import { applySelectionChange } from "./use-selection";

describe("applySelectionChange", () => {
  it("adds what became selected and removes what did not, nodes and edges apart", () => {
    const before = { nodes: ["a", "b"], edges: ["a:next"] };
    expect(
      applySelectionChange(before, {
        nodes: { b: false, c: true },
        edges: { "a:next": false, "c:then": true },
      }),
    ).toEqual({ nodes: ["a", "c"], edges: ["c:then"] });
  });

  it("keeps each id once and leaves the rest as it was", () => {
    const before = { nodes: ["a"], edges: [] };
    expect(applySelectionChange(before, { nodes: { a: true }, edges: {} })).toEqual(before);
  });
});
