import { describe, expect, it } from "vitest";
import type { TWorkflowNode } from "./json";
import { starterWorkflow } from "./starter";
import { validateWorkflow, type TWorkflowDraft } from "./validate";

const PNG_1X1 =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const ctx = { appProviderIds: ["passport", "acme"] };

function base(): { entryNodeId: string; nodes: TWorkflowNode[] } {
  return {
    entryNodeId: "request",
    nodes: [
      { id: "request", type: "request", next: "verify" },
      {
        id: "verify",
        type: "verification",
        next: "response",
        config: { channel: "oidc", claims: ["given_name", "family_name"] },
      },
      { id: "response", type: "response" },
    ],
  };
}

/** The baseline with one node's config replaced. */
function withConfig(index: number, config: Record<string, unknown>, nodes = base().nodes) {
  nodes[index] = { ...nodes[index]!, config };
  return { entryNodeId: "request", nodes };
}

/** request → verify → <node> → response, to test one node type's config. */
function withStep(node: Omit<TWorkflowNode, "id" | "next">): TWorkflowDraft {
  const { nodes } = base();
  nodes[1]!.next = "step";
  nodes.splice(2, 0, { id: "step", next: "response", ...node });
  return { entryNodeId: "request", nodes };
}

function issues(draft: TWorkflowDraft, c = ctx) {
  return validateWorkflow(draft, c);
}
function paths(draft: TWorkflowDraft, c = ctx) {
  return issues(draft, c).map((i) => i.path);
}
function messageAt(draft: TWorkflowDraft, path: string) {
  return issues(draft).find((i) => i.path === path)?.message;
}

describe("valid workflows", () => {
  it("accepts the minimal request → verification → response", () => {
    expect(issues(base())).toEqual([]);
  });

  it("accepts the starter workflow for an app with passport", () => {
    expect(issues(starterWorkflow(), { appProviderIds: ["passport"] })).toEqual([]);
  });

  it("refuses the starter workflow for an app without passport (provider keys must be the app's)", () => {
    expect(paths(starterWorkflow(), { appProviderIds: ["acme"] })).toEqual([
      "nodes[1].config.providers.passport",
    ]);
  });

  it("accepts every node type with every field", () => {
    const draft: TWorkflowDraft = {
      entryNodeId: "start",
      nodes: [
        { id: "start", type: "request", next: "route" },
        {
          id: "route",
          type: "if",
          then: "verify-passport",
          else: "verify-other",
          config: { condition: { source: "provider", op: "equals", value: "passport" } },
        },
        {
          id: "verify-passport",
          type: "verification",
          next: "claims",
          config: {
            channel: "api",
            claims: ["birthdate", "nationality", "document_number"],
            mode: "age_verification",
            minimumAge: 18,
            branding: { name: "Shop", logo: PNG_1X1, useAppBranding: false },
            providers: { passport: { enabled: true }, acme: { enabled: false } },
          },
        },
        {
          id: "verify-other",
          type: "verification",
          next: "claims",
          config: { channel: "oidc", claims: ["given_name"], mode: "pii", branding: { logo: "" } },
        },
        {
          id: "claims",
          type: "check-claim",
          next: "loa",
          config: { claimChecks: [{ source: "user", field: "birthdate" }] },
        },
        { id: "loa", type: "check-min-loa", next: "rules", config: { minLoa: 2 } },
        {
          id: "rules",
          type: "evaluate",
          next: "adult",
          config: {
            operator: "any",
            reasonCode: "not_allowed",
            conditions: [
              { source: "claim", field: "nationality", op: "in", value: ["DE", "AT"] },
              { source: "claim", field: "birthdate", op: "age_gte", value: 18 },
              { source: "claim", field: "email", op: "exists" },
              { source: "claim", field: "birthdate", op: "lte", value: "2007-01-01" },
              { source: "loa", op: "gte", value: 2 },
              { source: "loa", op: "not_in", value: [0, 1] },
              { source: "provider", op: "not_equals", value: "passport" },
              { source: "claim", field: "email_verified", op: "equals", value: true },
            ],
          },
        },
        {
          id: "adult",
          type: "if",
          then: "done",
          else: "minor",
          config: { condition: { source: "claim", field: "birthdate", op: "age_lt", value: 21 } },
        },
        { id: "done", type: "response", config: {} },
        { id: "minor", type: "response" },
      ],
    };
    expect(issues(draft)).toEqual([]);
  });
});

