/** withApi's input step: which methods carry a body, and body and query through the definition's schemas. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { EndpointDef } from "../endpoint";
import { carriesBody, NO_BODY, parseBody, parseQuery } from "./input";

const raw = (json: unknown) => ({ text: JSON.stringify(json) ?? "", json });
const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error("did not throw");
};

describe("carriesBody", () => {
  it("reads a body for POST, PUT and PATCH only", () => {
    expect(["POST", "PUT", "PATCH"].map(carriesBody)).toEqual([true, true, true]);
    expect(["GET", "HEAD", "DELETE"].map(carriesBody)).toEqual([false, false, false]);
  });

  it("gives the others one shared empty body that cannot be changed", () => {
    expect(NO_BODY).toEqual({ text: "", json: undefined });
    expect(Object.isFrozen(NO_BODY)).toBe(true);
  });
});

describe("parseBody", () => {
  const withBody = { body: z.object({ name: z.string() }) } as unknown as EndpointDef;
  const without = {} as EndpointDef;

  it("parses the body with the definition's schema", () => {
    expect(parseBody(withBody, raw({ name: "Shop" }))).toEqual({ name: "Shop" });
    expect(thrown(() => parseBody(withBody, raw({ name: 1 })))).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      details: [expect.objectContaining({ path: "name" })],
    });
  });

  it("refuses text the database cannot store before the schema runs", () => {
    expect(thrown(() => parseBody(withBody, raw({ name: "a\u0000b" })))).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [expect.objectContaining({ path: "name" })],
    });
  });

  it("takes nothing, or {}, on an endpoint without a body, and refuses anything else", () => {
    expect(parseBody(without, NO_BODY)).toBeUndefined();
    expect(parseBody(without, raw({}))).toBeUndefined();
    for (const json of [{ a: 1 }, null, [1], "x", 0]) {
      expect(thrown(() => parseBody(without, raw(json)))).toMatchObject({
        code: "VALIDATION_ERROR",
        message: "This endpoint takes no request body",
        details: [{ path: "(body)", message: "must be empty" }],
      });
    }
  });
});

describe("parseQuery", () => {
  const def = {
    query: z.object({ limit: z.coerce.number().int().max(100).optional() }),
  } as unknown as EndpointDef;

  it("parses the query string with the definition's schema; without one it is undefined", () => {
    expect(parseQuery(def, new URL("http://x/?limit=20"))).toEqual({ limit: 20 });
    expect(parseQuery({} as EndpointDef, new URL("http://x/?limit=20"))).toBeUndefined();
  });

  it("is 400 naming the parameter", () => {
    expect(thrown(() => parseQuery(def, new URL("http://x/?limit=500")))).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("Invalid query parameters"),
      details: [expect.objectContaining({ path: "limit" })],
    });
  });
});
