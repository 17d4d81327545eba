import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_RESPONSE_BODY_BYTES, sendWebhookRequest } from "./request";
import type { TResolve } from "../ssrf";

const DESTINATION_NOT_ALLOWED =
  "destination not allowed: private, loopback, link-local and reserved addresses are refused";
const HOST_NOT_ALLOWED = "host not found or not allowed: the host name must resolve to public addresses only";

describe("sendWebhookRequest", () => {
  type Seen = { method: string; path: string; headers: http.IncomingHttpHeaders; body: Buffer };
  const seen: Seen[] = [];
  let reply: (res: http.ServerResponse) => void = (res) => res.end("ok");
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      reply(res);
    });
  });
  let base = "";
  const previous = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  afterEach(() => {
    seen.length = 0;
    reply = (res) => res.end("ok");
    if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = previous;
  });

  it("POSTs the exact body bytes with the given headers; 2xx is success", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    reply = (res) => {
      res.statusCode = 204;
      res.end();
    };
    const body = '{"event":"verification.completed","name":"Jürgen 🎉"}';
    const result = await sendWebhookRequest(`${base}/hooks?x=1`, body, { "X-Test": "yes" }, 2_000);
    expect(result).toMatchObject({ success: true, responseStatus: 204, error: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe("POST");
    expect(seen[0]!.path).toBe("/hooks?x=1");
    expect(seen[0]!.body.equals(Buffer.from(body, "utf8"))).toBe(true);
    expect(seen[0]!.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(seen[0]!.headers["x-test"]).toBe("yes");
  });

  it("reports non-2xx statuses and redirects as failures, without following", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    reply = (res) => {
      res.writeHead(500);
      res.end("boom");
    };
    expect(await sendWebhookRequest(base, "{}", {}, 2_000)).toMatchObject({
      success: false,
      responseStatus: 500,
      error: "receiver answered HTTP 500",
    });
    reply = (res) => {
      res.writeHead(307, { Location: `${base}/elsewhere` });
      res.end();
    };
    expect(await sendWebhookRequest(`${base}/start`, "{}", {}, 2_000)).toMatchObject({
      success: false,
      responseStatus: 307,
      error: `redirect (HTTP 307 to ${base}/elsewhere) not followed`,
    });
    expect(seen.map((s) => s.path)).toEqual(["/", "/start"]);
  });

  it("gives up after the timeout", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    reply = () => undefined; // never answers
    const result = await sendWebhookRequest(base, "{}", {}, 150);
    expect(result).toMatchObject({ success: false, responseStatus: null, error: "timed out after 150 ms" });
    expect(result.durationMs).toBeGreaterThanOrEqual(140);
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it("refuses loopback unless private networks are allowed, before any byte is sent", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    const port = new URL(base).port;
    for (const url of [
      base,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[64:ff9b:0:0:0:0:7f00:1]:${port}/`,
      "http://169.254.169.254/latest/meta-data",
    ]) {
      const result = await sendWebhookRequest(url, "{}", {}, 2_000);
      expect(result).toMatchObject({ success: false, responseStatus: null, error: DESTINATION_NOT_ALLOWED });
    }
    // a name: the tenant learns neither the address it resolved to nor whether it resolved at all
    for (const url of [`http://localhost:${port}/`, "http://does-not-exist.invalid/"]) {
      const result = await sendWebhookRequest(url, "{}", {}, 2_000);
      expect(result).toMatchObject({ success: false, responseStatus: null, error: HOST_NOT_ALLOWED });
    }
    expect(seen).toHaveLength(0);
  });

  it("checks every address a name resolves to and connects to none when one is forbidden", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    const port = new URL(base).port;
    const asked: string[] = [];
    // a public address first, the receiver's loopback address second: node:net would try both
    const resolve: TResolve = async (hostname) => {
      asked.push(hostname);
      return [
        { address: "93.184.216.34", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ];
    };
    const result = await sendWebhookRequest(`http://hooks.example.com:${port}/`, "{}", {}, 2_000, {
      resolve,
    });
    expect(asked).toEqual(["hooks.example.com"]);
    expect(result).toMatchObject({ success: false, responseStatus: null, error: HOST_NOT_ALLOWED });
    expect(seen).toHaveLength(0);

    // the same stub with private networks allowed does reach the receiver through the name
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    const loopbackOnly: TResolve = async () => [{ address: "127.0.0.1", family: 4 }];
    const reached = await sendWebhookRequest(`http://hooks.example.com:${port}/`, "{}", {}, 2_000, {
      resolve: loopbackOnly,
    });
    expect(reached).toMatchObject({ success: true, responseStatus: 200 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.host).toBe(`hooks.example.com:${port}`);
  });

  it("keeps the request headers and the start of the receiver's answer", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    reply = (res) => {
      res.writeHead(202, [
        ["X-Trace", "abc"],
        ["X-Trace", "def"],
        ["Set-Cookie", "sid=secret"],
        ["Content-Type", "text/plain"],
      ]);
      res.end("accepted\u0000!");
    };
    const result = await sendWebhookRequest(base, '{"a":1}', { "X-Test": "yes" }, 2_000);
    expect(result).toMatchObject({
      success: true,
      responseStatus: 202,
      requestHeaders: { "X-Test": "yes", "Content-Length": "7" },
      responseHeaders: { "x-trace": "abc, def", "content-type": "text/plain" },
      // NUL cannot be stored in PostgreSQL text
      responseBody: "accepted\uFFFD!",
      responseBodyTruncated: false,
    });
    expect(result.responseHeaders).not.toHaveProperty("set-cookie");

    reply = (res) => {
      res.writeHead(500);
      res.end("x".repeat(MAX_RESPONSE_BODY_BYTES * 3));
    };
    const long = await sendWebhookRequest(base, "{}", {}, 2_000);
    expect(long).toMatchObject({ success: false, responseStatus: 500, responseBodyTruncated: true });
    expect(long.responseBody).toBe("x".repeat(MAX_RESPONSE_BODY_BYTES));
  });

  it("keeps a received status when the body is still arriving at the timeout", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    reply = (res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("partial");
      // never ends
    };
    const result = await sendWebhookRequest(base, "{}", {}, 200);
    expect(result).toMatchObject({
      success: true,
      responseStatus: 200,
      error: null,
      responseBody: "partial",
      responseBodyTruncated: false,
    });
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it("has request headers but no response when nothing answered", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    reply = () => undefined;
    const result = await sendWebhookRequest(base, "{}", { "X-Test": "yes" }, 100);
    expect(result).toMatchObject({
      responseStatus: null,
      requestHeaders: { "X-Test": "yes", "Content-Length": "2" },
      responseHeaders: null,
      responseBody: null,
      responseBodyTruncated: false,
    });
  });

  it("reports unusable URLs and connection errors", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    expect((await sendWebhookRequest("not a url", "{}", {}, 500)).error).toBe("invalid webhook URL");
    expect((await sendWebhookRequest("ftp://example.com/x", "{}", {}, 500)).error).toBe(
      "unsupported URL scheme ftp:",
    );
    // the error names no address (the server log keeps the detail)
    const refused = await sendWebhookRequest("http://127.0.0.1:1/", "{}", {}, 2_000);
    expect(refused).toMatchObject({ success: false, responseStatus: null, error: "connection refused" });
    const byName = await sendWebhookRequest("http://localhost:1/", "{}", {}, 2_000);
    expect(byName).toMatchObject({ success: false, responseStatus: null, error: "connection refused" });
  });
});

