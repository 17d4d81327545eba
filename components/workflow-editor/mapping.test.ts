import { describe, expect, it } from "vitest";
import { NODE_TYPE_DEFINITIONS } from "@/lib/workflows/node-types";
import { starterWorkflow } from "@/lib/workflows/starter";
import { historyReducer, initHistory } from "./history";
import { layoutPositions, withPositions } from "./layout";
import {
  addNode,
  connect,
  copyNodes,
  draftToFlow,
  flowToDraft,
  moveNodes,
  pasteNodes,
  removeLinks,
  removeNodes,
  renameNode,
  splitNodePath,
} from "./mapping";
import { nodeSummary } from "./summary";
import type { TDraft } from "./types";

/** A workflow with every node type of the catalog, branching on an `if`. */
const every: TDraft = {
  name: "Every node type",
  entryNodeId: "request",
  nodes: [
    { id: "request", type: "request", next: "verify" },
    {
      id: "verify",
      type: "verification",
      next: "claims",
      config: {
        channel: "api",
        claims: ["given_name", "family_name", "birthdate", "nationality"],
        mode: "pii",
        branding: { useAppBranding: false, name: "Shop", logo: "" },
        providers: { passport: { enabled: true }, se_bankid: { enabled: false } },
      },
    },
    {
      id: "claims",
      type: "check-claim",
      next: "loa",
      config: { claimChecks: [{ source: "user", field: "birthdate" }] },
    },
    { id: "loa", type: "check-min-loa", next: "eval", config: { minLoa: 2 } },
    {
      id: "eval",
      type: "evaluate",
      next: "branch",
      config: {
        conditions: [
          { source: "claim", field: "nationality", op: "in", value: ["SE", "NO"] },
          { source: "loa", op: "gte", value: 2 },
        ],
        operator: "any",
        reasonCode: "not_nordic",
      },
    },
    {
      id: "branch",
      type: "if",
      then: "ok",
      else: "fallback",
      config: { condition: { source: "claim", field: "birthdate", op: "age_gte", value: 18 } },
    },
    { id: "ok", type: "response" },
    { id: "fallback", type: "response" },
  ],
  positions: {
    request: { x: 0, y: 0 },
    verify: { x: 0, y: 120 },
    claims: { x: 0, y: 240 },
    loa: { x: 10, y: 360 },
    eval: { x: 20, y: 480 },
    branch: { x: 30, y: 600 },
    ok: { x: -140, y: 720 },
    fallback: { x: 200.5, y: 720 },
  },
};

describe("draftToFlow / flowToDraft", () => {
  it("covers every node type of the catalog", () => {
    const types = new Set(every.nodes.map((n) => n.type));
    for (const def of NODE_TYPE_DEFINITIONS) expect(types.has(def.type)).toBe(true);
  });

  it("round-trips every node type unchanged, positions kept", () => {
    const flow = draftToFlow(every);
    expect(flow.nodes).toHaveLength(every.nodes.length);
    expect(flow.nodes.find((n) => n.id === "fallback")?.position).toEqual({ x: 200.5, y: 720 });
    const back = flowToDraft(every, flow.nodes, flow.edges);
    expect(back).toEqual(every);
    // the JSON the API receives is the same too (no keys added, e.g. next: undefined)
    expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(every)));
  });

  it("draws if nodes with then/else handles and labels, others with next", () => {
    const { edges } = draftToFlow(every);
    const fromBranch = edges.filter((e) => e.source === "branch");
    expect(fromBranch.map((e) => [e.sourceHandle, e.target, e.label])).toEqual([
      ["then", "ok", "then"],
      ["else", "fallback", "else"],
    ]);
    expect(edges.find((e) => e.source === "request")).toMatchObject({
      sourceHandle: "next",
      target: "verify",
    });
    expect(edges).toHaveLength(7);
  });

  it("takes links from moved/removed edges and keeps the node order", () => {
    const flow = draftToFlow(every);
    const edges = flow.edges.filter((e) => e.id !== "branch:else");
    const back = flowToDraft(every, flow.nodes, edges);
    expect(back.nodes.find((n) => n.id === "branch")).not.toHaveProperty("else");
    expect(back.nodes.map((n) => n.id)).toEqual(every.nodes.map((n) => n.id));
  });

  it("round-trips the starter workflow after automatic layout", () => {
    const starter = withPositions({ ...starterWorkflow(), positions: {} });
    expect(Object.keys(starter.positions).sort()).toEqual(["request", "response", "verification"]);
    // top to bottom along the links
    expect(starter.positions.request!.y).toBeLessThan(starter.positions.verification!.y);
    expect(starter.positions.verification!.y).toBeLessThan(starter.positions.response!.y);
    const flow = draftToFlow(starter);
    expect(flowToDraft(starter, flow.nodes, flow.edges)).toEqual(starter);
  });
});

