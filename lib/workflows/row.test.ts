import { describe, expect, it } from "vitest";
import { WorkflowDefect } from "./engine/defect";
import { runnableWorkflow, storedContent, storedNodes, storedPositions } from "./row";

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
