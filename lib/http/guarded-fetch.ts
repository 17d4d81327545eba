/**
 * `fetch` toward hosts an operator configured (OIDC issuers, SAML metadata URLs): every connection
 * goes through the webhooks' SSRF guard, with a time limit and a size limit.
 * Rules:
 * - the address actually connected to is checked (lib/webhooks/ssrf.ts: the guarded lookup runs at
 *   connect time, so DNS rebinding cannot slip past; IP literals are checked before the request);
 *   private, loopback, link-local and reserved ranges are refused unless private networks are
 *   allowed (WEBHOOK_ALLOW_PRIVATE_NETWORKS, or `npm run dev`);
 * - redirects are never followed: a 3xx is answered as it is (`redirect: "manual"` semantics);
 * - `timeoutMs` (default 10 s) bounds the whole exchange, body included; `maxBytes` (default
 *   1 MiB) bounds the body after decompression;
 * - failures look like fetch's: the caller's abort or the time limit rejects with the signal's
 *   reason (a DOMException, `TimeoutError` for the limit); everything else (refused address,
 *   connection error, too large an answer) with `TypeError("fetch failed")` whose `cause` says why;
 * - the answer is a standard `Response`, its body fully read (and decompressed) before it is
 *   returned; one connection per request (no keep-alive pool to reuse a checked socket across
 *   names).
 * Built on node:http(s): Node 20's fetch (undici) does not let a caller replace its DNS lookup.
 */
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import { assertAllowedHost, guardedLookup } from "../webhooks/ssrf";
import { clientSpan, tracingOn } from "../tracing/spans";

export const GUARDED_FETCH_TIMEOUT_MS = 10_000;
export const GUARDED_FETCH_MAX_BYTES = 1024 * 1024;

export type TGuardedFetchInit = RequestInit & { timeoutMs?: number; maxBytes?: number };

/** An answer over the size limit (the cause of the fetch failure). */
export class ResponseTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`the answer of ${url} is larger than ${maxBytes} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

function fetchFailed(cause: unknown): TypeError {
  return new TypeError("fetch failed", { cause });
}

function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * A fetch through the SSRF guard: never follows redirects, bounded in time and size. See the
 * module's rules for how it fails.
 */
export async function guardedFetch(url: string | URL, init: TGuardedFetchInit = {}): Promise<Response> {
  if (!tracingOn()) return fetchGuarded(url, init);
  const target = new URL(url);
  const method = (init.method ?? "GET").toUpperCase();
  // an upstream call of the request's trace: the host and path, never the query (it may carry codes)
  return clientSpan(
    method,
    {
      "http.request.method": method,
      "server.address": target.hostname,
      "server.port": Number(target.port) || (target.protocol === "https:" ? 443 : 80),
      "url.scheme": target.protocol.slice(0, -1),
      "url.path": target.pathname,
    },
    async (span) => {
      const response = await fetchGuarded(url, init);
      span?.setAttribute("http.response.status_code", response.status);
      return response;
    },
  );
}

async function fetchGuarded(url: string | URL, init: TGuardedFetchInit): Promise<Response> {
  const { timeoutMs = GUARDED_FETCH_TIMEOUT_MS, maxBytes = GUARDED_FETCH_MAX_BYTES, ...rest } = init;
  // the Request normalizes the method, the headers and the body (a form's content type included)
  const request = new Request(url, { ...rest, redirect: "manual", signal: null });
  const target = new URL(request.url);
  if (target.protocol !== "https:" && target.protocol !== "http:")
    throw fetchFailed(new Error(`unsupported scheme ${target.protocol}`));
  try {
    assertAllowedHost(target.hostname);
  } catch (err) {
    throw fetchFailed(err);
  }
  const signal = rest.signal
    ? AbortSignal.any([rest.signal, AbortSignal.timeout(timeoutMs)])
    : AbortSignal.timeout(timeoutMs);
  if (signal.aborted) throw signal.reason;
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;

  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers["accept-encoding"] ??= "gzip, deflate, br";
  if (body) headers["content-length"] = String(body.length);

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      outgoing.destroy();
      reject(err);
    };
    const onAbort = () => fail(signal.reason);
    const transport = target.protocol === "https:" ? https : http;
    const outgoing = transport.request(
      {
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ""),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers,
        agent: false,
        lookup: guardedLookup as never,
      },
      (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (status < 200 || status > 599)
          return fail(fetchFailed(new Error(`unexpected HTTP status ${status}`)));
        const decoder = decoderFor(incoming.headers["content-encoding"]);
        const stream = decoder ? incoming.pipe(decoder) : incoming;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return fail(fetchFailed(new ResponseTooLargeError(target.href, maxBytes)));
          chunks.push(chunk);
        });
        stream.on("error", (err) => fail(fetchFailed(err)));
        incoming.on("error", (err) => fail(fetchFailed(err)));
        stream.on("end", () => {
          if (settled) return;
          settled = true;
          signal.removeEventListener("abort", onAbort);
          const responseHeaders = new Headers();
          for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
            const name = incoming.rawHeaders[i]!;
            // the body handed on is decoded: its encoding and length are no longer those sent
            if (decoder && /^content-(encoding|length)$/i.test(name)) continue;
            responseHeaders.append(name, incoming.rawHeaders[i + 1]!);
          }
          const response = new Response(
            NULL_BODY_STATUSES.has(status) || request.method === "HEAD" ? null : Buffer.concat(chunks),
            { status, statusText: incoming.statusMessage ?? "", headers: responseHeaders },
          );
          Object.defineProperty(response, "url", { value: target.href });
          resolve(response);
        });
      },
    );
    outgoing.on("error", (err) => fail(fetchFailed(err)));
    signal.addEventListener("abort", onAbort, { once: true });
    outgoing.end(body);
  });
}

/** A fetch failure in words: the message and its cause's (`fetch failed: connection refused`). */
export function describeFetchError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
  return `${err.message}${cause}`;
}
