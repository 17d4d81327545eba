import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ForbiddenAddressError } from "../webhooks/ssrf";
import { guardedFetch, ResponseTooLargeError } from "./guarded-fetch";

let server: http.Server;
let origin: string;
const seen: { method?: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method, body: Buffer.concat(chunks).toString(), headers: req.headers });
      const path = req.url ?? "/";
      if (path === "/json") {
        res.writeHead(200, { "content-type": "application/json", "x-two": "a" });
        return res.end(JSON.stringify({ hello: "world" }));
      }
      if (path === "/echo") {
        res.writeHead(201, { "content-type": "text/plain" });
        return res.end(`${req.method} ${req.headers["content-type"]} ${Buffer.concat(chunks).toString()}`);
      }
      if (path === "/redirect") {
        res.writeHead(302, { location: "/json" });
        return res.end();
      }
      if (path === "/big") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        return res.end(Buffer.alloc(64 * 1024, 1));
      }
      if (path === "/gzip-bomb") {
        res.writeHead(200, { "content-encoding": "gzip" });
        return res.end(zlib.gzipSync(Buffer.alloc(256 * 1024, 0)));
      }
      if (path === "/gzip") {
        res.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" });
        return res.end(zlib.gzipSync(JSON.stringify({ zipped: true })));
      }
      if (path === "/slow") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("start");
        setTimeout(() => res.end("end"), 2_000).unref();
        return;
      }
      if (path === "/no-content") {
        res.writeHead(204);
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const previous = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
function allowPrivate(allowed: boolean): void {
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = allowed ? "1" : "0";
}
afterEach(() => {
  if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = previous;
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describe("guardedFetch", () => {
  it("refuses a loopback address when private networks are not allowed, before any request", async () => {
    allowPrivate(false);
    const before = seen.length;
    const err = await rejection(guardedFetch(`${origin}/json`));
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).cause).toBeInstanceOf(ForbiddenAddressError);
    expect(seen.length).toBe(before);
  });

  it("refuses a host name that resolves to loopback (checked at connect time)", async () => {
    allowPrivate(false);
    const port = (server.address() as AddressInfo).port;
    const before = seen.length;
    const err = await rejection(guardedFetch(`http://localhost:${port}/json`));
    expect((err as TypeError).cause).toBeInstanceOf(ForbiddenAddressError);
    expect(seen.length).toBe(before);
  });

  it("reaches a loopback address when private networks are allowed, and answers a standard Response", async () => {
    allowPrivate(true);
    const res = await guardedFetch(`${origin}/json`);
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-two")).toBe("a");
    expect(res.url).toBe(`${origin}/json`);
    expect(await res.json()).toEqual({ hello: "world" });
  });

  it("sends the method, headers and a form body as fetch would", async () => {
    allowPrivate(true);
    const res = await guardedFetch(`${origin}/echo`, {
      method: "POST",
      headers: { authorization: "Basic abc" },
      body: new URLSearchParams({ a: "1", b: "two words" }),
    });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe("POST application/x-www-form-urlencoded;charset=UTF-8 a=1&b=two+words");
    expect(seen.at(-1)?.headers.authorization).toBe("Basic abc");
  });

  it("does not follow redirects", async () => {
    allowPrivate(true);
    const res = await guardedFetch(`${origin}/redirect`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/json");
  });

  it("refuses an answer over the size limit, counted after decompression", async () => {
    allowPrivate(true);
    const big = await rejection(guardedFetch(`${origin}/big`, { maxBytes: 16 * 1024 }));
    expect((big as TypeError).cause).toBeInstanceOf(ResponseTooLargeError);
    const bomb = await rejection(guardedFetch(`${origin}/gzip-bomb`, { maxBytes: 16 * 1024 }));
    expect((bomb as TypeError).cause).toBeInstanceOf(ResponseTooLargeError);
    // under the limit the same answer goes through
    expect((await guardedFetch(`${origin}/big`, { maxBytes: 64 * 1024 })).status).toBe(200);
  });

  it("decodes a compressed answer", async () => {
    allowPrivate(true);
    const res = await guardedFetch(`${origin}/gzip`);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.json()).toEqual({ zipped: true });
  });

  it("gives up after the time limit, body included", async () => {
    allowPrivate(true);
    const started = Date.now();
    const err = await rejection(guardedFetch(`${origin}/slow`, { timeoutMs: 300 }));
    expect(err).toBeInstanceOf(DOMException);
    expect((err as DOMException).name).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(1_900);
  });

  it("honours the caller's abort signal", async () => {
    allowPrivate(true);
    const controller = new AbortController();
    const pending = rejection(guardedFetch(`${origin}/slow`, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("stop")), 50);
    expect(((await pending) as Error).message).toBe("stop");
  });

  it("answers a 204 without a body and refuses other schemes", async () => {
    allowPrivate(true);
    expect((await guardedFetch(`${origin}/no-content`)).status).toBe(204);
    const err = await rejection(guardedFetch("ftp://example.com/file"));
    expect(err).toBeInstanceOf(TypeError);
  });
});
