import { describe, expect, it } from "vitest";
import type { TCondition } from "../schema";
import { describeCondition, evaluateCondition, isClaimPresent, type TConditionContext } from "./conditions";
import { WorkflowDefect } from "./defect";
import { NOW } from "./test-fixtures";

const ctx: TConditionContext = {
  providerId: "de_eid",
  claims: {
    given_name: "Erika",
    family_name: "Mustermann",
    birthdate: "2008-06-15",
    nationality: "DE",
    email_verified: true,
    updated_at: 1700000000,
    address: { country: "DE", locality: "Köln" },
    email: "   ",
    phone_number: null,
  },
  loa: 2,
  now: NOW,
};

const claim = (field: string, op: TCondition["op"], value?: unknown): TCondition =>
  value === undefined
    ? { source: "claim", field: field as never, op }
    : { source: "claim", field: field as never, op, value };
const holds = (c: TCondition, context: TConditionContext = ctx) => evaluateCondition(c, context, "n");

describe("isClaimPresent", () => {
  it("treats null, blank strings and empty objects or arrays as absent", () => {
    for (const v of [undefined, null, "", "  ", {}, []])
      expect(isClaimPresent(v), JSON.stringify(v)).toBe(false);
    for (const v of ["x", 0, false, true, { a: 1 }, ["a"]])
      expect(isClaimPresent(v), JSON.stringify(v)).toBe(true);
  });
});

describe("claim conditions", () => {
  it("exists / not_exists", () => {
    expect(holds(claim("given_name", "exists"))).toBe(true);
    expect(holds(claim("middle_name", "exists"))).toBe(false);
    expect(holds(claim("email", "exists"))).toBe(false); // blank
    expect(holds(claim("phone_number", "exists"))).toBe(false); // null
    expect(holds(claim("middle_name", "not_exists"))).toBe(true);
    expect(holds(claim("given_name", "not_exists"))).toBe(false);
  });

  it("equals / not_equals compare exactly (type and case)", () => {
    expect(holds(claim("nationality", "equals", "DE"))).toBe(true);
    expect(holds(claim("nationality", "equals", "de"))).toBe(false);
    expect(holds(claim("nationality", "not_equals", "AT"))).toBe(true);
    expect(holds(claim("nationality", "not_equals", "DE"))).toBe(false);
    expect(holds(claim("email_verified", "equals", true))).toBe(true);
    expect(holds(claim("email_verified", "equals", "true"))).toBe(false);
    expect(holds(claim("updated_at", "equals", 1700000000))).toBe(true);
    // an object claim is never equal to a scalar, nor unequal
    expect(holds(claim("address", "equals", "DE"))).toBe(false);
    expect(holds(claim("address", "not_equals", "DE"))).toBe(false);
  });

  it("in / not_in test membership", () => {
    expect(holds(claim("nationality", "in", ["AT", "DE"]))).toBe(true);
    expect(holds(claim("nationality", "in", ["AT", "CH"]))).toBe(false);
    expect(holds(claim("nationality", "not_in", ["AT", "CH"]))).toBe(true);
    expect(holds(claim("nationality", "not_in", ["DE"]))).toBe(false);
  });

  it("gte / lte compare numbers, or strings as text (ISO dates order)", () => {
    expect(holds(claim("updated_at", "gte", 1700000000))).toBe(true);
    expect(holds(claim("updated_at", "gte", 1700000001))).toBe(false);
    expect(holds(claim("updated_at", "lte", 1700000000))).toBe(true);
    expect(holds(claim("updated_at", "lte", 1699999999))).toBe(false);
    expect(holds(claim("birthdate", "lte", "2008-06-15"))).toBe(true);
    expect(holds(claim("birthdate", "lte", "2008-06-14"))).toBe(false);
    expect(holds(claim("birthdate", "gte", "2000-01-01"))).toBe(true);
    expect(holds(claim("birthdate", "gte", "2010-01-01"))).toBe(false);
    // mixed types never compare
    expect(holds(claim("updated_at", "gte", "1"))).toBe(false);
    expect(holds(claim("birthdate", "gte", 2000))).toBe(false);
  });

  it("age_gte / age_lt read the birthdate at now", () => {
    expect(holds(claim("birthdate", "age_gte", 18))).toBe(true); // 18th birthday today
    expect(holds(claim("birthdate", "age_gte", 19))).toBe(false);
    expect(holds(claim("birthdate", "age_lt", 19))).toBe(true);
    expect(holds(claim("birthdate", "age_lt", 18))).toBe(false);
    const dayBefore = { ...ctx, now: new Date("2026-06-14T23:59:59Z") };
    expect(holds(claim("birthdate", "age_gte", 18), dayBefore)).toBe(false);
    expect(holds(claim("birthdate", "age_lt", 18), dayBefore)).toBe(true);
  });

  it("age ops are false both ways when the birthdate cannot settle them", () => {
    const yearOnly = { ...ctx, claims: { birthdate: "2008" } };
    expect(holds(claim("birthdate", "age_gte", 18), yearOnly)).toBe(false);
    expect(holds(claim("birthdate", "age_lt", 18), yearOnly)).toBe(false);
    expect(holds(claim("birthdate", "age_gte", 17), yearOnly)).toBe(true);
    expect(holds(claim("birthdate", "age_lt", 19), yearOnly)).toBe(true);
    const garbage = { ...ctx, claims: { birthdate: "sometime in 2008" } };
    expect(holds(claim("birthdate", "age_gte", 18), garbage)).toBe(false);
    expect(holds(claim("birthdate", "age_lt", 18), garbage)).toBe(false);
  });

  it("an absent claim satisfies only not_exists", () => {
    const none = { ...ctx, claims: {} };
    expect(holds(claim("nationality", "not_exists"), none)).toBe(true);
    for (const c of [
      claim("nationality", "exists"),
      claim("nationality", "equals", "DE"),
      claim("nationality", "not_equals", "DE"),
      claim("nationality", "in", ["DE"]),
      claim("nationality", "not_in", ["DE"]),
      claim("updated_at", "gte", 0),
      claim("updated_at", "lte", 0),
      claim("birthdate", "age_gte", 0),
      claim("birthdate", "age_lt", 150),
    ])
      expect(holds(c, none), describeCondition(c)).toBe(false);
  });

  it("reads own claims only", () => {
    expect(holds(claim("toString", "exists"), { ...ctx, claims: {} })).toBe(false);
  });
});

