import { describe, expect, it } from "vitest";
import {
  diffCounts,
  diffHighlight,
  diffWorkflows,
  formatValue,
  isBehaviourSame,
  isIdentical,
  stableJson,
  type TWorkflowContent,
} from "./diff";
import type { TWorkflowNode } from "@/lib/workflows/json";

type TMutableContent = TWorkflowContent & { nodes: TWorkflowNode[] };

function base(): TMutableContent {
  return {
    name: "Default workflow",
    entryNodeId: "request",
    nodes: [
      { id: "request", type: "request", next: "verification" },
      {
        id: "verification",
        type: "verification",
        next: "response",
        config: {
          channel: "oidc",
          claims: ["given_name", "family_name"],
          providers: { passport: { enabled: true } },
        },
      },
      { id: "response", type: "response" },
    ],
    positions: { request: { x: 0, y: 0 }, verification: { x: 0, y: 100 }, response: { x: 0, y: 200 } },
  };
}

describe("diffWorkflows", () => {
  it("finds nothing between equal contents, whatever the key order of configs", () => {
    const a = base();
    const b = base();
    b.nodes[1] = {
      config: {
        providers: { passport: { enabled: true } },
        claims: ["given_name", "family_name"],
        channel: "oidc",
      },
      next: "response",
      type: "verification",
      id: "verification",
    };
    const diff = diffWorkflows(a, b);
    expect(diff).toEqual({ nodes: [], moved: [], unchanged: 3 });
    expect(isIdentical(diff)).toBe(true);
    expect(isBehaviourSame(diff)).toBe(true);
  });

  it("reports an added node and the link that now points to it", () => {
    const after = base();
    after.nodes = [
      after.nodes[0]!,
      { ...after.nodes[1]!, next: "min-loa" },
      { id: "min-loa", type: "check-min-loa", next: "response", config: { minLoa: 2 } },
      after.nodes[2]!,
    ];
    const diff = diffWorkflows(base(), after);
    expect(diff.nodes).toEqual([
      {
        kind: "changed",
        nodeId: "verification",
        type: "verification",
        changes: [{ field: "next", before: "response", after: "min-loa" }],
      },
      { kind: "added", nodeId: "min-loa", type: "check-min-loa", node: after.nodes[2] },
    ]);
    expect(diffCounts(diff)).toEqual({ added: 1, removed: 0, changed: 1 });
    expect(diff.unchanged).toBe(2);
  });

  it("reports a removed node after the nodes of the newer side", () => {
    const before = base();
    before.nodes.splice(2, 0, {
      id: "min-loa",
      type: "check-min-loa",
      next: "response",
      config: { minLoa: 2 },
    });
    before.nodes[1] = { ...before.nodes[1]!, next: "min-loa" };
    const diff = diffWorkflows(before, base());
    expect(diff.nodes.map((n) => [n.kind, n.nodeId])).toEqual([
      ["changed", "verification"],
      ["removed", "min-loa"],
    ]);
  });

  it("names each changed config key, added and dropped keys included", () => {
    const after = base();
    after.nodes[1] = {
      ...after.nodes[1]!,
      config: {
        channel: "oidc",
        claims: ["given_name", "family_name", "birthdate"],
        providers: { passport: { enabled: true } },
        minimumAge: 18,
      },
    };
    const before = base();
    (before.nodes[1]!.config as Record<string, unknown>).mode = "pii";
    const diff = diffWorkflows(before, after);
    expect(diff.nodes).toEqual([
      {
        kind: "changed",
        nodeId: "verification",
        type: "verification",
        changes: [
          {
            field: "config.claims",
            before: ["given_name", "family_name"],
            after: ["given_name", "family_name", "birthdate"],
          },
          { field: "config.minimumAge", before: undefined, after: 18 },
          { field: "config.mode", before: "pii", after: undefined },
        ],
      },
    ]);
  });

  it("treats an absent config and an empty one alike, and undefined keys as absent", () => {
    const before = base();
    const after = base();
    after.nodes[2] = { id: "response", type: "response", config: {} };
    after.nodes[0] = { id: "request", type: "request", next: "verification", config: { x: undefined } };
    expect(diffWorkflows(before, after).nodes).toEqual([]);
  });

  it("reports type changes and if-branches (then/else)", () => {
    const before = base();
    before.nodes[1] = { id: "verification", type: "if", then: "response", else: "request", config: {} };
    const after = base();
    after.nodes[1] = { id: "verification", type: "if", then: "request", else: "response", config: {} };
    expect(diffWorkflows(before, after).nodes).toEqual([
      {
        kind: "changed",
        nodeId: "verification",
        type: "if",
        changes: [
          { field: "then", before: "response", after: "request" },
          { field: "else", before: "request", after: "response" },
        ],
      },
    ]);
    const retyped = diffWorkflows(base(), { ...base(), nodes: [{ id: "request", type: "response" }] });
    expect(retyped.nodes[0]).toEqual({
      kind: "changed",
      nodeId: "request",
      type: "response",
      changes: [
        { field: "type", before: "request", after: "response" },
        { field: "next", before: "verification", after: null },
      ],
    });
  });

  it("keeps name, entry node and canvas moves apart from node changes", () => {
    const after = base();
    after.name = "Renamed";
    after.entryNodeId = "verification";
    after.positions = { ...after.positions, response: { x: 40, y: 200 } };
    const diff = diffWorkflows(base(), after);
    expect(diff.nodes).toEqual([]);
    expect(diff.name).toEqual({ before: "Default workflow", after: "Renamed" });
    expect(diff.entryNodeId).toEqual({ before: "request", after: "verification" });
    expect(diff.moved).toEqual(["response"]);
    expect(isBehaviourSame(diff)).toBe(false);

    const onlyMoved = diffWorkflows(base(), {
      ...base(),
      positions: { ...base().positions, request: { x: 1, y: 0 } },
    });
    expect(isBehaviourSame(onlyMoved)).toBe(true);
    expect(isIdentical(onlyMoved)).toBe(false);
  });

  it("ignores the name when one side has none (a draft compared by content only)", () => {
    const { name: _name, ...unnamed } = base();
    expect(diffWorkflows(unnamed, { ...base(), name: "Other" }).name).toBeUndefined();
  });

  it("does not count a node whose position is missing on one side as moved", () => {
    const after = base();
    after.positions = {};
    expect(diffWorkflows(base(), after).moved).toEqual([]);
  });
});

describe("diffHighlight", () => {
  it("marks added, removed and changed nodes (with the changed fields) and no path", () => {
    const before = base();
    before.nodes.push({ id: "old", type: "check-min-loa", config: { minLoa: 1 } });
    const after = base();
    after.nodes[1] = { ...after.nodes[1]!, next: "new" };
    after.nodes.push({ id: "new", type: "check-min-loa", next: "response", config: { minLoa: 2 } });
    expect(diffHighlight(diffWorkflows(before, after))).toEqual({
      path: [],
      nodes: {
        verification: { result: "changed", reason: "next" },
        new: { result: "added" },
        old: { result: "removed" },
      },
    });
  });
});

describe("formatting", () => {
  it("sorts keys in stableJson and shortens long values", () => {
    expect(stableJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe(
      '{"a":{"c":[3,{"e":0,"f":1}],"d":2},"b":1}',
    );
    expect(formatValue(undefined)).toBe("—");
    expect(formatValue("response")).toBe("response");
    expect(formatValue(["a", "b"])).toBe('["a","b"]');
    expect(formatValue("x".repeat(100), 10)).toBe(`${"x".repeat(9)}…`);
  });
});
