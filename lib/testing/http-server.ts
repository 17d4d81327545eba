/**
 * The route handlers of `app/` over real HTTP on 127.0.0.1, for relying-party libraries that
 * speak HTTP (openid-client, oauth4webapi). Routing is the one of lib/testing/router.ts
 * (static segments before dynamic ones); the Host header is kept, so issuer rules see it.
 * Runs in-process, or as its own process (`tsx lib/testing/http-server.ts`, prints the origin)
 * for the multi-instance test.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
interface Route {
  file: string;
  segments: string[];
  score: number[];
}

const root = path.resolve(import.meta.dirname, "..", "..");

function collect(dir: string, segments: string[], out: Route[]) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const name = entry.name;
      collect(path.join(dir, name), /^\(.*\)$/.test(name) ? segments : [...segments, name], out);
    } else if (entry.name === "route.ts") {
      const score = segments.map((s) => (s.startsWith("[...") ? 2 : s.startsWith("[") ? 1 : 0));
      out.push({ file: path.join(dir, entry.name), segments, score });
    }
  }
}

let routes: Route[] | undefined;
function allRoutes(): Route[] {
  if (!routes) {
    routes = [];
    collect(path.join(root, "app"), [], routes);
    routes.sort((a, b) => {
      for (let i = 0; i < Math.max(a.score.length, b.score.length); i++) {
        const d = (a.score[i] ?? -1) - (b.score[i] ?? -1);
        if (d !== 0) return d;
      }
      return b.segments.length - a.segments.length;
    });
  }
  return routes;
}

function match(route: Route, parts: string[]): Record<string, string | string[]> | undefined {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i]!;
    if (seg.startsWith("[...")) {
      const rest = parts.slice(i);
      if (rest.length === 0) return undefined;
      params[seg.slice(4, -1)] = rest;
      return params;
    }
    const part = parts[i];
    if (part === undefined) return undefined;
    if (seg.startsWith("[")) params[seg.slice(1, -1)] = decodeURIComponent(part);
    else if (seg !== part) return undefined;
  }
  return parts.length === route.segments.length ? params : undefined;
}

/** Routes one Request to its handler, as Next.js would. */
export async function dispatch(request: Request): Promise<Response> {
  const parts = new URL(request.url).pathname.split("/").filter(Boolean);
  for (const route of allRoutes()) {
    const params = match(route, parts);
    if (!params) continue;
    const mod = (await import(pathToFileURL(route.file).href)) as Record<string, Handler | undefined>;
    const handler = mod[request.method.toUpperCase()];
    if (!handler) return new Response(null, { status: 405 });
    return handler(request, { params: Promise.resolve(params) });
  }
  return new Response("Not found", { status: 404 });
}

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
