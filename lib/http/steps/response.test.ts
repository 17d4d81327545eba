/** withApi's response step: the Response of a handler's result, and the check of its documentation. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkDocumentedResponse, json, toResponse } from "./response";

describe("toResponse", () => {
  it("answers JSON, never cached, with the handler's headers over the defaults", async () => {
    const res = toResponse(json(201, { id: "x" }, { Location: "/v1/x", "Cache-Control": "private" }));
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private");
    expect(res.headers.get("location")).toBe("/v1/x");
    expect(await res.json()).toEqual({ id: "x" });
  });

  it("answers no body for 204 and for an undefined body (no content type), never cached", async () => {
    for (const result of [json(204, { ignored: true }), json(202)]) {
      const res = toResponse(result);
      expect(res.status).toBe(result.status);
      expect(res.headers.get("content-type")).toBeNull();
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toBe("");
    }
  });

  it("keeps a JSON null body", async () => {
    expect(await toResponse(json(200, null)).text()).toBe("null");
  });
});

describe("checkDocumentedResponse", () => {
  const def = {
    operationId: "getThing",
    responses: {
      200: { description: "ok", schema: z.object({ id: z.string() }) },
      204: { description: "gone" },
    },
  };

  it("passes a documented status whose body matches its schema, and a documented status without one", () => {
    expect(() => checkDocumentedResponse(def, json(200, { id: "x" }))).not.toThrow();
    expect(() => checkDocumentedResponse(def, json(204))).not.toThrow();
  });

  it("fails an undocumented status, a body off its schema and a route without documentation", () => {
    expect(() => checkDocumentedResponse(def, json(201, { id: "x" }))).toThrow(
      "getThing: status 201 is not documented",
    );
    expect(() => checkDocumentedResponse(def, json(200, { id: 1 }))).toThrow(
      "getThing: the 200 body does not match its documented schema",
    );
    expect(() => checkDocumentedResponse({}, json(200, {}))).toThrow(
      "(undocumented endpoint): the route has no endpoint definition with documented responses",
    );
  });
});
