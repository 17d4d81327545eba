/**
 * One HTTP attempt of a webhook delivery: POST of the body to the URL, once.
 * Rules:
 * - within the timeout (WEBHOOK_TIMEOUT_MS, default 10 s) in total; redirects are not followed
 *   (3xx is a failure), 2xx is success;
 * - connections pass the SSRF guard (ssrf.ts) at connect time: IP literals are checked before,
 *   host names at every address of the DNS answer. Connections are kept alive and reused per
 *   origin (so a burst of events to one receiver costs one handshake, not one per attempt): a
 *   reused connection is one that passed the guard when it was opened, under the same
 *   WEBHOOK_ALLOW_PRIVATE_NETWORKS setting (one pool per setting), and goes to the address it was
 *   opened to; a request that finds its reused connection already closed by the receiver is sent
 *   once more on a new one, within the same attempt and timeout;
 * - it keeps what an integrator needs to debug it: the request headers (the signature is an
 *   HMAC, not the secret), the receiver's headers without Set-Cookie and the first 4 KiB of its
 *   body; a body still arriving when the time is up is kept as far as it came and does not turn a
 *   received status into a timeout;
 * - failures are worded for the tenant (dispatch/errors.ts), never with resolved addresses.
 */
import http from "node:http";
import https from "node:https";
import { clip, tenantConnectionError } from "./errors";
import { config } from "../../config";
import {
  assertAllowedHost,
  createGuardedLookup,
  guardedLookup,
  privateNetworksAllowed,
  type TResolve,
} from "../ssrf";

/** How much of the receiver's answer is kept per attempt. */
export const MAX_RESPONSE_BODY_BYTES = 4096;
const MAX_RESPONSE_HEADERS = 50;
const MAX_HEADER_VALUE_LENGTH = 1000;
/** How long an idle kept-alive connection stays open (receivers commonly close theirs after 5 s). */
const IDLE_CONNECTION_MS = 4000;
/** What a request on a reused connection the receiver had just closed fails with. */
const STALE_CONNECTION = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

// one pool of kept-alive connections per scheme and WEBHOOK_ALLOW_PRIVATE_NETWORKS setting: a
// connection opened while private networks were allowed is never reused once they are not
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string): http.Agent {
  const key = `${protocol}${privateNetworksAllowed() ? " private" : ""}`;
  let agent = agents.get(key);
  if (!agent) {
    const settings = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: "lifo" } as const;
    agent = protocol === "https:" ? new https.Agent(settings) : new http.Agent(settings);
    agents.set(key, agent);
  }
  return agent;
}

export interface TAttemptResult {
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  success: boolean;
  /** the headers sent (Content-Length included); null when no request was prepared */
  requestHeaders: Record<string, string> | null;
  /** the receiver's headers (lowercase names, Set-Cookie left out); null without a response */
  responseHeaders: Record<string, string> | null;
  /** the start of the receiver's body (UTF-8); null without a response */
  responseBody: string | null;
  responseBodyTruncated: boolean;
}

/** The receiver's headers as kept: repeated names joined, Set-Cookie left out, bounded in size. */
function keptResponseHeaders(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    // a receiver's session cookies are none of our business
    if (name === "set-cookie") continue;
    if (!(name in headers) && Object.keys(headers).length >= MAX_RESPONSE_HEADERS) continue;
    const value = name in headers ? `${headers[name]}, ${raw[i + 1]}` : raw[i + 1]!;
    headers[name] = clip(value, MAX_HEADER_VALUE_LENGTH);
  }
  return headers;
}

/** Bytes as text: invalid UTF-8 (and a character cut by the limit) shown as U+FFFD, no NUL. */
function bodyText(chunks: Buffer[]): string {
  // PostgreSQL text cannot hold NUL
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks)).replaceAll("\u0000", "\uFFFD");
}

/**
 * POSTs `body` to `url` once. Never throws: every failure (refused address, DNS, connection,
 * TLS, timeout, non-2xx status) comes back as an unsuccessful result with the reason, worded for
 * the tenant (no resolved addresses). node:http rather than fetch, because the SSRF guard needs
 * the `lookup` hook and fetch would follow redirects on its own. `resolve` replaces the system
 * resolver behind the guard (tests).
 */
