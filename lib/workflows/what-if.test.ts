import { describe, expect, it } from "vitest";
import { buildDecision, type TDecisionRecord } from "../verifications/decisions";
import { simulateOutcome } from "../providers/adapters/simulator";
import { NOW, provider, requestNode, responseNode, verificationNode, workflow } from "./engine/test-fixtures";
import { runChecks } from "./engine/run";
import type { TRunnableWorkflow } from "./engine/nodes";
import { collectFacts, conditionKey, factsFromRecord, UnknownFact } from "./facts";
import type { TWorkflowNode } from "./json";
import { knownCustomerData } from "./test-run";
import { WHAT_IF_MAX_EXAMPLES } from "./run-endpoints";
import { compareRuns, replayDecision, type TReplayRecord } from "./what-if";

const deEid = provider("de_eid");

const adultOnly: TWorkflowNode = {
  id: "adult",
  type: "evaluate",
  config: {
    conditions: [{ source: "claim", field: "birthdate", op: "age_gte", value: 18 }],
    reasonCode: "underage",
  },
};
const german: TWorkflowNode = {
  id: "german",
  type: "if",
  then: "response",
  else: "loa3",
  config: { condition: { source: "claim", field: "nationality", op: "equals", value: "DE" } },
};

/** request → verification → loa(minLoa) → adult → german? response : loa3 → response */
function policy(minLoa: number, extra: { nationality?: string; age?: number } = {}): TRunnableWorkflow {
  return workflow([
    requestNode(),
    verificationNode({ claims: ["given_name", "family_name", "birthdate", "nationality"] }, "loa"),
    { id: "loa", type: "check-min-loa", next: "adult", config: { minLoa } },
    {
      ...adultOnly,
      next: "german",
      config: {
        conditions: [{ source: "claim", field: "birthdate", op: "age_gte", value: extra.age ?? 18 }],
        reasonCode: "underage",
      },
    },
    {
      ...german,
      config: {
        condition: { source: "claim", field: "nationality", op: "equals", value: extra.nationality ?? "DE" },
      },
    },
    { id: "loa3", type: "check-min-loa", next: "response", config: { minLoa: 3 } },
    responseNode(),
  ]);
}

/** The decision record a sandbox session of `identityId` gets with `wf` (as service.ts writes it). */
function recordOf(wf: TRunnableWorkflow, providerId: string, identityId: string): TDecisionRecord {
  const p = provider(providerId);
  const answer = simulateOutcome(p, {
    outcome: "success",
    identityId,
    ...(p.verificationModel === "match" ? { matchData: knownCustomerData(p) } : {}),
    at: NOW,
  });
  const v = {
    id: `ver_${identityId}`,
    workflowId: "wf_1",
    workflowVersion: 3,
    verificationNodeId: "verification",
  };
  if (answer.kind !== "success")
    return buildDecision(v, wf, {
      kind: "unauthenticated",
      provider: p,
      reason: answer.kind === "failure" ? answer.reason : answer.kind,
    });
  const loa = answer.identity.loa ?? p.defaultLoa;
  const checks = runChecks(wf, "verification", { provider: p, identity: answer.identity, loa, now: NOW });
  return buildDecision(v, wf, {
    kind: "checked",
    provider: p,
    identity: answer.identity,
    loa,
    checks,
    now: NOW,
  });
}

function replayOf(record: TDecisionRecord): TReplayRecord {
  return record;
}

