import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KNOWN_CLAIMS } from "./claims";
import {
  NODE_TYPE_DEFINITIONS,
  NODE_TYPES,
  ZNodeTypeJson,
  findNodeType,
  type TNodeField,
} from "./node-types";
import { CONFIG_SCHEMAS } from "./validate-config";

/** The object schema inside optional / array / record wrappers, if any. */
function objectInside(schema: z.ZodType): z.ZodObject | undefined {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodRecord) s = s.valueType as z.ZodType;
    else break;
  }
  return s instanceof z.ZodObject ? s : undefined;
}

function checkFields(fields: readonly TNodeField[], shape: Record<string, z.ZodType>, where: string) {
  expect(fields.map((f) => f.name).sort(), where).toEqual(Object.keys(shape).sort());
  for (const field of fields) {
    const schema = shape[field.name]!;
    const at = `${where}.${field.name}`;
    expect(schema.safeParse(undefined).success, `${at} required`).toBe(!field.required);
    if (field.type === "enum") {
      expect(field.enumValues?.length, at).toBeGreaterThan(0);
      for (const v of field.enumValues!) expect(schema.safeParse(v).success, `${at}=${v}`).toBe(true);
      expect(schema.safeParse("no-such-value").success, at).toBe(false);
    }
    if (field.type === "string[]" && field.enumValues) {
      for (const v of field.enumValues) expect(schema.safeParse([v]).success, `${at}=[${v}]`).toBe(true);
      expect(schema.safeParse(["no-such-value"]).success, at).toBe(false);
    }
    if (field.type === "integer") {
      expect(schema.safeParse(field.minimum).success, at).toBe(true);
      expect(schema.safeParse(field.maximum).success, at).toBe(true);
      expect(schema.safeParse(field.minimum! - 1).success, at).toBe(false);
      expect(schema.safeParse(field.maximum! + 1).success, at).toBe(false);
      expect(schema.safeParse(field.minimum! + 0.5).success, at).toBe(false);
    }
    if (field.type === "boolean") expect(schema.safeParse("true").success, at).toBe(false);
    if (field.fields) {
      const inner = objectInside(schema);
      expect(inner, `${at} is an object`).toBeDefined();
      checkFields(field.fields, inner!.shape as Record<string, z.ZodType>, at);
    }
  }
}

describe("the node-type catalog", () => {
  it("lists every node type once, in a documented shape", () => {
    expect(NODE_TYPE_DEFINITIONS.map((d) => d.type)).toEqual([...NODE_TYPES]);
    expect(z.array(ZNodeTypeJson).safeParse(NODE_TYPE_DEFINITIONS).success).toBe(true);
    expect(findNodeType("if")?.outputs).toEqual(["then", "else"]);
    expect(findNodeType("response")?.outputs).toEqual([]);
    expect(findNodeType("nope")).toBeUndefined();
  });

  it("has the spec's fields for request, verification, check-claim and response", () => {
    expect(findNodeType("request")!.fields).toEqual([]);
    expect(findNodeType("response")!.fields).toEqual([]);
    const verification = findNodeType("verification")!.fields;
    expect(verification.map((f) => [f.name, f.type, f.required])).toEqual([
      ["channel", "enum", true],
      ["claims", "string[]", true],
      ["mode", "enum", false],
      ["minimumAge", "integer", false],
      ["branding", "object", false],
      ["providers", "object", false],
    ]);
    expect(verification[0]!.enumValues).toEqual(["oidc", "api"]);
    expect(verification[1]!.enumValues).toEqual([...KNOWN_CLAIMS]);
    expect(verification[2]!.enumValues).toEqual(["pii", "age_verification"]);
    expect(verification[4]!.fields!.map((f) => f.name)).toEqual(["name", "logo", "useAppBranding"]);
    const claimChecks = findNodeType("check-claim")!.fields[0]!;
    expect([claimChecks.name, claimChecks.type, claimChecks.required]).toEqual([
      "claimChecks",
      "object[]",
      true,
    ]);
    expect(claimChecks.fields!.find((f) => f.name === "source")!.enumValues).toEqual(["user"]);
  });

  it.each(NODE_TYPES.map((t) => [t]))(
    "describes exactly the config schema validation uses for %s",
    (type) => {
      const def = findNodeType(type)!;
      const schema = objectInside(CONFIG_SCHEMAS[type]);
      expect(schema).toBeDefined();
      checkFields(def.fields, schema!.shape as Record<string, z.ZodType>, type);
    },
  );
});