export function sendWebhookRequest(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number = config().webhookTimeoutMs,
  options: { resolve?: TResolve } = {},
): Promise<TAttemptResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  const requestHeaders = { ...headers, "Content-Length": String(Buffer.byteLength(body, "utf8")) };
  const result = (
    responseStatus: number | null,
    error: string | null,
    answer?: { headers: Record<string, string>; body: string; truncated: boolean },
  ): TAttemptResult => ({
    startedAt,
    durationMs: Math.max(0, Math.round(performance.now() - t0)),
    responseStatus,
    error: error === null ? null : clip(error),
    success: error === null,
    requestHeaders,
    responseHeaders: answer?.headers ?? null,
    responseBody: answer?.body ?? null,
    responseBodyTruncated: answer?.truncated ?? false,
  });

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(result(null, "invalid webhook URL"));
  }
  if (target.protocol !== "https:" && target.protocol !== "http:")
    return Promise.resolve(result(null, `unsupported URL scheme ${target.protocol}`));
  try {
    // IP literals skip DNS, so the lookup hook never sees them
    assertAllowedHost(target.hostname);
  } catch (err) {
    return Promise.resolve(result(null, tenantConnectionError(err, target)));
  }

  const transport = target.protocol === "https:" ? https : http;
  // tests hand in their own resolver: their connections are never pooled (a pool is per name)
  const agent = options.resolve ? false : agentFor(target.protocol);
  const lookup = options.resolve ? createGuardedLookup(options.resolve) : guardedLookup;
  return new Promise((resolve) => {
    let settled = false;
    // set once the status line and headers arrived: from then on the outcome is the status's
    let answer:
      | { status: number; location?: string; headers: Record<string, string>; chunks: Buffer[]; size: number }
      | undefined;
    let truncated = false;
    const finish = (responseStatus: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(
        result(
          responseStatus,
          error,
          answer && { headers: answer.headers, body: bodyText(answer.chunks), truncated },
        ),
      );
    };
    const finishAnswered = () => {
      if (!answer) return;
      const { status, location } = answer;
      if (status >= 200 && status < 300) return finish(status, null);
      if (status >= 300 && status < 400)
        return finish(status, `redirect (HTTP ${status}${location ? ` to ${location}` : ""}) not followed`);
      finish(status, `receiver answered HTTP ${status}`);
    };
    const timer = setTimeout(() => {
      if (answer) finishAnswered();
      else finish(null, `timed out after ${timeoutMs} ms`);
      request.destroy();
    }, timeoutMs);
    const send = (fresh: boolean): http.ClientRequest => {
      const sent = transport.request(
        {
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[|\]$/g, ""),
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method: "POST",
          headers: requestHeaders,
          agent: fresh ? false : agent,
          // new connections only: a pooled one passed it when it was opened
          lookup: lookup as never,
        },
        (response) => {
          const current = {
            status: response.statusCode ?? 0,
            location: response.headers.location,
            headers: keptResponseHeaders(response.rawHeaders),
            chunks: [] as Buffer[],
            size: 0,
          };
          answer = current;
          // the start of the body only: what is beyond the limit is not read
          response.on("data", (chunk: Buffer) => {
            if (settled) return;
            const room = MAX_RESPONSE_BODY_BYTES - current.size;
            if (chunk.length > room) {
              current.chunks.push(chunk.subarray(0, room));
              current.size = MAX_RESPONSE_BODY_BYTES;
              truncated = true;
              finishAnswered();
              response.destroy();
              return;
            }
            current.chunks.push(chunk);
            current.size += chunk.length;
          });
          response.on("end", finishAnswered);
          // a connection closed in the middle of the body: the status stands
          response.on("error", finishAnswered);
          response.on("close", finishAnswered);
        },
      );
      sent.on("error", (err: NodeJS.ErrnoException) => {
        if (answer) return finishAnswered();
        // the receiver closed an idle pooled connection as we reused it: once more, on a new one
        if (!fresh && !settled && sent.reusedSocket && STALE_CONNECTION.has(err.code ?? "")) {
          request = send(true);
          return;
        }
        finish(null, tenantConnectionError(err, target));
      });
      sent.end(body, "utf8");
      return sent;
    };
    let request = send(false);
  });
}