describe("collectFacts / factsFromRecord", () => {
  const erika = { given_name: "Erika", birthdate: "1964-08-12", nationality: "DE" };

  it("records the workflow's value tests as booleans and age thresholds, never the values", () => {
    const facts = collectFacts(policy(2, { age: 65 }), {
      providerId: "de_eid",
      claims: erika,
      loa: 3,
      now: NOW,
    });
    expect(facts).toEqual({
      ages: { "65": false },
      conditions: {
        [conditionKey({ source: "claim", field: "nationality", op: "equals", value: "DE" })]: true,
      },
    });
    const text = JSON.stringify(facts);
    for (const value of ["Erika", "1964", "08-12"]) expect(text).not.toContain(value);
  });

  it("age_verification minimum ages, year-only and unusable birthdates", () => {
    const wf = workflow([
      requestNode(),
      verificationNode({ claims: ["given_name"], mode: "age_verification", minimumAge: 21 }),
      responseNode(),
    ]);
    const at = (birthdate: string) =>
      collectFacts(wf, { providerId: "de_eid", claims: { birthdate }, loa: 3, now: NOW }).ages;
    expect(at("1964-08-12")).toEqual({ "21": true });
    expect(at("2005")).toEqual({ "21": "undetermined" });
    expect(at("not a date")).toEqual({ "21": "invalid" });
    // no birthdate: presence answers every age test
    expect(collectFacts(wf, { providerId: "de_eid", claims: {}, loa: 3, now: NOW })).toEqual({});
  });

  it("answers what was recorded and throws UnknownFact otherwise", () => {
    const facts = factsFromRecord({
      ages: { "18": true, "16": "invalid" },
      conditions: { '["nationality","equals","DE"]': false },
    });
    expect(facts.atLeast(18)).toBe(true);
    expect(facts.atLeast(16)).toBeUndefined();
    expect(() => facts.atLeast(21)).toThrow(UnknownFact);
    expect(facts.holds({ source: "claim", field: "nationality", op: "equals", value: "DE" })).toBe(false);
    expect(() => facts.holds({ source: "claim", field: "nationality", op: "equals", value: "NL" })).toThrow(
      UnknownFact,
    );
  });
});

describe("replayDecision", () => {
  const wf = policy(2);

  it("re-running the session's own workflow gives what the session got, for every test identity", () => {
    for (const providerId of ["de_eid", "passport", "bank_data_match"]) {
      for (const test of provider(providerId).testIdentities) {
        const record = recordOf(wf, providerId, test.id);
        const replayed = replayDecision(wf, replayOf(record));
        expect(replayed, `${test.id}`).toEqual({
          outcome: record.outcome,
          ...(record.reasonCode ? { reasonCode: record.reasonCode } : {}),
          path: record.path,
        });
      }
    }
  });

  it("records no personal values", () => {
    for (const test of deEid.testIdentities) {
      const text = JSON.stringify(recordOf(wf, "de_eid", test.id));
      for (const value of Object.values(test.claims))
        if (typeof value === "string" && value.length > 2) expect(text, test.id).not.toContain(value);
    }
    const mismatch = recordOf(wf, "bank_data_match", "bank_data_match-mismatch");
    expect(mismatch.match).toEqual({
      matched: false,
      granularity: expect.any(String),
      fields: expect.any(Object),
    });
    expect(JSON.stringify(mismatch)).not.toContain("Mustermann");
  });

  it("a higher minimum LoA fails the low_loa session at that node", () => {
    const record = recordOf(wf, "de_eid", "de_eid-low-loa");
    expect(record.outcome).toBe("failed");
    const success = recordOf(wf, "de_eid", "de_eid-erika-mustermann");
    expect(success.outcome).toBe("completed");
    expect(replayDecision(policy(3), success)).toEqual({ outcome: "completed", path: success.path });
    expect(
      replayDecision(workflow([requestNode(), verificationNode({}, "response"), responseNode()]), record),
    ).toEqual({
      outcome: "completed",
      path: ["request", "verification", "response"],
    });
  });

  it("a value test the record cannot answer is cannot_tell; presence tests always answer", () => {
    const success = recordOf(wf, "de_eid", "de_eid-erika-mustermann");
    expect(replayDecision(policy(2, { nationality: "NL" }), success)).toBe("cannot_tell");
    expect(replayDecision(policy(2, { age: 21 }), success)).toBe("cannot_tell");
    const presence = workflow([
      requestNode(),
      verificationNode({ claims: ["given_name"] }, "has"),
      {
        id: "has",
        type: "evaluate",
        next: "response",
        config: { conditions: [{ source: "claim", field: "email", op: "exists" }], reasonCode: "no_email" },
      },
      responseNode(),
    ]);
    const missing = recordOf(wf, "de_eid", "de_eid-missing-claims");
    expect(replayDecision(presence, missing)).toMatchObject({ outcome: "failed", reasonCode: "no_email" });
  });

  it("unauthenticated sessions stay failed; a refused provider is provider_not_available", () => {
    const failure = recordOf(wf, "de_eid", "de_eid-failure");
    expect(failure).toMatchObject({
      loa: null,
      claimsPresent: [],
      outcome: "failed",
      reasonCode: "authentication_failed",
    });
    expect(replayDecision(wf, failure)).toEqual({
      outcome: "failed",
      reasonCode: "authentication_failed",
      path: ["request", "verification"],
    });
    const optOut = workflow([
      requestNode(),
      verificationNode({ providers: { de_eid: { enabled: false } } }),
      responseNode(),
    ]);
    expect(replayDecision(optOut, failure)).toEqual({
      outcome: "failed",
      reasonCode: "provider_not_available",
      path: [],
    });
  });
});

