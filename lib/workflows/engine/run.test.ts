import { describe, expect, it } from "vitest";
import type { TWorkflowNode } from "../json";
import { runChecks, type TCheckResult } from "./run";
import {
  NOW,
  identity,
  linear,
  provider,
  requestNode,
  responseNode,
  unchecked,
  verificationNode,
  workflow,
} from "./test-fixtures";
import type { TRunnableWorkflow } from "./nodes";
import type { TSourceIdentity } from "../../providers/adapters/types";

const deEid = provider("de_eid");
const ERIKA = {
  name: "Erika Mustermann",
  given_name: "Erika",
  family_name: "Mustermann",
  birthdate: "1964-08-12",
  nationality: "DE",
  address: { formatted: "Heidestraße 17, 51147 Köln", country: "DE" },
};

function run(
  wf: TRunnableWorkflow,
  source: TSourceIdentity = identity(ERIKA, 3),
  options: { loa?: number; providerId?: string; now?: Date; verificationNodeId?: string } = {},
): TCheckResult {
  const p = options.providerId ? provider(options.providerId) : deEid;
  return runChecks(wf, options.verificationNodeId ?? "verification", {
    provider: p,
    identity: source,
    loa: options.loa ?? source.loa ?? p.defaultLoa,
    now: options.now ?? NOW,
  });
}

function failed(result: TCheckResult) {
  if (result.outcome !== "failed") throw new Error(`expected failed, got ${JSON.stringify(result)}`);
  return result;
}

function completed(result: TCheckResult) {
  if (result.outcome !== "completed") throw new Error(`expected completed, got ${JSON.stringify(result)}`);
  return result;
}

const checkClaim = (id: string, ...fields: string[]): TWorkflowNode => ({
  id,
  type: "check-claim",
  config: { claimChecks: fields.map((field) => ({ source: "user", field })) },
});
const minLoa = (id: string, level: number): TWorkflowNode => ({
  id,
  type: "check-min-loa",
  config: { minLoa: level },
});
const evaluate = (id: string, config: Record<string, unknown>): TWorkflowNode => ({
  id,
  type: "evaluate",
  config,
});

describe("runChecks: pii mode", () => {
  it("discloses the requested claims the source gave and lists the standard ones it did not", () => {
    const wf = linear({
      claims: ["given_name", "family_name", "email", "nationality", "document_number", "address"],
    });
    const result = completed(run(wf));
    expect(result.user).toEqual({
      given_name: "Erika",
      family_name: "Mustermann",
      nationality: "DE",
      address: ERIKA.address,
    });
    // email is a standard claim; document_number is not, so it is not listed
    expect(result.missingClaims).toEqual(["email"]);
    expect(result.path).toEqual(["verification", "response"]);
  });

  it("never discloses claims that were not requested", () => {
    const result = completed(run(linear({ claims: ["given_name"] })));
    expect(result.user).toEqual({ given_name: "Erika" });
    expect(result.user).not.toHaveProperty("birthdate");
  });

  it("counts blank and null values as not given", () => {
    const result = completed(
      run(
        linear({ claims: ["given_name", "family_name", "email"] }),
        identity({ given_name: " ", family_name: null, email: "e@example.com" }),
      ),
    );
    expect(result.user).toEqual({ email: "e@example.com" });
    expect(result.missingClaims).toEqual(["given_name", "family_name"]);
  });
});

describe("runChecks: check-claim", () => {
  const wf = linear({ claims: ["given_name"] }, [
    checkClaim("needs", "family_name", "email", "phone_number", "email"),
  ]);

  it("fails with missing_claim naming every missing field once", () => {
    const result = failed(run(wf));
    expect(result.reason).toBe("missing_claim");
    expect(result.failedNodeId).toBe("needs");
    expect(result.message).toBe('Missing claims "email", "phone_number" (required by node "needs")');
    expect(result.path).toEqual(["verification", "needs"]);
  });

  it("passes when the claims are there, also claims that are not disclosed", () => {
    const result = completed(
      run(wf, identity({ ...ERIKA, email: "erika@example.com", phone_number: "+4915112345678" })),
    );
    expect(result.user).toEqual({ given_name: "Erika" });
    expect(result.path).toEqual(["verification", "needs", "response"]);
  });

  it("names a single missing field in the message", () => {
    const result = failed(run(linear({}, [checkClaim("one", "nationality")]), identity({ given_name: "A" })));
    expect(result.message).toBe('Missing claim "nationality" (required by node "one")');
  });
});

