import { describe, expect, it } from "vitest";
import {
  checkRequirementValue,
  checkRequirementValues,
  configNeedsAction,
  isCompanyInfo,
  registrationForm,
  requirement,
  type TInputRequirement,
} from "./requirements";

const text = requirement.legalCompanyName();
const email = requirement.contactEmail();
const url = requirement.privacyPolicyUrl();
const consent = requirement.termsAccepted("X");
const purposes = requirement.dataPurposes();
const level = requirement.userDataLevel();

function check(r: TInputRequirement, value: unknown) {
  return checkRequirementValue(r, value);
}

describe("checkRequirementValue", () => {
  it("trims free text and enforces non-empty and maxLength", () => {
    expect(check(text, "  Acme GmbH ")).toEqual({ ok: true, value: "Acme GmbH" });
    expect(check(text, "   ")).toEqual({ ok: false, message: "must not be empty" });
    expect(check(text, "x".repeat(200))).toMatchObject({ ok: true });
    expect(check(text, "x".repeat(201))).toEqual({ ok: false, message: "must be at most 200 characters" });
    expect(check(text, 42)).toEqual({ ok: false, message: "must be a string" });
    expect(check(text, undefined)).toEqual({ ok: false, message: "Required" });
    expect(check(text, null)).toEqual({ ok: false, message: "Required" });
  });

  it("never enforces the advisory pattern", () => {
    const reg = requirement.registrationNumber();
    expect(reg.pattern).toBeDefined();
    expect(new RegExp(reg.pattern!).test("#### weird ####")).toBe(false);
    expect(check(reg, "#### weird ####")).toMatchObject({ ok: true });
  });

  it("checks email and url formats", () => {
    expect(check(email, "ops@example.com")).toMatchObject({ ok: true });
    for (const bad of ["ops", "ops@", "ops@example", "o ps@example.com", "@example.com"]) {
      expect(check(email, bad), bad).toEqual({ ok: false, message: "must be an email address" });
    }
    expect(check(url, "https://example.com/privacy")).toMatchObject({ ok: true });
    expect(check(url, "http://example.com/privacy")).toMatchObject({ ok: true });
    expect(check(url, "example.com/privacy")).toEqual({ ok: false, message: "must be an absolute URL" });
    expect(check(url, "ftp://example.com/x")).toEqual({ ok: false, message: "must use https or http" });
  });

  it("takes a boolean for a checkbox without options; a required one must be checked", () => {
    expect(check(consent, true)).toEqual({ ok: true, value: true });
    expect(check(consent, false)).toEqual({ ok: false, message: "must be true (checked)" });
    expect(check(consent, "true")).toEqual({ ok: false, message: "must be a boolean" });
  });

  it("takes an array of distinct option values for a checkbox with options", () => {
    expect(check(purposes, ["identification", "signing"])).toEqual({
      ok: true,
      value: ["identification", "signing"],
    });
    expect(check(purposes, [])).toEqual({ ok: false, message: "must select at least one option" });
    expect(check(purposes, ["identification", "identification"])).toEqual({
      ok: false,
      message: "must not repeat a value",
    });
    expect(check(purposes, ["marketing"])).toMatchObject({
      ok: false,
      message: expect.stringContaining("marketing"),
    });
    expect(check(purposes, true)).toMatchObject({ ok: false, message: expect.stringContaining("array") });
    expect(check(purposes, [1])).toMatchObject({ ok: false });
  });

  it("takes one option value for a select", () => {
    expect(check(level, "basic")).toEqual({ ok: true, value: "basic" });
    expect(check(level, "everything")).toEqual({
      ok: false,
      message: "must be one of: basic, standard, extended",
    });
    expect(check(level, ["basic"])).toMatchObject({ ok: false });
  });
});

describe("checkRequirementValues", () => {
  const form = registrationForm(requirement.termsAccepted("X"));
  const valid = {
    legalCompanyName: "Acme GmbH",
    registrationNumber: "HRB 1",
    serviceDescription: "Onboarding",
    displayName: "Acme",
    contactEmail: "ops@acme.example",
    userDataLevel: "basic",
    termsAccepted: true,
  };

  it("returns normalised values of a valid form", () => {
    const res = checkRequirementValues(form, { ...valid, displayName: " Acme " }, "providers.x");
    expect(res.details).toEqual([]);
    expect(res.values).toEqual({ ...valid, displayName: "Acme" });
  });

  it("names every missing, invalid and unknown field", () => {
    const { legalCompanyName: _omit, ...rest } = valid;
    const res = checkRequirementValues(form, { ...rest, contactEmail: "nope", color: "red" }, "providers.x");
    expect(res.details.map((d) => d.path).sort()).toEqual(
      ["providers.x.color", "providers.x.contactEmail", "providers.x.legalCompanyName"].sort(),
    );
  });

  it("refuses any value for a direct provider and the info entry of a contract provider", () => {
    expect(checkRequirementValues([], {}, "p").details).toEqual([]);
    expect(checkRequirementValues([], { a: 1 }, "p").details).toEqual([
      { path: "p.a", message: "Unknown requirement; this provider takes an empty object" },
    ]);
    const info = [requirement.supportContact("X")];
    expect(checkRequirementValues(info, {}, "p").details).toEqual([]);
    expect(checkRequirementValues(info, { supportContact: "me" }, "p").details).toEqual([
      { path: "p.supportContact", message: "is informational and takes no value" },
    ]);
  });
});

describe("configNeedsAction", () => {
  const form = [text, email];
  it("is false for a valid configuration, ignoring keys no longer required", () => {
    expect(configNeedsAction(form, { legalCompanyName: "A", contactEmail: "a@b.co", old: 1 })).toBe(false);
    expect(configNeedsAction([], {})).toBe(false);
  });
  it("is true for missing or malformed values and non-object configurations", () => {
    expect(configNeedsAction(form, { legalCompanyName: "A" })).toBe(true);
    expect(configNeedsAction(form, { legalCompanyName: "A", contactEmail: "nope" })).toBe(true);
    expect(configNeedsAction(form, null)).toBe(true);
    expect(configNeedsAction(form, ["x"])).toBe(true);
  });
});

describe("isCompanyInfo", () => {
  it("marks the company's free-text details, not provider-specific choices or consents", () => {
    for (const r of [text, email, url, requirement.registrationNumber(), requirement.displayName()])
      expect(isCompanyInfo(r), r.id).toBe(true);
    for (const r of [level, consent, purposes, requirement.supportContact("X")])
      expect(isCompanyInfo(r), r.id).toBe(false);
  });
});
