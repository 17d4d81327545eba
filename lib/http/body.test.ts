import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import {
  FORM_MEDIA_TYPE,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  readBodyText,
  readFormBody,
  readJsonBody,
} from "./body";

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

describe("JSON complexity (before JSON.parse and any schema)", () => {
  const nested = (depth: number, leaf = "1") => `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}`;

  it("accepts nesting of exactly 32 levels", async () => {
    const result = await readJsonBody(post(nested(MAX_JSON_DEPTH)));
    expect(result.json).toBeTypeOf("object");
  });

  it("refuses 33 levels with 400 JSON_TOO_COMPLEX naming where", async () => {
    const error = await apiError(readJsonBody(post(nested(MAX_JSON_DEPTH + 1))));
    expect(error.status).toBe(400);
    expect(error.code).toBe("JSON_TOO_COMPLEX");
    expect(error.details).toEqual([
      { path: Array(MAX_JSON_DEPTH).fill("a").join("."), message: "must not nest deeper than 32 levels" },
    ]);
  });

  it("refuses 5,000 levels of objects and of arrays, even when unterminated", async () => {
    for (const text of [
      nested(5000),
      `{"sponsor":${"[".repeat(5000)}${"]".repeat(5000)}}`,
      "[".repeat(100_000),
    ]) {
      const error = await apiError(readJsonBody(post(text)));
      expect(error.code).toBe("JSON_TOO_COMPLEX");
    }
    const arrays = await apiError(readJsonBody(post(`{"sources":[1,${"[".repeat(40)}]}`)));
    expect(arrays.details[0]!.path).toBe(`sources[1]${"[0]".repeat(30)}`);
  });

  it("is not fooled by brackets, quotes and escapes inside strings", async () => {
    const text = JSON.stringify({ a: "[[[[{{{{".repeat(100), 'b"[{': ['\\"[', "}}]]"] });
    expect((await readJsonBody(post(text))).json).toEqual(JSON.parse(text));
  });

  it(`refuses more than ${MAX_JSON_VALUES} values in total, accepts exactly that many`, async () => {
    const list = (n: number) =>
      JSON.stringify({ list: Array.from({ length: n }, (_, i) => (i % 3 === 0 ? "x" : i)) });
    // the object and the array are values too
    expect((await readJsonBody(post(list(MAX_JSON_VALUES - 2)))).json).toBeTypeOf("object");
    const error = await apiError(readJsonBody(post(list(MAX_JSON_VALUES - 1))));
    expect(error.code).toBe("JSON_TOO_COMPLEX");
    expect(error.details).toEqual([
      { path: "(body)", message: `must hold at most ${MAX_JSON_VALUES} values` },
    ]);
  });

  it("still reports malformed JSON as INVALID_JSON", async () => {
    const error = await apiError(readJsonBody(post('{"a":[1,2}')));
    expect(error.code).toBe("INVALID_JSON");
  });
});

describe("readBodyText and readFormBody (the other surfaces' bodies)", () => {
  it("applies the caller's limit, declared or streamed, never truncating", async () => {
    const declared = post("a=1", { "content-type": FORM_MEDIA_TYPE, "content-length": "16385" });
    expect((await apiError(readFormBody(declared, { maxBytes: 16 * 1024 }))).status).toBe(413);
    expect(declared.bodyUsed).toBe(false);
    const chunk = new TextEncoder().encode("a=".padEnd(8 * 1024, "x"));
    const error = await apiError(
      readBodyText(
        streamed([chunk, chunk, new Uint8Array([0x78])], { "content-type": FORM_MEDIA_TYPE }),
        16 * 1024,
      ),
    );
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.message).toBe("Request body exceeds the limit of 16384 bytes (16 KB)");
    expect(await readBodyText(streamed([chunk, chunk]), 16 * 1024)).toHaveLength(16 * 1024);
  });

  it("refuses an oversize copy (request.clone()) without waiting for the original to be read", async () => {
    const original = post("a=".padEnd(20 * 1024, "x"), { "content-type": FORM_MEDIA_TYPE });
    const error = await apiError(readFormBody(original.clone(), { maxBytes: 16 * 1024 }));
    expect(error.status).toBe(413);
  });

  it("reads url-encoded forms, an empty body as an empty form, and refuses other media types", async () => {
    const form = await readFormBody(
      post("outcome=success&identity=a%2Bb+c", { "content-type": FORM_MEDIA_TYPE }),
    );
    expect(Object.fromEntries(form)).toEqual({ outcome: "success", identity: "a+b c" });
    expect([...(await readFormBody(new Request(URL_, { method: "POST" })))]).toEqual([]);
    const json = await apiError(readFormBody(post('{"outcome":"success"}')));
    expect([json.status, json.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });
});

describe("a body the client stops sending", () => {
  it("is a 400 naming the body, not a server or database error", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const request = new Request("http://localhost/x", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    const err = await readBodyText(request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("VALIDATION_ERROR");
    expect((err as ApiError).status).toBe(400);
  });
});
