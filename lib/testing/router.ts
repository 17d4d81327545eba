/**
 * Calls the real route handlers of `app/api/**` in-process with real Request objects, routed the
 * way Next.js routes them (static segments before dynamic ones, catch-alls last). Integration
 * tests use it to exercise the full request path — wrapper, auth, validation, database —
 * without starting a server.
 */
import fs from "node:fs";
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
      // route groups "(x)" do not appear in the URL
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

export interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** raw body text, sent as-is */
  rawBody?: string | Uint8Array;
}

// Tests read arbitrary JSON bodies; `any` keeps assertions on them short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Routes one Request to its handler, as Next.js would (404 / 405 when none). */
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
  return new Response(null, { status: 404 });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call<T = any>(
  method: string,
  urlPath: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const url = new URL(urlPath, "http://localhost:3000");
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await dispatch(new Request(url, { method, headers, body }));
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
});
