/**
 * The route handlers of `app/` over real HTTP on 127.0.0.1, for relying-party libraries that
 * speak HTTP (openid-client, oauth4webapi), routed by lib/testing/router.ts `dispatch`; the
 * Host header is kept, so issuer rules see it.
 * Runs in-process, or as its own process (`tsx lib/testing/http-server.ts`, prints the origin)
 * for the multi-instance test.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { dispatch } from "./router";

export interface TTestServer {
  origin: string;
  close(): Promise<void>;
}

export async function startHttpServer(port = 0): Promise<TTestServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        try {
          const headers = new Headers();
          for (const [name, value] of Object.entries(req.headers)) {
            if (typeof value === "string") headers.set(name, value);
            else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
          }
          const body =
            chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD"
              ? Buffer.concat(chunks)
              : undefined;
          const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`;
          const response = await dispatch(
            new Request(url, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) }),
          );
          const out: Record<string, string> = {};
          response.headers.forEach((value, name) => (out[name] = value));
          res.writeHead(response.status, out);
          res.end(Buffer.from(await response.arrayBuffer()));
        } catch (err) {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(String(err));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// run as a process of its own: PUBLIC_URL must be this server's origin, so the port is given
if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const port = Number(process.env.IDV_TEST_PORT ?? 0);
  void startHttpServer(port).then((s) => console.log(`LISTENING ${s.origin}`));
}
