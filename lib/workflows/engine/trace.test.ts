import { describe, expect, it } from "vitest";
import type { TWorkflowNode } from "../json";
import { runChecks } from "./run";
import {
  NOW,
  catalogIdentity,
  identity,
  provider,
  requestNode,
  responseNode,
  verificationNode,
  workflow,
} from "./test-fixtures";
import { joinPaths, nodeResults, traceChecks, traceUnauthenticated, traceWorkflow } from "./trace";

const deEid = provider("de_eid");
const appProviders = { de_eid: { enabled: true }, passport: { enabled: true } };

/** request → route(if provider de_eid) → vEid | vOther → loa(2) → adult(age_gte 18) → response */
const branching = workflow([
  requestNode("route"),
  {
    id: "route",
    type: "if",
    then: "vEid",
    else: "vOther",
    config: { condition: { source: "provider", op: "equals", value: "de_eid" } },
  },
  verificationNode({ claims: ["given_name", "birthdate"] }, "loa", "vEid"),
  verificationNode({ claims: ["given_name"] }, "loa", "vOther"),
  { id: "loa", type: "check-min-loa", next: "adult", config: { minLoa: 2 } },
  {
    id: "adult",
    type: "evaluate",
    next: "response",
    config: {
      conditions: [{ source: "claim", field: "birthdate", op: "age_gte", value: 18 }],
      reasonCode: "underage",
    },
  } satisfies TWorkflowNode,
  responseNode(),
]);

const ERIKA = { given_name: "Erika", birthdate: "1964-08-12" };

describe("joinPaths", () => {
  it("keeps the verification node once", () => {
    expect(joinPaths(["request", "v"], ["v", "loa", "response"])).toEqual([
      "request",
      "v",
      "loa",
      "response",
    ]);
    expect(joinPaths([], ["v", "response"])).toEqual(["v", "response"]);
    expect(joinPaths(["request", "v"], [])).toEqual(["request", "v"]);
  });
});

describe("nodeResults", () => {
  it("passes every node of the path but the failing one", () => {
    expect(nodeResults(["a", "b", "c"], { nodeId: "c", reason: "loa_too_low" })).toEqual({
      a: { result: "passed" },
      b: { result: "passed" },
      c: { result: "failed", reason: "loa_too_low" },
    });
    expect(nodeResults(["a"], { nodeId: "", reason: "workflow_deleted" })).toEqual({
      a: { result: "passed" },
    });
  });
});

describe("traceWorkflow", () => {
  const run = (providerId: string, claims: Record<string, unknown>, loa: number) =>
    traceWorkflow(branching, {
      providerId,
      provider: provider(providerId),
      appProviders,
      identity: identity(claims, loa),
      loa,
      now: NOW,
    }).trace;

  it("a completed run: the whole path from the entry, every node passed, the disclosure", () => {
    const trace = run("de_eid", ERIKA, 3);
    expect(trace).toEqual({
      outcome: "completed",
      path: ["request", "route", "vEid", "loa", "adult", "response"],
      nodes: {
        request: { result: "passed" },
        route: { result: "passed" },
        vEid: { result: "passed" },
        loa: { result: "passed" },
        adult: { result: "passed" },
        response: { result: "passed" },
      },
      user: ERIKA,
      missingClaims: [],
      verificationNodeId: "vEid",
    });
  });

  it("the other branch of an if, and the failing node with its reason code", () => {
    const low = run("passport", { given_name: "Anna", birthdate: "1974-08-12" }, 1);
    expect(low.outcome).toBe("failed");
    expect(low.path).toEqual(["request", "route", "vOther", "loa"]);
    expect(low.reason).toBe("loa_too_low");
    expect(low.failedNodeId).toBe("loa");
    expect(low.nodes.loa).toEqual({ result: "failed", reason: "loa_too_low" });
    expect(low.nodes.vOther).toEqual({ result: "passed" });
    expect(low.user).toEqual({});

    const minor = run("de_eid", { given_name: "Kid", birthdate: "2015-01-01" }, 3);
    expect(minor.path).toEqual(["request", "route", "vEid", "loa", "adult"]);
    expect(minor.nodes.adult).toEqual({ result: "failed", reason: "underage" });
  });

  it("matches what runChecks alone reports from the verification node on (backwards compatible)", () => {
    const { identity: source, loa } = catalogIdentity("de_eid", "success");
    const checks = runChecks(branching, "vEid", { provider: deEid, identity: source, loa, now: NOW });
    const { trace, plan } = traceWorkflow(branching, {
      providerId: "de_eid",
      provider: deEid,
      appProviders,
      identity: source,
      loa,
      now: NOW,
    });
    expect(plan.path).toEqual(["request", "route", "vEid"]);
    expect(trace.path.slice(plan.path.length - 1)).toEqual(checks.path);
    expect(trace).toEqual(traceChecks(plan.path, "vEid", checks));
  });
});

describe("traceUnauthenticated", () => {
  it("ends at the verification node with the provider's reason", () => {
    expect(traceUnauthenticated(["request", "v"], "v", "authentication_failed")).toMatchObject({
      outcome: "failed",
      reason: "authentication_failed",
      failedNodeId: "v",
      path: ["request", "v"],
      nodes: { request: { result: "passed" }, v: { result: "failed", reason: "authentication_failed" } },
      user: {},
    });
    expect(traceUnauthenticated([], "v", "session_timed_out").path).toEqual(["v"]);
  });
});