describe("edits", () => {
  const blank: TDraft = {
    name: "Blank",
    entryNodeId: "request",
    nodes: [
      { id: "request", type: "request", next: "response" },
      { id: "response", type: "response" },
    ],
    positions: { request: { x: 0, y: 0 }, response: { x: 0, y: 200 } },
  };
  const verificationDef = NODE_TYPE_DEFINITIONS.find((d) => d.type === "verification")!;

  it("adds a node with a unique id and a config from the catalog's required fields", () => {
    const { draft, id } = addNode(blank, verificationDef, { x: 10.4, y: 99.6 });
    expect(id).toBe("verification");
    expect(draft.positions[id]).toEqual({ x: 10, y: 100 });
    expect(draft.nodes.at(-1)).toEqual({
      id: "verification",
      type: "verification",
      config: { channel: "oidc", claims: [], branding: { useAppBranding: true } },
    });
    expect(addNode(draft, verificationDef, { x: 0, y: 0 }).id).toBe("verification-2");
    const response = addNode(blank, { type: "response", fields: [] }, { x: 0, y: 0 });
    expect(response.id).toBe("response-2");
    expect(response.draft.nodes.at(-1)).toEqual({ id: "response-2", type: "response" });
  });

  it("connects, replaces and removes links; removing a node drops the links into it", () => {
    let d = addNode(blank, verificationDef, { x: 0, y: 100 }).draft;
    d = connect(d, "request", "next", "verification");
    d = connect(d, "verification", "next", "response");
    expect(d.nodes.map((n) => n.next)).toEqual(["verification", undefined, "response"]);
    d = removeLinks(d, [{ source: "verification", key: "next" }]);
    expect(d.nodes[2]).not.toHaveProperty("next");
    d = removeNodes(d, ["verification"]);
    expect(d.nodes).toEqual([
      { id: "request", type: "request" },
      { id: "response", type: "response" },
    ]);
    expect(d.positions).not.toHaveProperty("verification");
  });

  it("renames a node everywhere", () => {
    const d = renameNode(every, "branch", "adult");
    expect(d.nodes.find((n) => n.id === "eval")?.next).toBe("adult");
    expect(d.positions.adult).toEqual(every.positions.branch);
    expect(d.positions).not.toHaveProperty("branch");
    expect(renameNode(every, "branch", "ok")).toBe(every);
  });

  it("pastes copies with new ids, links among them kept, others dropped", () => {
    const clip = copyNodes(every, ["branch", "ok"])!;
    const { draft, ids } = pasteNodes(every, clip);
    expect(ids).toEqual(["branch-2", "ok-2"]);
    expect(draft.nodes.find((n) => n.id === "branch-2")).toMatchObject({ then: "ok-2" });
    expect(draft.nodes.find((n) => n.id === "branch-2")).not.toHaveProperty("else");
    expect(draft.positions["ok-2"]).toEqual({ x: -100, y: 760 });
  });

  it("moves nodes, and a move to the same place changes nothing", () => {
    expect(moveNodes(every, { ok: { x: -140, y: 720 } })).toBe(every);
    expect(moveNodes(every, { ok: { x: 1, y: 2 } }).positions.ok).toEqual({ x: 1, y: 2 });
  });

  it("splits validation paths into node index and field", () => {
    expect(splitNodePath("nodes[2].config.claims[0]")).toEqual({ index: 2, rest: "config.claims[0]" });
    expect(splitNodePath("nodes[4]")).toEqual({ index: 4, rest: "" });
    expect(splitNodePath("entryNodeId")).toBeNull();
  });
});

describe("history", () => {
  it("undoes and redoes edits, coalescing typing in one field", () => {
    const a = every;
    const b = { ...a, name: "B" };
    const c = { ...a, name: "Bc" };
    const d = moveNodes(c, { ok: { x: 0, y: 0 } });
    let h = initHistory(a);
    h = historyReducer(h, { type: "edit", draft: b, coalesce: "name", at: 1000 });
    h = historyReducer(h, { type: "edit", draft: c, coalesce: "name", at: 1500 });
    h = historyReducer(h, { type: "edit", draft: d, at: 1600 });
    expect(h.past).toEqual([a, c]);
    h = historyReducer(h, { type: "undo" });
    expect(h.present).toBe(c);
    h = historyReducer(h, { type: "undo" });
    expect(h.present).toBe(a);
    h = historyReducer(h, { type: "undo" });
    expect(h.present).toBe(a);
    h = historyReducer(h, { type: "redo" });
    h = historyReducer(h, { type: "redo" });
    expect(h.present).toBe(d);
  });
});

describe("layout and summaries", () => {
  it("lays out branches side by side", () => {
    const p = layoutPositions(every);
    expect(p.ok!.y).toBe(p.fallback!.y);
    expect(p.ok!.x).not.toBe(p.fallback!.x);
  });

  it("summarizes a node's config in one line", () => {
    expect(nodeSummary(every.nodes[1]!)).toBe("channel api · 4 claims · passport · without se_bankid");
    expect(nodeSummary(every.nodes[3]!)).toBe("LoA ≥ 2");
    expect(nodeSummary(every.nodes[5]!)).toBe("birthdate age ≥ 18");
    expect(nodeSummary(every.nodes[4]!)).toBe("any of 2 conditions · else not_nordic");
  });
});
