/**
 * BufferedResponse behaves as a Response made with the same text, for every reader that is not
 * the production server's fast path (Next.js, tests, clients of the handlers).
 */
import { describe, expect, it } from "vitest";
import { BUFFERED_BODY, BufferedResponse } from "./buffered-response";

const init = { status: 201, statusText: "Created", headers: { "content-type": "application/json" } };

describe("BufferedResponse", () => {
  it("is a Response with the status, headers and body it was made with", async () => {
    const response = new BufferedResponse('{"a":1}', init);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Created");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response[BUFFERED_BODY]).toBe('{"a":1}');
    expect(await response.json()).toEqual({ a: 1 });
  });

  it("reads as text, bytes and a stream; once read, its body is used as a Response's would be", async () => {
    const text = "Ærø – 北";
    expect(await new BufferedResponse(text).text()).toBe(text);
    expect(new TextDecoder().decode(await new BufferedResponse(text).arrayBuffer())).toBe(text);
    expect(await (await new BufferedResponse(text).blob()).text()).toBe(text);
    const streamed = new BufferedResponse(text);
    const body = streamed.body;
    expect(body).not.toBeNull();
    // handed out as a stream: the fast path must not write the text as well
    expect(streamed[BUFFERED_BODY]).toBeUndefined();
    expect(await new Response(body).text()).toBe(text);
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.text()).rejects.toThrow(TypeError);
    expect(() => streamed.clone()).toThrow(TypeError);
  });

  it("clones with its status and headers, before and after its stream was made", async () => {
    const original = new BufferedResponse("hello", init);
    original.headers.set("x-request-id", "req_1");
    const copy = original.clone();
    expect(copy.status).toBe(201);
    expect(copy.headers.get("x-request-id")).toBe("req_1");
    expect(await copy.text()).toBe("hello");
    expect(await original.text()).toBe("hello");
    const streamed = new BufferedResponse("again", init);
    void streamed.body;
    const branch = streamed.clone();
    expect(await branch.text()).toBe("again");
    expect(await streamed.text()).toBe("again");
  });

  it("keeps headers mutable for the pipeline, unlike Response.redirect", () => {
    const response = new BufferedResponse("{}");
    response.headers.set("X-Content-Type-Options", "nosniff");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
