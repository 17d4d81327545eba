/**
 * The production server's own plumbing (server/production.mjs), on a real node:http server:
 * how a route handler's Web Response is written, and the forwarded headers every request gets.
 * The fast path as a whole runs under the end-to-end tests (e2e/fast-path.spec.ts).
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { BufferedResponse } from "../lib/http/buffered-response";
import { forwardedHeaders, writeResponse } from "./production.mjs";

let server;
afterEach(() => new Promise((resolve) => (server ? server.close(resolve) : resolve())));

async function serve(handler) {
  server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

describe("writeResponse", () => {
  it("writes a one-chunk body at once with its length, every Set-Cookie, and the extra headers", async () => {
    const base = await serve((req, res) => {
      const headers = new Headers({ "content-type": "application/json", "x-content-type-options": "wrong" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      void writeResponse(res, new Response('{"ok":true}', { status: 201, headers }), {
        "X-Content-Type-Options": "nosniff",
      });
    });
    const response = await fetch(base);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-length")).toBe("11");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("writes a BufferedResponse's text without making its stream, its length in bytes", async () => {
    let written;
    const base = await serve((req, res) => {
      written = new BufferedResponse('{"name":"Åsa Öberg"}', {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
      });
      void writeResponse(res, written, { "X-Content-Type-Options": "nosniff" });
    });
    const response = await fetch(base);
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength('{"name":"Åsa Öberg"}')));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual({ name: "Åsa Öberg" });
    // the fast path took the text: the Response's own body was never asked for
    expect(written.bodyUsed).toBe(false);
    expect(await written.text()).toBe('{"name":"Åsa Öberg"}');
  });

  it("streams a body of several chunks in order, and answers a bodiless response", async () => {
    const base = await serve((req, res) => {
      if (req.url === "/empty") return void writeResponse(res, new Response(null, { status: 204 }), {});
      const parts = ["one,", "two,", "three"];
      const body = new ReadableStream({
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      });
      void writeResponse(res, new Response(body), {});
    });
    const streamed = await fetch(base);
    expect(streamed.headers.get("content-length")).toBeNull();
    expect(await streamed.text()).toBe("one,two,three");
    const empty = await fetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
  });
});

describe("forwardedHeaders", () => {
  it("appends the peer's address to X-Forwarded-For, so a client cannot choose its own", async () => {
    const seen = [];
    const base = await serve((req, res) => {
      forwardedHeaders(req, 3000);
      seen.push({ ...req.headers });
      res.end();
    });
    await fetch(base, { headers: { "x-forwarded-for": "203.0.113.9" } });
    await fetch(base);
    expect(seen[0]["x-forwarded-for"]).toBe("203.0.113.9, 127.0.0.1");
    expect(seen[1]["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen[1]["x-forwarded-proto"]).toBe("http");
    expect(seen[1]["x-forwarded-port"]).toBe("3000");
    expect(seen[1]["x-forwarded-host"]).toBe(new URL(base).host);
  });
});