describe("size and ids", () => {
  it("refuses more than 200 nodes", () => {
    const nodes = Array.from({ length: 201 }, (_, i) => ({ id: `n${i}`, type: "response" }));
    expect(paths({ entryNodeId: "n0", nodes })).toEqual(["nodes"]);
  });

  it("accepts exactly 200 nodes", () => {
    const { nodes } = base();
    nodes[1]!.next = "c0";
    const checks = Array.from({ length: 197 }, (_, i) => ({
      id: `c${i}`,
      type: "check-min-loa",
      next: i === 196 ? "response" : `c${i + 1}`,
      config: { minLoa: 1 },
    }));
    nodes.splice(2, 0, ...checks);
    expect(nodes).toHaveLength(200);
    expect(issues({ entryNodeId: "request", nodes })).toEqual([]);
  });

  it.each([
    ["", "must not be empty"],
    ["has space", "letters, digits"],
    ["x".repeat(65), "letters, digits"],
  ])("refuses the node id %j", (id, message) => {
    const { nodes } = base();
    nodes[2]!.id = id;
    nodes[1]!.next = id;
    const found = issues({ entryNodeId: "request", nodes });
    expect(found[0]).toMatchObject({ path: "nodes[2].id" });
    expect(found[0]!.message).toContain(message);
    // structural problems stop the graph checks, so the bad id is not also reported as a cycle or orphan
    expect(found.map((i) => i.path)).not.toContain("nodes[2]");
  });

  it("refuses duplicate ids, naming the first holder", () => {
    const { nodes } = base();
    nodes.push({ id: "verify", type: "response" });
    const found = issues({ entryNodeId: "request", nodes });
    expect(found).toEqual([{ path: "nodes[3].id", message: 'node "verify": duplicates the id of nodes[1]' }]);
  });
});

describe("types and the entry point", () => {
  it("refuses an unknown type", () => {
    const { nodes } = base();
    nodes[1]!.type = "verify";
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[1].type"]);
    expect(found[0]!.message).toContain('unknown type "verify"');
    expect(found[0]!.message).toContain("check-min-loa");
  });

  it("refuses a workflow without a request node", () => {
    const { nodes } = base();
    nodes.shift();
    expect(paths({ entryNodeId: "verify", nodes })).toEqual(["nodes", "entryNodeId"]);
  });

  it("refuses a second request node", () => {
    const { nodes } = base();
    nodes.push({ id: "again", type: "request", next: "verify" });
    const found = issues({ entryNodeId: "request", nodes });
    expect(found.map((i) => i.path)).toEqual(["nodes[3].type"]);
    expect(found[0]!.message).toContain("exactly one request node");
  });

  it("refuses a workflow without a response node", () => {
    const { nodes } = base();
    nodes.pop();
    delete nodes[1]!.next;
    nodes[1]!.next = "request";
    expect(paths({ entryNodeId: "request", nodes })).toContain("nodes");
  });

  it.each([
    ["", "must not be empty"],
    ["nowhere", '"nowhere" is not a node of this workflow'],
    ["verify", 'must name the request node; "verify" is a verification node'],
  ])("refuses entryNodeId %j", (entryNodeId, message) => {
    expect(issues({ entryNodeId, nodes: base().nodes })).toEqual([{ path: "entryNodeId", message }]);
  });
});

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

describe("config: request and response", () => {
  it("refuses config fields on request and response nodes", () => {
    const { nodes } = base();
    nodes[0]!.config = { colour: "red" };
    nodes[2]!.config = { status: "ok" };
    const found = issues({ entryNodeId: "request", nodes });
    expect(found).toEqual([
      { path: "nodes[0].config.colour", message: 'node "request": unknown field' },
      { path: "nodes[2].config.status", message: 'node "response": unknown field' },
    ]);
  });
});

