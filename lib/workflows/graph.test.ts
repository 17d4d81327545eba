import { describe, expect, it } from "vitest";
import { firstVerificationNode, nodeLinks, walkFromEntry } from "./graph";

const nodes = [
  { id: "r", type: "request", next: "if" },
  { id: "if", type: "if", then: "a", else: "b" },
  { id: "b", type: "verification", next: "end", config: { claims: ["email"] } },
  { id: "a", type: "check-min-loa", next: "va" },
  { id: "va", type: "verification", next: "end", config: { claims: ["name"] } },
  { id: "end", type: "response" },
  { id: "orphan", type: "verification", next: "end" },
];

describe("graph", () => {
  it("lists links in next, then, else order", () => {
    expect(nodeLinks({ then: "x", else: "y" })).toEqual([
      { key: "then", target: "x" },
      { key: "else", target: "y" },
    ]);
    expect(nodeLinks({ next: "n" })).toEqual([{ key: "next", target: "n" }]);
    expect(nodeLinks({})).toEqual([]);
  });

  it("walks breadth-first from the entry, once per node, skipping unknown ids", () => {
    const walk = walkFromEntry([...nodes, { id: "z", type: "check-min-loa", next: "missing" }], "r");
    expect(walk.map((n) => n.id)).toEqual(["r", "if", "a", "b", "va", "end"]);
    expect(walkFromEntry(nodes, "nowhere")).toEqual([]);
    const cyclic = [
      { id: "x", type: "request", next: "y" },
      { id: "y", type: "check-min-loa", next: "x" },
    ];
    expect(walkFromEntry(cyclic, "x").map((n) => n.id)).toEqual(["x", "y"]);
  });

  it("finds the verification node reached first (then before else, nearer before farther)", () => {
    expect(firstVerificationNode(nodes, "r")?.id).toBe("b");
    expect(firstVerificationNode(nodes.slice(0, 2), "r")).toBeUndefined();
  });
});