describe("runChecks: check-min-loa", () => {
  const wf = linear({}, [minLoa("loa", 3)]);

  it("fails below the minimum with loa_too_low", () => {
    const result = failed(run(wf, identity(ERIKA, 2)));
    expect(result).toMatchObject({
      reason: "loa_too_low",
      failedNodeId: "loa",
      path: ["verification", "loa"],
    });
    expect(result.message).toBe(
      'Level of assurance 2 (substantial) is below the minimum 3 (high) of node "loa"',
    );
  });

  it("passes at and above the minimum", () => {
    expect(run(wf, identity(ERIKA, 3)).outcome).toBe("completed");
    expect(run(linear({}, [minLoa("loa", 2)]), identity(ERIKA, 3)).outcome).toBe("completed");
  });

  it("uses the effective LoA it is given (the provider's default when the source gave none)", () => {
    expect(run(wf, identity(ERIKA, null), { loa: 3 }).outcome).toBe("completed");
    expect(failed(run(wf, identity(ERIKA, null), { loa: 0 })).message).toContain("0 (unspecified)");
  });
});

describe("runChecks: evaluate", () => {
  it("all (default): fails with the default reason, naming the failing conditions only", () => {
    const wf = linear({}, [
      evaluate("rules", {
        conditions: [
          { source: "claim", field: "nationality", op: "in", value: ["DE", "AT"] },
          { source: "claim", field: "birthdate", op: "age_lt", value: 30 },
          { source: "loa", op: "gte", value: 3 },
          { source: "provider", op: "equals", value: "passport" },
        ],
      }),
    ]);
    const result = failed(run(wf));
    expect(result.reason).toBe("evaluation_failed");
    expect(result.failedNodeId).toBe("rules");
    expect(result.message).toBe(
      'Conditions of node "rules" not met: claim birthdate age_lt 30; provider equals "passport"',
    );
    // the person's birthdate is never in the message
    expect(result.message).not.toContain("1964");
  });

  it("all: passes when every condition holds", () => {
    const wf = linear({}, [
      evaluate("rules", {
        operator: "all",
        conditions: [
          { source: "claim", field: "nationality", op: "equals", value: "DE" },
          { source: "claim", field: "birthdate", op: "age_gte", value: 18 },
          { source: "loa", op: "gte", value: 3 },
          { source: "provider", op: "equals", value: "de_eid" },
        ],
      }),
    ]);
    expect(completed(run(wf)).path).toEqual(["verification", "rules", "response"]);
  });

  it("any: passes when one holds, fails with its reasonCode when none does", () => {
    const wf = linear({}, [
      evaluate("dach", {
        operator: "any",
        reasonCode: "nationality_not_supported",
        conditions: [
          { source: "claim", field: "nationality", op: "equals", value: "AT" },
          { source: "claim", field: "nationality", op: "equals", value: "CH" },
          { source: "claim", field: "nationality", op: "equals", value: "DE" },
        ],
      }),
    ]);
    expect(run(wf).outcome).toBe("completed");
    const result = failed(run(wf, identity({ ...ERIKA, nationality: "FR" })));
    expect(result.reason).toBe("nationality_not_supported");
    expect(result.message).toBe(
      'None of the conditions of node "dach" holds: claim nationality equals "AT"; claim nationality equals "CH"; claim nationality equals "DE"',
    );
  });
});

describe("runChecks: if", () => {
  // verification → if adult → (then) loa ≥ 3 | (else) requires an email → response
  const wf = workflow([
    requestNode(),
    verificationNode({}, "adult"),
    {
      id: "adult",
      type: "if",
      then: "strict",
      else: "contact",
      config: { condition: { source: "claim", field: "birthdate", op: "age_gte", value: 18 } },
    },
    { ...minLoa("strict", 3), next: "response" },
    { ...checkClaim("contact", "email"), next: "response" },
    responseNode(),
  ]);

  it("takes then when the condition holds", () => {
    expect(completed(run(wf, identity(ERIKA, 3))).path).toEqual([
      "verification",
      "adult",
      "strict",
      "response",
    ]);
    expect(failed(run(wf, identity(ERIKA, 2))).failedNodeId).toBe("strict");
  });

  it("takes else when it does not", () => {
    const minor = { ...ERIKA, birthdate: "2010-01-01" };
    expect(failed(run(wf, identity(minor, 3))).path).toEqual(["verification", "adult", "contact"]);
    expect(completed(run(wf, identity({ ...minor, email: "kid@example.com" }, 1))).path).toEqual([
      "verification",
      "adult",
      "contact",
      "response",
    ]);
  });

  it("branches on the provider and the LoA too", () => {
    const byProvider = workflow([
      requestNode(),
      verificationNode({}, "which"),
      {
        id: "which",
        type: "if",
        then: "response",
        else: "loa",
        config: { condition: { source: "provider", op: "in", value: ["de_eid", "passport"] } },
      },
      { ...minLoa("loa", 3), next: "response" },
      responseNode(),
    ]);
    expect(completed(run(byProvider, identity(ERIKA, 1))).path).toEqual([
      "verification",
      "which",
      "response",
    ]);
    expect(failed(run(byProvider, identity(ERIKA, 1), { providerId: "nl_digid" })).reason).toBe(
      "loa_too_low",
    );

    const byLoa = workflow([
      requestNode(),
      verificationNode({}, "high"),
      {
        id: "high",
        type: "if",
        then: "response",
        else: "two",
        config: { condition: { source: "loa", op: "equals", value: 3 } },
      },
      { ...checkClaim("two", "email"), next: "response" },
      responseNode(),
    ]);
    expect(run(byLoa, identity(ERIKA, 3)).outcome).toBe("completed");
    expect(failed(run(byLoa, identity(ERIKA, 2))).failedNodeId).toBe("two");
  });
});

