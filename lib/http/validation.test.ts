import { describe, expect, it } from "vitest";
import { apiErrorOf } from "../testing/api-error";
import { z } from "zod";
import { newId } from "../ids";
import { zodDetails } from "../errors/validation";
import { checkPathParams, parseWith } from "./validation";

const ZApp = z.strictObject({
  name: z.string().min(1),
  redirectUris: z.array(z.string().url()).optional(),
  branding: z.strictObject({ color: z.string().optional(), logo: z.string().optional() }).optional(),
  items: z.array(z.strictObject({ id: z.string() })).optional(),
});

function details(input: unknown, prefix?: string) {
  const result = ZApp.safeParse(input);
  if (result.success) throw new Error("expected the input to be invalid");
  return zodDetails(result.error, prefix);
}

describe("zodDetails", () => {
  it("names each unknown top-level key in its own detail", () => {
    expect(details({ name: "a", clientId: "x", extra: 1 })).toEqual([
      { path: "clientId", message: "Unknown field" },
      { path: "extra", message: "Unknown field" },
    ]);
  });

  it("names unknown nested keys by their dotted path", () => {
    expect(details({ name: "a", branding: { color: "#fff", font: "x" } })).toEqual([
      { path: "branding.font", message: "Unknown field" },
    ]);
    expect(details({ name: "a", items: [{ id: "1" }, { id: "2", bad: true }] })).toEqual([
      { path: "items[1].bad", message: "Unknown field" },
    ]);
  });

  it('says "Required" for a missing required field', () => {
    expect(details({})).toEqual([{ path: "name", message: "Required" }]);
    expect(details({ name: "a", items: [{}] })).toEqual([{ path: "items[0].id", message: "Required" }]);
  });

  it("keeps zod's message for a field of the wrong type (present, so not 'Required')", () => {
    const [detail] = details({ name: 123 });
    expect(detail?.path).toBe("name");
    expect(detail?.message).not.toBe("Required");
    expect(detail?.message).toMatch(/expected string/);
  });

  it("names array elements by index", () => {
    const result = details({ name: "a", redirectUris: ["https://ok.example/cb", "not a url"] });
    expect(result).toHaveLength(1);
    expect(result[0]?.path).toBe("redirectUris[1]");
    expect(result[0]?.message).not.toBe("Required");
  });

  it("reports every problem at once", () => {
    const result = details({ name: "", redirectUris: [1], other: true });
    expect(result.map((d) => d.path).sort()).toEqual(["name", "other", "redirectUris[0]"]);
  });

  it("prefixes paths when asked, and names the body itself when the problem is at the root", () => {
    expect(details({ extra: 1, name: "a" }, "apps[2]")).toEqual([
      { path: "apps[2].extra", message: "Unknown field" },
    ]);
    expect(details({}, "apps[0]")).toEqual([{ path: "apps[0].name", message: "Required" }]);
    const root = details("a string");
    expect(root).toHaveLength(1);
    expect(root[0]?.path).toBe("(body)");
  });
});

describe("parseWith", () => {
  it("returns the parsed value", () => {
    expect(parseWith(ZApp, { name: "Acme" }, "Invalid request body")).toEqual({ name: "Acme" });
  });

  it("throws a 400 VALIDATION_ERROR whose details and message name the fields", () => {
    const error = apiErrorOf(() => parseWith(ZApp, { clientSecret: "x" }, "Invalid request body"));
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.status).toBe(400);
    expect(error.details).toEqual([
      { path: "name", message: "Required" },
      { path: "clientSecret", message: "Unknown field" },
    ]);
    expect(error.message).toBe("Invalid request body: name: Required; clientSecret: Unknown field");
  });

  it("does not call a field of the wrong type missing", () => {
    const error = apiErrorOf(() => parseWith(ZApp, { name: 42 }, "Invalid request body"));
    expect(error.details).toHaveLength(1);
    expect(error.details[0]?.path).toBe("name");
    expect(error.details[0]?.message).not.toBe("Required");
  });

  it("tells missing from wrong-typed fields even when the schema sets its own message", () => {
    const ZNamed = z.strictObject({ name: z.string({ error: "name must be a string" }) });
    expect(apiErrorOf(() => parseWith(ZNamed, {}, "Invalid")).details).toEqual([
      { path: "name", message: "Required" },
    ]);
    expect(apiErrorOf(() => parseWith(ZNamed, { name: 1 }, "Invalid")).details).toEqual([
      { path: "name", message: "name must be a string" },
    ]);
  });

  it("applies the prefix", () => {
    const error = apiErrorOf(() => parseWith(ZApp, { name: "a", nope: 1 }, "Invalid app", "apps[3]"));
    expect(error.details).toEqual([{ path: "apps[3].nope", message: "Unknown field" }]);
    expect(error.message).toBe("Invalid app: apps[3].nope: Unknown field");
  });
});

describe("parseWith and unsafe text", () => {
  it("refuses a NUL or an unpaired surrogate anywhere in the input before the schema, naming the field", () => {
    const nul = apiErrorOf(() => parseWith(ZApp, { name: "a\u0000" }, "Invalid request body"));
    expect(nul.code).toBe("VALIDATION_ERROR");
    expect(nul.details).toEqual([{ path: "name", message: expect.stringContaining("NUL") }]);
    // a field the schema would refuse anyway, or would not even read, is refused the same way
    const nested = apiErrorOf(() => parseWith(ZApp, { items: [{ id: "ok" }, { id: "\uDC00" }] }, "Invalid"));
    expect(nested.details[0]!.path).toBe("items[1].id");
    const unknownKey = apiErrorOf(() => parseWith(ZApp, { name: "x", ["k\u0000"]: 1 }, "Invalid"));
    expect(unknownKey.details[0]!.path).toBe("k\\u0000");
    expect(unknownKey.message).not.toContain("\u0000");
  });

  it("still parses safe input", () => {
    expect(parseWith(ZApp, { name: "Zoë 😀" }, "Invalid")).toEqual({ name: "Zoë 😀" });
  });
});

describe("checkPathParams", () => {
  it("passes ids of the right kind and other safe parameters", () => {
    expect(() =>
      checkPathParams({ env: "sandbox", clientId: newId("app"), providerId: "de_eid", version: "3" }),
    ).not.toThrow();
  });

  it("is 404 RESOURCE_NOT_FOUND for an id of the wrong format or kind, and for unsafe text", () => {
    const cases: Record<string, string>[] = [
      { clientId: "app_\u0000" },
      { clientId: newId("ver") },
      { verificationId: `${newId("ver")}x` },
      { workflowId: "wf_../../etc" },
      { providerId: "de\u0000eid" },
      { version: "\uD800" },
    ];
    for (const params of cases) {
      const error = apiErrorOf(() => checkPathParams(params));
      expect(error.status).toBe(404);
      expect(error.code).toBe("RESOURCE_NOT_FOUND");
      expect(error.message).not.toContain("\u0000");
    }
  });
});