describe("loa and provider conditions", () => {
  it("loa ops compare the effective level", () => {
    expect(holds({ source: "loa", op: "equals", value: 2 })).toBe(true);
    expect(holds({ source: "loa", op: "not_equals", value: 2 })).toBe(false);
    expect(holds({ source: "loa", op: "in", value: [2, 3] })).toBe(true);
    expect(holds({ source: "loa", op: "not_in", value: [2, 3] })).toBe(false);
    expect(holds({ source: "loa", op: "gte", value: 3 })).toBe(false);
    expect(holds({ source: "loa", op: "gte", value: 2 })).toBe(true);
    expect(holds({ source: "loa", op: "lte", value: 1 })).toBe(false);
    expect(holds({ source: "loa", op: "lte", value: 2 })).toBe(true);
  });

  it("provider ops compare the provider id", () => {
    expect(holds({ source: "provider", op: "equals", value: "de_eid" })).toBe(true);
    expect(holds({ source: "provider", op: "equals", value: "passport" })).toBe(false);
    expect(holds({ source: "provider", op: "not_equals", value: "passport" })).toBe(true);
    expect(holds({ source: "provider", op: "in", value: ["passport", "de_eid"] })).toBe(true);
    expect(holds({ source: "provider", op: "not_in", value: ["passport", "de_eid"] })).toBe(false);
  });

  it("provider conditions work before the verification (no claims, no LoA yet)", () => {
    const before: TConditionContext = { providerId: "passport", now: NOW };
    expect(holds({ source: "provider", op: "equals", value: "passport" }, before)).toBe(true);
    expect(() => holds({ source: "loa", op: "gte", value: 1 }, before)).toThrow(WorkflowDefect);
    expect(() => holds(claim("given_name", "exists"), before)).toThrow(/before the verification node/);
  });

  it("combinations validation refuses are defects, not silent answers", () => {
    expect(() => holds({ source: "provider", op: "gte", value: "a" })).toThrow(WorkflowDefect);
    expect(() => holds({ source: "loa", op: "exists" })).toThrow(WorkflowDefect);
    expect(() => holds(claim("nationality", "in", "DE"))).toThrow(/needs an array/);
    expect(() => holds(claim("given_name", "age_gte", 18))).toThrow(/birthdate only/);
    expect(() => holds(claim("birthdate", "age_gte", "18"))).toThrow(/whole years/);
    expect(() => holds({ source: "claim", op: "exists" } as TCondition)).toThrow(/needs a field/);
  });
});

describe("describeCondition", () => {
  it("names the workflow's operands, shortening long lists", () => {
    expect(describeCondition(claim("birthdate", "age_gte", 18))).toBe("claim birthdate age_gte 18");
    expect(describeCondition(claim("middle_name", "exists"))).toBe("claim middle_name exists");
    expect(describeCondition({ source: "loa", op: "gte", value: 2 })).toBe("loa gte 2");
    expect(describeCondition(claim("nationality", "in", ["A", "B", "C", "D", "E", "F"]))).toBe(
      'claim nationality in ["A", "B", "C", "D", "E", …]',
    );
  });
});