describe("config: verification", () => {
  const verify = (config: Record<string, unknown>) => withConfig(1, config);
  const ok = { channel: "oidc", claims: ["given_name"] };

  it("requires channel and claims", () => {
    const found = issues(verify({}));
    expect(found).toEqual([
      { path: "nodes[1].config.channel", message: 'node "verify": is required' },
      { path: "nodes[1].config.claims", message: 'node "verify": is required' },
    ]);
  });

  it.each([
    [{ ...ok, channel: "sms" }, "nodes[1].config.channel", "must be one of: oidc, api"],
    [{ ...ok, channel: 1 }, "nodes[1].config.channel", "must be one of: oidc, api"],
    [{ ...ok, claims: "given_name" }, "nodes[1].config.claims", "must be an array of claim names"],
    [{ ...ok, claims: [] }, "nodes[1].config.claims", "must name at least one claim"],
    [
      { ...ok, claims: ["given_name", "shoe_size"] },
      "nodes[1].config.claims[1]",
      '"shoe_size" is not a known claim',
    ],
    [{ ...ok, claims: [42] }, "nodes[1].config.claims[0]", "must be a string"],
    [{ ...ok, claims: ["email", "email"] }, "nodes[1].config.claims[1]", '"email" is listed twice'],
    [{ ...ok, mode: "kyc" }, "nodes[1].config.mode", "must be one of: pii, age_verification"],
    [
      { ...ok, mode: "age_verification" },
      "nodes[1].config.minimumAge",
      "is required when mode is age_verification",
    ],
    [{ ...ok, minimumAge: 18 }, "nodes[1].config.minimumAge", "only applies when mode is age_verification"],
    [{ ...ok, mode: "pii", minimumAge: 18 }, "nodes[1].config.minimumAge", "only applies"],
    [{ ...ok, mode: "age_verification", minimumAge: 0 }, "nodes[1].config.minimumAge", "must be at least 1"],
    [
      { ...ok, mode: "age_verification", minimumAge: 151 },
      "nodes[1].config.minimumAge",
      "must be at most 150",
    ],
    [
      { ...ok, mode: "age_verification", minimumAge: 17.5 },
      "nodes[1].config.minimumAge",
      "must be an integer",
    ],
    [{ ...ok, mode: "age_verification", minimumAge: "18" }, "nodes[1].config.minimumAge", "must be a number"],
    [{ ...ok, branding: "app" }, "nodes[1].config.branding", "must be an object"],
    [{ ...ok, branding: { colour: "red" } }, "nodes[1].config.branding.colour", "unknown field"],
    [
      { ...ok, branding: { useAppBranding: "yes" } },
      "nodes[1].config.branding.useAppBranding",
      "must be a boolean",
    ],
    [{ ...ok, branding: { name: " " } }, "nodes[1].config.branding.name", "must not be empty"],
    [{ ...ok, branding: { name: "x".repeat(101) } }, "nodes[1].config.branding.name", "at most 100"],
    [{ ...ok, branding: { logo: "https://x.example/logo.png" } }, "nodes[1].config.branding.logo", "data"],
    [
      { ...ok, providers: ["passport"] },
      "nodes[1].config.providers",
      "must be an object keyed by provider id",
    ],
    [
      { ...ok, providers: { nope: { enabled: true } } },
      "nodes[1].config.providers.nope",
      '"nope" is not a provider of this app',
    ],
    [{ ...ok, providers: { acme: true } }, "nodes[1].config.providers.acme", "must be an object"],
    [
      { ...ok, providers: { acme: { enabled: "no" } } },
      "nodes[1].config.providers.acme.enabled",
      "must be a boolean",
    ],
    [{ ...ok, providers: { acme: {} } }, "nodes[1].config.providers.acme.enabled", "is required"],
    [
      { ...ok, providers: { acme: { enabled: false, minLoa: 2 } } },
      "nodes[1].config.providers.acme.minLoa",
      "unknown field",
    ],
    [
      { ...ok, providers: { acme: { enabled: false }, passport: { enabled: false } } },
      "nodes[1].config.providers",
      "opts out every provider of the app",
    ],
    [{ ...ok, colour: "red" }, "nodes[1].config.colour", "unknown field"],
  ])("refuses %j at %s", (config, path, message) => {
    const found = issues(verify(config));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
    expect(found[0]!.message).toMatch(/^node "verify": /);
  });

  it("lists the app's providers when a key is not one of them", () => {
    expect(
      messageAt(verify({ ...ok, providers: { nope: { enabled: true } } }), "nodes[1].config.providers.nope"),
    ).toBe('node "verify": "nope" is not a provider of this app (its providers: acme, passport)');
  });

  it("accepts opting out some providers, and any keys when they are the app's", () => {
    expect(issues(verify({ ...ok, providers: { acme: { enabled: false } } }))).toEqual([]);
    expect(issues(verify({ ...ok, providers: {} }))).toEqual([]);
  });

  it("reports several problems at once", () => {
    expect(
      paths(
        verify({ channel: "sms", claims: ["nope"], extra: 1, providers: { ghost: { enabled: true } } }),
      ).sort(),
    ).toEqual([
      "nodes[1].config.channel",
      "nodes[1].config.claims[0]",
      "nodes[1].config.extra",
      "nodes[1].config.providers.ghost",
    ]);
  });
});

