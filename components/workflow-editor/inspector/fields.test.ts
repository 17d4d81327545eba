import { describe, expect, it } from "vitest";
import type { TNodeField } from "../queries";
import { errorsFor, fieldLabel, isCondition, shortMessage, singular } from "./fields";

describe("fieldLabel and singular", () => {
  it("labels a field from its name, with the few written out", () => {
    expect(fieldLabel("minLoa")).toBe("Minimum LoA");
    expect(fieldLabel("allowedCountries")).toBe("Allowed countries");
    expect(fieldLabel("reason_code.detail")).toBe("Reason code detail");
    expect(singular("claimChecks")).toBe("claim check");
    expect(singular("claims")).toBe("claim");
  });
});

describe("shortMessage and errorsFor", () => {
  it("drops the API's node prefix, by id or by number", () => {
    expect(shortMessage('node "verify-1": must be set')).toBe("must be set");
    expect(shortMessage("node #3: must be set")).toBe("must be set");
    expect(shortMessage("name: must be set")).toBe("name: must be set");
  });

  it("finds the first message at a path of the node or under it, not beside it", () => {
    const errorAt = errorsFor(
      [
        { path: "nodes[1].config.claims[0]", message: 'node "v": unknown claim' },
        { path: "nodes[1].config.claimsExtra", message: "another field" },
        { path: "nodes[1]", message: "node level" },
      ],
      "nodes[1]",
    );
    expect(errorAt("config.claims")).toBe("unknown claim");
    expect(errorAt("config")).toBe("unknown claim");
    expect(errorAt("config.claim")).toBeUndefined();
    expect(errorAt("")).toBe("unknown claim");
    expect(errorAt("next")).toBeUndefined();
  });
});

describe("isCondition", () => {
  const field = (names: string[]): TNodeField =>
    ({
      name: "c",
      type: "object",
      required: true,
      description: "",
      fields: names.map((name) => ({ name })),
    }) as TNodeField;
  it("is an object with source, op and value", () => {
    expect(isCondition(field(["source", "field", "op", "value"]))).toBe(true);
    expect(isCondition(field(["source", "op"]))).toBe(false);
  });
});
