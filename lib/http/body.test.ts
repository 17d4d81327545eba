import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { MAX_BODY_BYTES, readJsonBody } from "./body";

const URL_ = "http://localhost/api/sandbox/v1/apps";

function post(
  body: BodyInit | null,
  headers: Record<string, string> = { "content-type": "application/json" },
): Request {
  return new Request(URL_, { method: "POST", body, headers });
}

/** A body streamed in chunks, with no Content-Length. */
function streamed(
  chunks: Uint8Array[],
  headers: Record<string, string> = { "content-type": "application/json" },
) {
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
  return new Request(URL_, { method: "POST", body: stream, headers, duplex: "half" } as RequestInit);
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("readJsonBody", () => {
  it("reads a missing or blank body as undefined, whatever the content type", async () => {
    expect(await readJsonBody(new Request(URL_, { method: "POST" }))).toEqual({ text: "", json: undefined });
    expect(await readJsonBody(post(""))).toEqual({ text: "", json: undefined });
    expect(await readJsonBody(post("  \n\t ", { "content-type": "text/plain" }))).toEqual({
      text: "",
      json: undefined,
    });
  });

  it("parses JSON and keeps the raw text", async () => {
    const text = '{"name":"Acme","redirectUris":["https://acme.example/cb"],"n":1.5,"ok":true}';
    expect(await readJsonBody(post(text))).toEqual({
      text,
      json: { name: "Acme", redirectUris: ["https://acme.example/cb"], n: 1.5, ok: true },
    });
  });

  it("accepts application/json with parameters, in any case", async () => {
    const result = await readJsonBody(post('{"a":1}', { "content-type": "Application/JSON; charset=utf-8" }));
    expect(result.json).toEqual({ a: 1 });
  });

  it("accepts +json media types such as application/merge-patch+json", async () => {
    const result = await readJsonBody(
      post('{"name":null}', { "content-type": "application/merge-patch+json" }),
    );
    expect(result.json).toEqual({ name: null });
  });

  it("refuses a body of another media type with 415", async () => {
    const error = await apiError(readJsonBody(post('{"a":1}', { "content-type": "text/plain" })));
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.status).toBe(415);
    expect(error.message).toContain('"text/plain"');

    const form = await apiError(
      readJsonBody(post("a=1", { "content-type": "application/x-www-form-urlencoded" })),
    );
    expect(form.status).toBe(415);
  });

  it("refuses a body without a content type with 415", async () => {
    const error = await apiError(readJsonBody(post(new TextEncoder().encode('{"a":1}'), {})));
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.status).toBe(415);
    expect(error.message).toContain("got none");
  });

  it("refuses malformed JSON with 400 INVALID_JSON", async () => {
    for (const text of ['{"a":', "{a:1}", "[1,2,]", "undefined", '{"a":1}}']) {
      const error = await apiError(readJsonBody(post(text)));
      expect(error.code).toBe("INVALID_JSON");
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/^Request body is not valid JSON: /);
    }
  });

  it("refuses a declared Content-Length over 1 MB with 413 before reading", async () => {
    const request = post('{"a":1}', {
      "content-type": "application/json",
      "content-length": String(MAX_BODY_BYTES + 1),
    });
    const error = await apiError(readJsonBody(request));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.status).toBe(413);
    expect(request.bodyUsed).toBe(false);
  });

  it("refuses a streamed body over 1 MB without Content-Length with 413", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const chunks = Array.from({ length: MAX_BODY_BYTES / chunk.length }, () => chunk);
    chunks.push(new TextEncoder().encode("{}")); // 2 bytes over the limit
    const error = await apiError(readJsonBody(streamed(chunks)));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.status).toBe(413);
  });

  it("accepts a body of exactly 1 MB", async () => {
    const body = `"${"x".repeat(MAX_BODY_BYTES - 2)}"`;
    const result = await readJsonBody(streamed([new TextEncoder().encode(body)]));
    expect(typeof result.json).toBe("string");
    expect((result.json as string).length).toBe(MAX_BODY_BYTES - 2);
  });

  it("reassembles a body split across chunks, even inside a multi-byte character", async () => {
    const bytes = new TextEncoder().encode('{"name":"Café Ünïcode ✓"}');
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of "é"
    const result = await readJsonBody(
      streamed([bytes.slice(0, cut), bytes.slice(cut, cut + 3), bytes.slice(cut + 3)]),
    );
    expect(result.json).toEqual({ name: "Café Ünïcode ✓" });
  });
});