describe("config: check-claim", () => {
  const step = (config: Record<string, unknown>) => withStep({ type: "check-claim", config });
  it.each([
    [{}, "nodes[2].config.claimChecks", "is required"],
    [{ claimChecks: [] }, "nodes[2].config.claimChecks", "at least one"],
    [{ claimChecks: {} }, "nodes[2].config.claimChecks", "must be an array"],
    [{ claimChecks: ["email"] }, "nodes[2].config.claimChecks[0]", "must be an object"],
    [{ claimChecks: [{ field: "email" }] }, "nodes[2].config.claimChecks[0].source", "is required"],
    [
      { claimChecks: [{ source: "admin", field: "email" }] },
      "nodes[2].config.claimChecks[0].source",
      "must be one of: user",
    ],
    [{ claimChecks: [{ source: "user" }] }, "nodes[2].config.claimChecks[0].field", "is required"],
    [
      { claimChecks: [{ source: "user", field: "iban" }] },
      "nodes[2].config.claimChecks[0].field",
      "not a known claim",
    ],
    [
      { claimChecks: [{ source: "user", field: "email", op: "exists" }] },
      "nodes[2].config.claimChecks[0].op",
      "unknown field",
    ],
  ])("refuses %j at %s", (config, path, message) => {
    const found = issues(step(config));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  });

  it("accepts user claim checks", () => {
    expect(issues(step({ claimChecks: [{ source: "user", field: "nationality" }] }))).toEqual([]);
  });
});

describe("config: check-min-loa", () => {
  const step = (config: Record<string, unknown>) => withStep({ type: "check-min-loa", config });
  it.each([1, 2, 3])("accepts minLoa %d", (minLoa) => {
    expect(issues(step({ minLoa }))).toEqual([]);
  });
  it.each([
    [{}, "is required"],
    [{ minLoa: 0 }, "must be 1, 2 or 3"],
    [{ minLoa: 4 }, "must be 1, 2 or 3"],
    [{ minLoa: 2.5 }, "must be an integer"],
    [{ minLoa: "2" }, "must be a number"],
  ])("refuses %j", (config, message) => {
    const found = issues(step(config));
    expect(found.map((i) => i.path)).toEqual(["nodes[2].config.minLoa"]);
    expect(found[0]!.message).toContain(message);
  });
  it("refuses unknown fields", () => {
    expect(paths(step({ minLoa: 2, maxLoa: 3 }))).toEqual(["nodes[2].config.maxLoa"]);
  });
});

