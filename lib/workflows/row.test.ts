import { describe, expect, it } from "vitest";
import { WorkflowDefect } from "./engine/defect";
import {
  cachedWorkflowVersion,
  runnableWorkflow,
  runnableWorkflowVersion,
  storedContent,
  storedNodes,
  storedPositions,
} from "./row";

const NODES = [
  { id: "start", type: "request", next: "verify" },
  { id: "verify", type: "verification", next: "done", config: { claims: ["given_name"] } },
  { id: "gate", type: "if", then: "done", else: "done", config: { condition: { source: "loa" } } },
  { id: "done", type: "response" },
];

describe("storedNodes", () => {
  it("returns the nodes of a row in the stored shape", () => {
    expect(storedNodes(NODES)).toEqual(NODES);
  });

  it.each([
    ["not an array", { start: { type: "request" } }],
    ["null", null],
    ["a string", "[]"],
    ["no node at all", []],
    ["a node without id", [{ type: "request" }]],
    ["a node whose type is not a string", [{ id: "start", type: 3 }]],
    ["a link that is not a string", [{ id: "start", type: "request", next: null }]],
    ["a config that is not an object", [{ id: "start", type: "request", config: ["x"] }]],
    ["a node that is not an object", ["start"]],
  ])("refuses %s with a WorkflowDefect", (_, value) => {
    expect(() => storedNodes(value)).toThrow(WorkflowDefect);
  });
});

describe("storedPositions", () => {
  it("returns the positions of a row", () => {
    const positions = { start: { x: 0, y: 10 }, done: { x: -5.5, y: 200 } };
    expect(storedPositions(positions)).toEqual(positions);
  });

  it("reads no positions as none", () => {
    expect(storedPositions(null)).toEqual({});
    expect(storedPositions(undefined)).toEqual({});
    expect(storedPositions({})).toEqual({});
  });

  it("reads positions of another shape as none (the engine ignores them)", () => {
    expect(storedPositions({ start: { x: "0", y: 1 } })).toEqual({});
    expect(storedPositions([{ x: 0, y: 0 }])).toEqual({});
    expect(storedPositions("start")).toEqual({});
  });
});

describe("runnableWorkflow", () => {
  it("is the row's entry node with its parsed nodes", () => {
    const row = { entryNodeId: "start", nodes: NODES, name: "ignored" };
    expect(runnableWorkflow(row)).toEqual({ entryNodeId: "start", nodes: NODES });
  });

  it("refuses a row whose nodes do not have the stored shape", () => {
    expect(() => runnableWorkflow({ entryNodeId: "start", nodes: { start: {} } })).toThrow(WorkflowDefect);
  });
});

describe("storedContent", () => {
  it("is the versioned content: name, entry node, nodes and positions", () => {
    const positions = { start: { x: 1, y: 2 } };
    expect(storedContent({ name: "KYC", entryNodeId: "start", nodes: NODES, positions })).toEqual({
      name: "KYC",
      entryNodeId: "start",
      nodes: NODES,
      positions,
    });
  });

  it("gives a row without positions empty ones", () => {
    expect(
      storedContent({ name: "KYC", entryNodeId: "start", nodes: NODES, positions: null }).positions,
    ).toEqual({});
  });

  it("refuses a row whose nodes do not have the stored shape", () => {
    expect(() => storedContent({ name: "KYC", entryNodeId: "start", nodes: [], positions: null })).toThrow(
      WorkflowDefect,
    );
  });
});

describe("runnableWorkflowVersion (parsed once per workflow version)", () => {
  const SECOND = [
    { id: "start", type: "request", next: "done" },
    { id: "done", type: "response" },
  ];

  it("parses a version once and hands out the same frozen workflow for it", () => {
    expect(cachedWorkflowVersion("wf_cache_a", 1)).toBeUndefined();
    const first = runnableWorkflowVersion({
      id: "wf_cache_a",
      version: 1,
      entryNodeId: "start",
      nodes: NODES,
    });
    expect(first).toEqual({ entryNodeId: "start", nodes: NODES });
    expect(cachedWorkflowVersion("wf_cache_a", 1)).toBe(first);
    // the same version again: the cached object, whatever the row passed this time
    expect(
      runnableWorkflowVersion({ id: "wf_cache_a", version: 1, entryNodeId: "start", nodes: NODES }),
    ).toBe(first);
    expect(Object.isFrozen(first.nodes)).toBe(true);
    expect(Object.isFrozen(first.nodes[1]!.config)).toBe(true);
    expect(() => Reflect.apply(Array.prototype.push, first.nodes, [{ id: "x" }])).toThrow(TypeError);
  });

  it("answers a newer version with its own content and forgets the older one", () => {
    const v1 = runnableWorkflowVersion({ id: "wf_cache_b", version: 1, entryNodeId: "start", nodes: NODES });
    const v2 = runnableWorkflowVersion({ id: "wf_cache_b", version: 2, entryNodeId: "start", nodes: SECOND });
    expect(v2.nodes).toEqual(SECOND);
    expect(cachedWorkflowVersion("wf_cache_b", 2)).toBe(v2);
    expect(cachedWorkflowVersion("wf_cache_b", 1)).toBeUndefined();
    // an older version read late is parsed correctly but does not displace the newer one
    const late = runnableWorkflowVersion({
      id: "wf_cache_b",
      version: 1,
      entryNodeId: "start",
      nodes: NODES,
    });
    expect(late).toEqual(v1);
    expect(cachedWorkflowVersion("wf_cache_b", 2)).toBe(v2);
  });

  it("keeps versions of different workflows apart", () => {
    const a = runnableWorkflowVersion({ id: "wf_cache_c", version: 1, entryNodeId: "start", nodes: NODES });
    const b = runnableWorkflowVersion({ id: "wf_cache_d", version: 1, entryNodeId: "start", nodes: SECOND });
    expect(cachedWorkflowVersion("wf_cache_c", 1)).toBe(a);
    expect(cachedWorkflowVersion("wf_cache_d", 1)).toBe(b);
  });

  it("refuses, and does not remember, a row whose nodes do not have the stored shape", () => {
    expect(() =>
      runnableWorkflowVersion({ id: "wf_cache_e", version: 1, entryNodeId: "start", nodes: [] }),
    ).toThrow(WorkflowDefect);
    expect(cachedWorkflowVersion("wf_cache_e", 1)).toBeUndefined();
  });
});