describe("sendWebhookRequest: kept-alive connections", () => {
  const previous = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  afterEach(() => {
    if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = previous;
  });

  /** A server on 127.0.0.1 answering 204 to everything; counts its connections and requests. */
  async function counting<T>(
    run: (port: number, seen: { connections: number; requests: number }) => Promise<T>,
  ) {
    const seen = { connections: 0, requests: 0 };
    const server = http.createServer((req, res) => {
      seen.requests++;
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    server.on("connection", () => seen.connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      return await run((server.address() as AddressInfo).port, seen);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }

  it("sends consecutive requests to one receiver over one connection", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    await counting(async (port, seen) => {
      for (let i = 0; i < 5; i++)
        expect(await sendWebhookRequest(`http://127.0.0.1:${port}/hooks`, "{}", {}, 2_000)).toMatchObject({
          success: true,
          responseStatus: 204,
        });
      expect(seen).toEqual({ connections: 1, requests: 5 });
    });
  });

  it("never reuses a connection opened while private networks were allowed once they are not", async () => {
    await counting(async (port, seen) => {
      process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
      const url = `http://localhost:${port}/hooks`;
      expect(await sendWebhookRequest(url, "{}", {}, 2_000)).toMatchObject({ success: true });
      delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
      expect(await sendWebhookRequest(url, "{}", {}, 2_000)).toMatchObject({
        success: false,
        responseStatus: null,
        error: HOST_NOT_ALLOWED,
      });
      expect(seen.requests).toBe(1);
    });
  });

  it("sends once more, on a new connection, when the receiver closes the reused one on receipt", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1";
    // each request: the connection it came on; the first connection drops its second request
    const requests: number[] = [];
    let connections = 0;
    const server = net.createServer((socket) => {
      const connection = connections++;
      let buffered = "";
      socket.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("latin1");
        for (;;) {
          const end = buffered.indexOf("\r\n\r\n");
          if (end < 0) return;
          const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
          if (buffered.length < end + 4 + length) return;
          buffered = buffered.slice(end + 4 + length);
          requests.push(connection);
          if (connection === 0 && requests.length === 2) {
            socket.destroy();
            return;
          }
          socket.write("HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      expect(await sendWebhookRequest(url, "{}", {}, 2_000)).toMatchObject({
        success: true,
        responseStatus: 204,
      });
      expect(await sendWebhookRequest(url, "{}", {}, 2_000)).toMatchObject({
        success: true,
        responseStatus: 204,
      });
      expect(requests).toEqual([0, 0, 1]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
