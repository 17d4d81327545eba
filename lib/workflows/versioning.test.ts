import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import type { TWorkflowNode } from "./json";
import { validatePositions, withNodeIds } from "./validate";
import {
  assertIfMatch,
  etagOf,
  ifMatchHolds,
  keepPositionsOf,
  parseIfMatch,
  sameContent,
  type TWorkflowContent,
} from "./versioning";

const nodes: TWorkflowNode[] = [
  { id: "start", type: "request", next: "verify" },
  { id: "verify", type: "verification", next: "end", config: { channel: "oidc", claims: ["email"] } },
  { id: "end", type: "response" },
];

function content(overrides: Partial<TWorkflowContent> = {}): TWorkflowContent {
  return { name: "W", entryNodeId: "start", nodes, positions: { start: { x: 0, y: 0 } }, ...overrides };
}

describe("entity tags", () => {
  it("are the version in double quotes", () => {
    expect(etagOf(3)).toBe('"3"');
  });

  it("parse strong tags, skip weak and malformed ones, and know *", () => {
    expect(parseIfMatch('"3"')).toEqual(["3"]);
    expect(parseIfMatch(' "1", W/"2" , "4"')).toEqual(["1", "4"]);
    expect(parseIfMatch("3")).toEqual([]);
    expect(parseIfMatch(" * ")).toBe("*");
  });

  it("If-Match holds when absent, *, or naming the current version", () => {
    expect(ifMatchHolds(null, 2)).toBe(true);
    expect(ifMatchHolds("*", 2)).toBe(true);
    expect(ifMatchHolds('"2"', 2)).toBe(true);
    expect(ifMatchHolds('"1", "2"', 2)).toBe(true);
    expect(ifMatchHolds('"1"', 2)).toBe(false);
    expect(ifMatchHolds('W/"2"', 2)).toBe(false);
    expect(ifMatchHolds("2", 2)).toBe(false);
    expect(ifMatchHolds("", 2)).toBe(false);
  });

  it("a stale If-Match is 412 WORKFLOW_VERSION_CONFLICT naming the current version", () => {
    expect(() => assertIfMatch('"2"', 2, "wf_1")).not.toThrow();
    let error: unknown;
    try {
      assertIfMatch('"1"', 4, "wf_1");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(412);
    expect(apiError.code).toBe("WORKFLOW_VERSION_CONFLICT");
    expect(apiError.message).toContain("version 4 is the current one");
    expect(apiError.details).toEqual([{ path: "If-Match", message: expect.stringContaining('"4"') }]);
  });
});

describe("sameContent", () => {
  it("ignores key order and undefined fields", () => {
    const reordered = nodes.map((n) => Object.fromEntries(Object.entries(n).reverse()) as TWorkflowNode);
    expect(sameContent(content(), content({ nodes: reordered }))).toBe(true);
    expect(
      sameContent(content(), content({ nodes: [...nodes.slice(0, 2), { ...nodes[2]!, next: undefined }] })),
    ).toBe(true);
  });

  it("sees every change of name, entry, nodes and positions", () => {
    expect(sameContent(content(), content({ name: "X" }))).toBe(false);
    expect(sameContent(content(), content({ entryNodeId: "verify" }))).toBe(false);
    expect(sameContent(content(), content({ nodes: nodes.slice(0, 2) }))).toBe(false);
    expect(sameContent(content(), content({ positions: { start: { x: 1, y: 0 } } }))).toBe(false);
    expect(sameContent(content(), content({ positions: {} }))).toBe(false);
  });
});

describe("positions", () => {
  it("keepPositionsOf drops the positions of nodes that are gone", () => {
    const positions = { start: { x: 0, y: 0 }, gone: { x: 5, y: 5 }, end: { x: 0, y: 240 } };
    expect(keepPositionsOf(positions, nodes)).toEqual({ start: { x: 0, y: 0 }, end: { x: 0, y: 240 } });
  });

  it("validatePositions names every unknown node id", () => {
    expect(validatePositions({ nodes, positions: { start: { x: 0, y: 0 } } })).toEqual([]);
    expect(validatePositions({ nodes })).toEqual([]);
    expect(validatePositions({ nodes, positions: { ghost: {}, end: {}, other: {} } })).toEqual([
      { path: "positions.ghost", message: '"ghost" is not a node of this workflow' },
      { path: "positions.other", message: '"other" is not a node of this workflow' },
    ]);
  });
});

describe("withNodeIds", () => {
  it("adds the id of the node a path points into, and nothing elsewhere", () => {
    const issues = [
      { path: "nodes[1].config.claims[0]", message: "a" },
      { path: "nodes[2]", message: "b" },
      { path: "nodes", message: "c" },
      { path: "entryNodeId", message: "d" },
      { path: "positions.verify", message: "e" },
      { path: "nodes[7].id", message: "f" },
    ];
    expect(withNodeIds(issues, nodes)).toEqual([
      { path: "nodes[1].config.claims[0]", message: "a", nodeId: "verify" },
      { path: "nodes[2]", message: "b", nodeId: "end" },
      { path: "nodes", message: "c" },
      { path: "entryNodeId", message: "d" },
      { path: "positions.verify", message: "e" },
      { path: "nodes[7].id", message: "f" },
    ]);
  });

  it("leaves out empty node ids", () => {
    expect(withNodeIds([{ path: "nodes[0].id", message: "x" }], [{ id: "", type: "request" }])).toEqual([
      { path: "nodes[0].id", message: "x" },
    ]);
  });
});