describe("runChecks: age_verification mode", () => {
  const wf = linear({ mode: "age_verification", minimumAge: 18, claims: ["birthdate", "given_name"] });

  it("discloses only age_over_N: true on the 18th birthday", () => {
    const result = completed(run(wf, identity({ ...ERIKA, birthdate: "2008-06-15" })));
    expect(result.user).toEqual({ age_over_18: true });
    expect(result.missingClaims).toEqual([]);
    expect(JSON.stringify(result)).not.toContain("2008");
    expect(JSON.stringify(result)).not.toContain("Erika");
  });

  it("completes with age_over_N false the day before the birthday", () => {
    const result = completed(run(wf, identity({ birthdate: "2008-06-16" })));
    expect(result.user).toEqual({ age_over_18: false });
  });

  it("handles leap-day birthdays (1 March in common years)", () => {
    const source = identity({ birthdate: "2008-02-29" });
    expect(completed(run(wf, source, { now: new Date("2026-02-28T12:00:00Z") })).user).toEqual({
      age_over_18: false,
    });
    expect(completed(run(wf, source, { now: new Date("2026-03-01T00:00:00Z") })).user).toEqual({
      age_over_18: true,
    });
  });

  it("uses minimumAge in the claim name", () => {
    const wf21 = linear({ mode: "age_verification", minimumAge: 21, claims: ["birthdate"] });
    expect(completed(run(wf21, identity({ birthdate: "2005-06-16" }))).user).toEqual({ age_over_21: false });
    expect(completed(run(wf21, identity({ birthdate: "2005-06-15" }))).user).toEqual({ age_over_21: true });
  });

  it("fails missing_claim at the verification node without a birthdate", () => {
    for (const birthdate of [undefined, null, ""]) {
      const result = failed(run(wf, identity({ given_name: "Erika", birthdate })));
      expect(result).toMatchObject({
        reason: "missing_claim",
        failedNodeId: "verification",
        path: ["verification"],
      });
      expect(result.message).toContain('"birthdate"');
    }
  });

  it("fails invalid_claim on an unusable birthdate and age_undetermined on a straddling year", () => {
    const invalid = failed(run(wf, identity({ birthdate: "12/08/1964" })));
    expect(invalid).toMatchObject({ reason: "invalid_claim", failedNodeId: "verification" });
    expect(invalid.message).not.toContain("1964");
    expect(failed(run(wf, identity({ birthdate: "2008" }))).reason).toBe("age_undetermined");
    expect(completed(run(wf, identity({ birthdate: "2007" }))).user).toEqual({ age_over_18: true });
    expect(completed(run(wf, identity({ birthdate: "2009" }))).user).toEqual({ age_over_18: false });
  });

  it("lets a check node fail an under-age session, reading the birthdate without disclosing it", () => {
    const strict = linear({ mode: "age_verification", minimumAge: 18, claims: ["birthdate"] }, [
      evaluate("adult", {
        conditions: [{ source: "claim", field: "birthdate", op: "age_gte", value: 18 }],
        reasonCode: "age_requirement_not_met",
      }),
      checkClaim("has-name", "family_name"),
    ]);
    const minor = failed(run(strict, identity({ ...ERIKA, birthdate: "2010-01-01" })));
    expect(minor).toMatchObject({ reason: "age_requirement_not_met", failedNodeId: "adult" });
    expect(minor.message).not.toContain("2010");
    const adult = completed(run(strict, identity(ERIKA)));
    expect(adult.user).toEqual({ age_over_18: true });
    expect(adult.path).toEqual(["verification", "adult", "has-name", "response"]);
  });
});

