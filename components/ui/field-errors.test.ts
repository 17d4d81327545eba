/**
 * Field errors in words a person uses: the field's label, then what to do; the API's terse
 * phrases never shown as they are.
 */
import { describe, expect, it } from "vitest";
import { detailOf, fieldMessage, optionWords, orList } from "./field-errors";

describe("fieldMessage", () => {
  it("says what to enter in an empty field, naming it", () => {
    expect(fieldMessage({ label: "Legal company name" }, "must not be empty")).toBe(
      "Legal company name: enter a name",
    );
    expect(fieldMessage({ label: "Service description", kind: "text" }, "Required")).toBe(
      "Service description: enter a description",
    );
    expect(fieldMessage({ label: "Contact email", kind: "email" }, "Required")).toBe(
      "Contact email: enter an email address, like name@example.com",
    );
    expect(fieldMessage({ label: "Privacy policy URL", kind: "url" }, "must not be empty")).toBe(
      "Privacy policy URL: enter a web address starting with https://",
    );
  });

  it("lists the choices as the person sees them", () => {
    const spec = {
      label: "User data level",
      kind: "choice" as const,
      choices: ["Basic", "Standard", "Extended"],
    };
    expect(fieldMessage(spec, "must be one of: basic, standard, extended")).toBe(
      "User data level: choose Basic, Standard or Extended",
    );
    expect(fieldMessage(spec, "Required")).toBe("User data level: choose Basic, Standard or Extended");
  });

  it("rewrites the other known phrases", () => {
    const label = { label: "Display name" };
    expect(fieldMessage(label, "must be at most 80 characters")).toBe(
      "Display name: use at most 80 characters",
    );
    expect(fieldMessage({ label: "Contact email" }, "must be an email address")).toMatch(
      /enter an email address/,
    );
    expect(fieldMessage({ label: "Site" }, "must use https or http")).toMatch(/starting with https:\/\//);
    expect(fieldMessage({ label: "Accept the terms", kind: "consent" }, "must be true (checked)")).toBe(
      "Accept the terms: tick the box to continue",
    );
    expect(fieldMessage({ label: "Purposes", kind: "multi" }, "must select at least one option")).toBe(
      "Purposes: choose at least one",
    );
  });

  it("keeps an unknown message after the label, with other fields' names in words", () => {
    const spec = { label: "OIDC host", names: { webDomain: "the web host" } };
    expect(fieldMessage(spec, "must differ from webDomain")).toBe("OIDC host: must differ from the web host");
    expect(fieldMessage({ label: "Web host" }, "verify.example.com is already used by another app")).toBe(
      "Web host: verify.example.com is already used by another app",
    );
  });

  it("never shows the raw API phrases", () => {
    for (const raw of ["must not be empty", "must be one of: basic, standard, extended", "Required"]) {
      expect(fieldMessage({ label: "X", kind: "choice", choices: ["A", "B"] }, raw)).not.toContain(raw);
    }
  });
});

describe("helpers", () => {
  it("joins choices and words option values", () => {
    expect(orList(["A"])).toBe("A");
    expect(orList(["A", "B"])).toBe("A or B");
    expect(orList(["A", "B", "C"])).toBe("A, B or C");
    expect(optionWords("age_verification")).toBe("Age verification");
  });

  it("finds the detail of a path or below it, in any error with details", () => {
    const error = {
      details: [
        { path: "providers.x.level", message: "m" },
        { path: "uris[0]", message: "u" },
      ],
    };
    expect(detailOf(error, "providers.x.level")).toBe("m");
    expect(detailOf(error, "providers.x")).toBe("m");
    expect(detailOf(error, "uris")).toBe("u");
    expect(detailOf(error, "providers.y")).toBeUndefined();
    expect(detailOf(new Error("no details"), "a")).toBeUndefined();
    expect(detailOf(null, "a")).toBeUndefined();
  });
});