describe("config: evaluate and conditions", () => {
  const step = (config: Record<string, unknown>) => withStep({ type: "evaluate", config });
  const cond = (condition: Record<string, unknown>) => step({ conditions: [condition] });
  const at = "nodes[2].config.conditions[0]";

  it.each([
    [{}, "nodes[2].config.conditions", "is required"],
    [{ conditions: [] }, "nodes[2].config.conditions", "at least one condition"],
    [{ conditions: "all" }, "nodes[2].config.conditions", "must be an array"],
    [
      { conditions: [{ source: "loa", op: "gte", value: 2 }], operator: "most" },
      "nodes[2].config.operator",
      "must be one of: all, any",
    ],
    [
      { conditions: [{ source: "loa", op: "gte", value: 2 }], reasonCode: "Too Young!" },
      "nodes[2].config.reasonCode",
      "lowercase",
    ],
    [
      { conditions: [{ source: "loa", op: "gte", value: 2 }], message: "x" },
      "nodes[2].config.message",
      "unknown field",
    ],
  ])("refuses %j at %s", (config, path, message) => {
    const found = issues(step(config));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  });

  it.each([
    [{ op: "exists", field: "email" }, `${at}.source`, "is required"],
    [{ source: "device", op: "exists" }, `${at}.source`, "must be one of: claim, loa, provider"],
    [{ source: "claim", field: "email" }, `${at}.op`, "is required"],
    [{ source: "claim", field: "email", op: "matches", value: "x" }, `${at}.op`, "must be one of"],
    [{ source: "claim", field: "email", op: "exists", colour: 1 }, `${at}.colour`, "unknown field"],
    [{ source: "claim", op: "exists" }, `${at}.field`, "is required when source is claim"],
    [{ source: "claim", field: "iban", op: "exists" }, `${at}.field`, '"iban" is not a known claim name'],
    [{ source: "loa", field: "email", op: "gte", value: 2 }, `${at}.field`, "only used when source is claim"],
    [{ source: "loa", op: "exists" }, `${at}.op`, "exists does not apply to source loa"],
    [{ source: "provider", op: "gte", value: "a" }, `${at}.op`, "gte does not apply to source provider"],
    [{ source: "provider", op: "age_gte", value: 18 }, `${at}.op`, "does not apply"],
    [
      { source: "claim", field: "email", op: "exists", value: true },
      `${at}.value`,
      "must be absent for exists",
    ],
    [{ source: "claim", field: "email", op: "not_exists", value: 1 }, `${at}.value`, "must be absent"],
    [{ source: "claim", field: "email", op: "equals" }, `${at}.value`, "is required for equals"],
    [
      { source: "claim", field: "address", op: "equals", value: { city: "x" } },
      `${at}.value`,
      "string, number or boolean",
    ],
    [
      { source: "claim", field: "nationality", op: "in", value: "DE" },
      `${at}.value`,
      "must be an array of 1–100 values",
    ],
    [{ source: "claim", field: "nationality", op: "not_in", value: [] }, `${at}.value`, "1–100"],
    [{ source: "claim", field: "nationality", op: "in" }, `${at}.value`, "is required for in"],
    [
      { source: "claim", field: "nationality", op: "in", value: ["DE", null] },
      `${at}.value[1]`,
      "string, number or boolean",
    ],
    [{ source: "claim", field: "birthdate", op: "gte", value: true }, `${at}.value`, "a number or a string"],
    [{ source: "claim", field: "birthdate", op: "lte" }, `${at}.value`, "is required for lte"],
    [{ source: "loa", op: "gte", value: 4 }, `${at}.value`, "level of assurance 0, 1, 2 or 3"],
    [{ source: "loa", op: "equals", value: "high" }, `${at}.value`, "level of assurance"],
    [{ source: "loa", op: "in", value: [1, 5] }, `${at}.value[1]`, "level of assurance"],
    [{ source: "provider", op: "equals", value: 1 }, `${at}.value`, "must be a provider id"],
    [
      { source: "provider", op: "equals", value: "no-such-eid" },
      `${at}.value`,
      '"no-such-eid" is not a provider of the catalog',
    ],
    [
      { source: "provider", op: "in", value: ["passport", "nope"] },
      `${at}.value[1]`,
      "not a provider of the catalog",
    ],
    [
      { source: "claim", field: "email", op: "age_gte", value: 18 },
      `${at}.field`,
      "age_gte applies to birthdate only",
    ],
    [{ source: "claim", field: "birthdate", op: "age_gte" }, `${at}.value`, "is required for age_gte"],
    [{ source: "claim", field: "birthdate", op: "age_lt", value: -1 }, `${at}.value`, "age in whole years"],
    [
      { source: "claim", field: "birthdate", op: "age_gte", value: 17.5 },
      `${at}.value`,
      "age in whole years",
    ],
  ])("refuses the condition %j at %s", (condition, path, message) => {
    const found = issues(cond(condition));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  });

  it("points at the right condition of several", () => {
    const draft = step({
      conditions: [
        { source: "loa", op: "gte", value: 2 },
        { source: "claim", field: "email", op: "exists" },
        { source: "loa", op: "gte", value: 9 },
      ],
    });
    expect(paths(draft)).toEqual(["nodes[2].config.conditions[2].value"]);
  });
});

describe("config: if", () => {
  const step = (config: Record<string, unknown>) => {
    const draft = withStep({ type: "if", config });
    const node = draft.nodes[2]!;
    delete node.next;
    node.then = "response";
    node.else = "response";
    return draft;
  };
  it("requires a condition", () => {
    expect(issues(step({}))).toEqual([
      { path: "nodes[2].config.condition", message: 'node "step": is required' },
    ]);
  });
  it("checks the condition", () => {
    expect(paths(step({ condition: { source: "loa", op: "gte", value: 7 } }))).toEqual([
      "nodes[2].config.condition.value",
    ]);
    expect(paths(step({ condition: "loa >= 2" }))).toEqual(["nodes[2].config.condition"]);
  });
  it("refuses a list of conditions (that is what evaluate is for)", () => {
    expect(paths(step({ condition: { source: "loa", op: "gte", value: 2 }, conditions: [] }))).toEqual([
      "nodes[2].config.conditions",
    ]);
  });
  it("accepts a valid condition", () => {
    expect(
      issues(step({ condition: { source: "claim", field: "birthdate", op: "age_gte", value: 18 } })),
    ).toEqual([]);
  });
});