describe("runChecks: match providers", () => {
  const perField = provider("bank_data_match");
  const aggregate = provider("in_aadhaar_match");
  const wf = linear({ claims: ["given_name", "family_name", "birthdate", "email"] });

  it("per_field: user is the verified subset of the caller's fields; missing_claims is empty", () => {
    const source = identity({ given_name: "Max", birthdate: "1975-02-28" }, null, {
      match: {
        matched: false,
        granularity: "per_field",
        submitted_fields: ["given_name", "family_name", "birthdate"],
        details: {
          given_name: { matched: true, submitted_value: "Max" },
          family_name: { matched: false, submitted_value: "Muster" },
          birthdate: { matched: true, submitted_value: "1975-02-28" },
        },
      },
    });
    const result = completed(run(wf, source, { providerId: perField.id }));
    expect(result.user).toEqual({ given_name: "Max", birthdate: "1975-02-28" });
    expect(result.missingClaims).toEqual([]);
  });

  it("aggregate: all submitted fields when matched, nothing otherwise — still completed", () => {
    const submitted = { name: "Asha Sharma", phone_number: "+919812345678" };
    const match = (matched: boolean) => ({
      matched,
      granularity: "aggregate" as const,
      submitted_fields: Object.keys(submitted),
      details: {
        name: { submitted_value: submitted.name },
        phone_number: { submitted_value: submitted.phone_number },
      },
    });
    const yes = completed(
      run(wf, identity(submitted, null, { match: match(true) }), { providerId: aggregate.id }),
    );
    // the caller's own fields come back even when the node did not request them (spec: match user)
    expect(yes.user).toEqual(submitted);
    expect(yes.missingClaims).toEqual([]);
    const no = completed(run(wf, identity({}, null, { match: match(false) }), { providerId: aggregate.id }));
    expect(no.user).toEqual({});
    expect(no.missingClaims).toEqual([]);
  });

  it("checks read the verified subset: an unverified field fails check-claim", () => {
    const needsBirthdate = linear({}, [checkClaim("dob", "birthdate")]);
    const result = failed(run(needsBirthdate, identity({ given_name: "Max" }), { providerId: perField.id }));
    expect(result).toMatchObject({ reason: "missing_claim", failedNodeId: "dob" });
  });

  it("age_verification discloses only the age result for match providers too", () => {
    const age = linear({ mode: "age_verification", minimumAge: 18, claims: ["birthdate"] });
    const result = completed(
      run(age, identity({ given_name: "Max", birthdate: "1975-02-28" }), { providerId: perField.id }),
    );
    expect(result.user).toEqual({ age_over_18: true });
    expect(failed(run(age, identity({ given_name: "Max" }), { providerId: perField.id })).reason).toBe(
      "missing_claim",
    );
  });
});

describe("runChecks: workflows the engine cannot run", () => {
  const broken = (nodes: TWorkflowNode[], verificationNodeId = "verification") => {
    const result = failed(run(unchecked(nodes), identity(ERIKA, 3), { verificationNodeId }));
    expect(result.reason).toBe("workflow_error");
    expect(result.message).toMatch(/^The workflow cannot run: /);
    return result;
  };

  it("an unknown or non-verification start node", () => {
    expect(broken([requestNode(), responseNode()]).message).toContain('"verification", which is not a node');
    expect(broken([requestNode(), responseNode()], "request").message).toContain("is a request node");
  });

  it("a missing or broken link, with the path so far", () => {
    const result = broken([requestNode(), verificationNode({}, "loa"), minLoa("loa", 1)]);
    expect(result.failedNodeId).toBe("loa");
    expect(result.path).toEqual(["verification", "loa"]);
    expect(broken([requestNode(), verificationNode({}, "ghost")]).failedNodeId).toBe("verification");
  });

  it("a cycle, a second verification node, an unparseable check", () => {
    expect(
      broken([verificationNode({}, "loa"), { ...minLoa("loa", 1), next: "verification" }]).message,
    ).toContain("cycle");
    expect(
      broken([verificationNode({}, "v2"), verificationNode({}, "response", "v2"), responseNode()])
        .failedNodeId,
    ).toBe("v2");
    const result = broken([
      verificationNode({}, "loa"),
      { ...minLoa("loa", 7), next: "response" },
      responseNode(),
    ]);
    expect(result.failedNodeId).toBe("loa");
    expect(result.message).toContain("config.minLoa");
  });
});
