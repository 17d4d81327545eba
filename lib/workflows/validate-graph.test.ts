import { describe, expect, it } from "vitest";
import { base, issues, messageAt, paths, withStep } from "./validate-fixtures";

describe("links", () => {
  it("refuses next on a response node", () => {
    const { nodes } = base();
    nodes[2]!.next = "verify";
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[2].next"]);
    expect(found[0]!.message).toBe('node "response": a response node ends the workflow and has no next');
  });

  it("refuses then/else on a response node", () => {
    const { nodes } = base();
    nodes[2]!.then = "verify";
    nodes[2]!.else = "verify";
    expect(paths({ entryNodeId: "request", nodes })).toEqual(["nodes[2].then", "nodes[2].else"]);
  });

  it("requires next on every non-branching node", () => {
    const { nodes } = base();
    delete nodes[0]!.next;
    delete nodes[1]!.next;
    const found = issues({ entryNodeId: "request", nodes });
    expect(found).toEqual([
      { path: "nodes[0].next", message: 'node "request": is required' },
      { path: "nodes[1].next", message: 'node "verify": is required' },
    ]);
  });

  it("refuses then/else on a non-branching node", () => {
    const { nodes } = base();
    nodes[1]!.then = "response";
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[1].then"]);
    expect(found[0]!.message).toContain("only if nodes have then");
  });

  it("requires then and else on an if node and refuses next there", () => {
    const draft = withStep({
      type: "if",
      config: { condition: { source: "loa", op: "gte", value: 2 } },
    });
    expect(paths(draft)).toEqual(["nodes[2].next", "nodes[2].then", "nodes[2].else"]);
    expect(messageAt(draft, "nodes[2].next")).toContain("branches with then/else");
  });

  it("refuses links to nodes that do not exist", () => {
    const { nodes } = base();
    nodes[1]!.next = "finish";
    const found = issues({ entryNodeId: "request", nodes });
    // the dangling link is the one problem reported: the now unreachable response is not
    expect(found).toEqual([
      { path: "nodes[1].next", message: 'node "verify": "finish" is not a node of this workflow' },
    ]);
  });

  it("refuses dangling then/else links", () => {
    const { nodes } = base();
    nodes[1]!.next = "branch";
    nodes.push({
      id: "branch",
      type: "if",
      then: "response",
      else: "elsewhere",
      config: { condition: { source: "loa", op: "gte", value: 2 } },
    });
    expect(paths({ entryNodeId: "request", nodes })).toEqual(["nodes[3].else"]);
  });
});

describe("graph", () => {
  it("refuses a cycle, naming the link that closes it", () => {
    const { nodes } = base();
    nodes[1]!.next = "a";
    nodes.push(
      { id: "a", type: "check-min-loa", next: "b", config: { minLoa: 1 } },
      { id: "b", type: "check-min-loa", next: "a", config: { minLoa: 2 } },
    );
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[4].next", "nodes[2]", "nodes"]);
    expect(found[0]!.message).toBe('node "b": "a" closes a cycle (a → b → a)');
    expect(found[1]!.message).toContain('node "response": is not reachable from the entry node "request"');
    expect(found[2]!.message).toContain("no response node is reachable");
  });

  it("refuses a node linking to itself", () => {
    const { nodes } = base();
    nodes.splice(2, 0, { id: "loop", type: "check-min-loa", next: "loop", config: { minLoa: 1 } });
    nodes[1]!.next = "loop";
    expect(paths({ entryNodeId: "request", nodes })).toEqual(["nodes[2].next", "nodes[3]", "nodes"]);
  });

  it("refuses a cycle back to the request node", () => {
    const { nodes } = base();
    nodes.splice(2, 0, {
      id: "branch",
      type: "if",
      then: "request",
      else: "response",
      config: { condition: { source: "loa", op: "gte", value: 2 } },
    });
    nodes[1]!.next = "branch";
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[2].then"]);
    expect(found[0]!.message).toContain("request → verify → branch → request");
  });

  it("refuses orphan nodes, also cycles among them", () => {
    const { nodes } = base();
    nodes.push(
      { id: "spare", type: "response" },
      { id: "x", type: "check-min-loa", next: "y", config: { minLoa: 1 } },
      { id: "y", type: "check-min-loa", next: "x", config: { minLoa: 1 } },
    );
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[5].next", "nodes[3]", "nodes[4]", "nodes[5]"]);
    expect(found[1]!.message).toBe('node "spare": is not reachable from the entry node "request"');
  });

  it("refuses a path to a response that skips verification", () => {
    const { nodes } = base();
    nodes[0]!.next = "route";
    nodes.splice(1, 0, {
      id: "route",
      type: "if",
      then: "verify",
      else: "shortcut",
      config: { condition: { source: "provider", op: "equals", value: "passport" } },
    });
    nodes.push({ id: "shortcut", type: "response" });
    const found = issues({ entryNodeId: "request", nodes });
    expect(found).toEqual([
      { path: "nodes[4]", message: 'node "shortcut": can be reached without passing a verification node' },
    ]);
  });

  it("refuses two verification nodes on one path", () => {
    const { nodes } = base();
    nodes[1]!.next = "verify-again";
    nodes.splice(2, 0, {
      id: "verify-again",
      type: "verification",
      next: "response",
      config: { channel: "oidc", claims: ["email"] },
    });
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[2]"]);
    expect(found[0]!.message).toContain("follows another verification node");
  });

  it.each([
    [{ type: "check-claim", config: { claimChecks: [{ source: "user", field: "email" }] } }],
    [{ type: "check-min-loa", config: { minLoa: 2 } }],
    [{ type: "evaluate", config: { conditions: [{ source: "loa", op: "gte", value: 2 }] } }],
  ])("refuses %j before the verification node", (step) => {
    const { nodes } = base();
    nodes[0]!.next = "early";
    nodes.splice(1, 0, { id: "early", next: "verify", ...step });
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[1]"]);
    expect(found[0]!.message).toContain("a verification node must come before it");
  });

  it("refuses an if on a claim before verification but accepts one on the provider", () => {
    const make = (condition: object) => {
      const { nodes } = base();
      nodes[0]!.next = "route";
      nodes.splice(1, 0, { id: "route", type: "if", then: "verify", else: "verify", config: { condition } });
      return { entryNodeId: "request", nodes };
    };
    expect(paths(make({ source: "claim", field: "email", op: "exists" }))).toEqual(["nodes[1]"]);
    expect(paths(make({ source: "provider", op: "in", value: ["passport"] }))).toEqual([]);
  });
});
