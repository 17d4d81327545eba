/**
 * One browser's cookies for tests that follow a sign-in across requests: it keeps what
 * Set-Cookie headers set (per host, name and Path; Max-Age=0 deletes) and sends back only the
 * cookies whose host and Path match the request, as a browser does. Works with the in-process
 * router (`call`) and with real HTTP (`fetch`).
 */
import { call, type CallOptions, type CallResult } from "./router";

interface TStoredCookie {
  host: string;
  name: string;
  value: string;
  path: string;
  attributes: Record<string, string>;
}

const BASE = "http://localhost:3000";

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

export class CookieJar {
  readonly cookies: TStoredCookie[] = [];

  /** Keeps the cookies a response to `url` set. */
  store(url: string, headers: Headers): void {
    const target = new URL(url, BASE);
    for (const line of headers.getSetCookie()) {
      const [pair, ...rest] = line.split(";").map((p) => p.trim());
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attributes: Record<string, string> = {};
      for (const attr of rest) {
        const i = attr.indexOf("=");
        attributes[(i < 0 ? attr : attr.slice(0, i)).toLowerCase()] = i < 0 ? "" : attr.slice(i + 1);
      }
      const path = attributes.path ?? "/";
      const index = this.cookies.findIndex(
        (c) => c.host === target.host && c.name === name && c.path === path,
      );
      if (index >= 0) this.cookies.splice(index, 1);
      if (attributes["max-age"] === "0") continue;
      this.cookies.push({ host: target.host, name, value, path, attributes });
    }
  }

  /** The Cookie header a browser sends to `url` (undefined: none). */
  header(url: string): string | undefined {
    const target = new URL(url, BASE);
    const sent = this.cookies.filter((c) => c.host === target.host && pathMatches(c.path, target.pathname));
    return sent.length > 0 ? sent.map((c) => `${c.name}=${c.value}`).join("; ") : undefined;
  }

  /** The stored cookie `name` (any path), for assertions on its attributes. */
  find(name: string): TStoredCookie | undefined {
    return this.cookies.find((c) => c.name === name);
  }

  /** An in-process request (lib/testing/router.ts) sent with this browser's cookies. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async call<T = any>(method: string, url: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const cookie = this.header(url);
    const result = await call<T>(method, url, {
      ...options,
      headers: { ...options.headers, ...(cookie ? { cookie } : {}) },
    });
    this.store(url, result.headers);
    return result;
  }

  /** A real HTTP request sent with this browser's cookies; redirects are not followed. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set("cookie", cookie);
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    this.store(url, response.headers);
    return response;
  }
}