describe("compareRuns", () => {
  it("counts changed outcomes, paths and cannot-tell sessions; examples outcome changes first, at most 20", () => {
    const wf = policy(2);
    const base = [
      recordOf(wf, "de_eid", "de_eid-erika-mustermann"),
      recordOf(wf, "de_eid", "de_eid-low-loa"),
      recordOf(wf, "passport", "passport-anna-eriksson"),
    ];
    const records = Array.from({ length: 30 }, (_, i) => ({
      ...base[i % 3]!,
      verificationId: `ver_${i}`,
      createdAt: new Date(NOW.getTime() - i * 1000),
    }));
    const same = compareRuns(wf, records);
    expect(same).toEqual({ total: 30, changedOutcomes: 0, changedPaths: 0, cannotTell: 0, examples: [] });

    // minimum LoA 1 and no other checks: the low_loa sessions (every third) and the Swedish passport
    // holder (LoA 2, failed the LoA-3 branch for non-Germans) now complete; Erika stays completed
    const looserDraft = workflow([
      requestNode(),
      verificationNode({ claims: ["given_name", "family_name", "birthdate", "nationality"] }, "loa"),
      { id: "loa", type: "check-min-loa", next: "response", config: { minLoa: 1 } },
      responseNode(),
    ]);
    const looser = compareRuns(looserDraft, records);
    expect(looser.total).toBe(30);
    expect(looser.cannotTell).toBe(0);
    expect(looser.changedOutcomes).toBe(20);
    expect(looser.changedPaths).toBe(30);
    expect(looser.examples.length).toBe(WHAT_IF_MAX_EXAMPLES);
    expect(looser.examples[0]).toMatchObject({
      verificationId: "ver_1",
      before: { outcome: "failed", reasonCode: "loa_too_low" },
      after: { outcome: "completed", path: ["request", "verification", "loa", "response"] },
    });
    expect(looser.examples.every((e) => e.before.outcome !== e.after.outcome)).toBe(true);
    expect(looser.examples[1]).toMatchObject({
      verificationId: "ver_2",
      before: {
        outcome: "failed",
        reasonCode: "loa_too_low",
        path: ["request", "verification", "loa", "adult", "german", "loa3"],
      },
    });

    // a higher minimum LoA: only Erika (LoA 3) still completes; path changes are counted too
    const stricter = compareRuns(policy(3), records);
    expect(stricter).toMatchObject({ total: 30, changedOutcomes: 0, cannotTell: 0 });
    const stricterStill = compareRuns(
      workflow([
        requestNode(),
        verificationNode({ claims: ["given_name"] }, "loa"),
        { id: "loa", type: "check-min-loa", next: "response", config: { minLoa: 3 } },
        responseNode(),
      ]),
      records.slice(0, 3),
    );
    expect(stricterStill.changedOutcomes).toBe(0);
    // Erika skips adult/german now; the passport session fails earlier; low_loa fails as before
    expect(stricterStill.changedPaths).toBe(2);
    expect(stricterStill.examples.map((e) => [e.verificationId, e.after.path])).toEqual([
      ["ver_0", ["request", "verification", "loa", "response"]],
      ["ver_2", ["request", "verification", "loa"]],
    ]);

    const unknown = compareRuns(policy(2, { nationality: "NL" }), records);
    // every authenticated session with a nationality reaches the unknown test
    expect(unknown.cannotTell).toBe(20);
  });
});
