/**
 * Webhook delivery: the `webhook_deliver` and `webhook_sweep` tasks (DESIGN.md §5; spec, Events).
 * Rules:
 * - one worker at a time sends a delivery: it first claims a lease (a conditional UPDATE on
 *   status pending and no live lease), so two workers — or a sweeper re-queue racing the
 *   original job — never send the same attempt;
 * - one job sends ONE attempt: POST of the stored body bytes to the app's current URL, signed
 *   with the app's current secret (X-Service-Signature; none before the first rotation), within
 *   WEBHOOK_TIMEOUT_MS (default 10 s) in total, redirects not followed (3xx is a failure), 2xx
 *   is success; connections pass the SSRF guard (lib/webhooks/ssrf.ts) at connect time;
 * - each attempt keeps what an integrator needs to debug it: the request headers (the signature
 *   is an HMAC, not the secret), the receiver's headers without Set-Cookie and the first 4 KiB of
 *   its body; a body still arriving when the time is up is kept as far as it came and does not
 *   turn a received status into a timeout;
 * - the attempt row, the delivery's new state and the job of the next attempt are written in one
 *   transaction;
 * - automatic attempts: one at once, then one retry after each value of WEBHOOK_RETRY_SCHEDULE
 *   (default 1,5,30 seconds), then the delivery is dead;
 * - a manual redelivery is a single attempt, recorded like any other, never retried; when it
 *   fails, the delivery goes back to what it was — succeeded if an earlier attempt succeeded
 *   (a failed redelivery does not undo a delivery), dead otherwise;
 * - one session's events go out in emission order on first attempts: the first attempt of an
 *   event waits (its job re-queued, no attempt recorded) while an earlier event of the same
 *   verification to the same app has not finished its first attempt; when that one finishes it
 *   wakes the next. Only that chain waits: other sessions and other apps are not held up, and
 *   retries and manual redeliveries neither wait nor hold anyone up;
 * - automatic attempts stop without a request (dead, with the reason) once the app is deleted,
 *   its webhook disabled or its URL cleared; test events and manual redeliveries were asked for
 *   explicitly and go out while the webhook is disabled, but never for a deleted app or without
 *   a URL;
 * - delivery is at-least-once: a worker that dies between sending and recording leaves a pending
 *   delivery whose lease expires; the sweeper (every minute) re-queues it, and re-queues pending
 *   deliveries whose job was lost, so the receiver may see an event twice and dedupes on eventId.
 */
import http from "node:http";
import https from "node:https";
import { decryptSecret } from "../crypto/encryption";
import { getDb, Prisma, type Db, type Tx } from "../db/client";
import type { WebhookDelivery } from "../db/generated/client";
import { deliverWebhookJob, type TDeliverWebhookPayload } from "../jobs/definitions";
import { enqueue } from "../jobs/registry";
import { logger } from "../log";
import { SIGNATURE_HEADER, signPayload } from "./signature";
import {
  assertAllowedHost,
  createGuardedLookup,
  ForbiddenAddressError,
  guardedLookup,
  type TResolve,
} from "./ssrf";

/** Event type of the deliveries made by POST …/webhook-config/test. */
export const TEST_EVENT_TYPE = "webhook.test";

export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [1, 5, 30];
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_SWEEP_GRACE_SECONDS = 60;
/** Longer than the longest attempt (timeout ≤ 20 s) plus the bookkeeping around it. */
export const LEASE_SECONDS = 30;
const MAX_TIMEOUT_MS = 20_000;
const MAX_RETRY_DELAY_SECONDS = 86_400;
const MAX_RETRIES = 20;
const MAX_ERROR_LENGTH = 500;
/** How much of the receiver's answer is kept per attempt. */
export const MAX_RESPONSE_BODY_BYTES = 4096;
const MAX_RESPONSE_HEADERS = 50;
const MAX_HEADER_VALUE_LENGTH = 1000;
const SWEEP_BATCH = 500;
const USER_AGENT = "idv-broker-webhooks/1.0";

export type TDeliveryTrigger = "automatic" | "manual";

// ---------------------------------------------------------------------------------------------
// Deployment settings, read at every use so that a changed environment takes effect; a bad value
// falls back on the default with one warning per value.

const warned = new Set<string>();
function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  logger.warn(message);
}

export interface TParsedSetting<T> {
  value: T;
  /** set when the raw value was refused and the default used */
  warning?: string;
}

/** "1,5,30" → [1, 5, 30]: seconds (fractions allowed) before each retry; empty → the default. */
export function parseRetrySchedule(raw: string | undefined): TParsedSetting<number[]> {
  const fallback = (why: string) => ({
    value: [...DEFAULT_RETRY_SCHEDULE],
    warning: `WEBHOOK_RETRY_SCHEDULE=${JSON.stringify(raw)} ignored (${why}); using ${DEFAULT_RETRY_SCHEDULE.join(",")}`,
  });
  if (raw === undefined || raw.trim() === "") return { value: [...DEFAULT_RETRY_SCHEDULE] };
  const parts = raw.split(",").map((p) => p.trim());
  if (parts.length > MAX_RETRIES) return fallback(`at most ${MAX_RETRIES} retries`);
  const values: number[] = [];
  for (const part of parts) {
    if (!/^\d+(\.\d+)?$/.test(part)) return fallback(`"${part}" is not a number of seconds`);
    const seconds = Number(part);
    if (seconds > MAX_RETRY_DELAY_SECONDS) return fallback(`${part} s is more than a day`);
    values.push(seconds);
  }
  return { value: values };
}

function parseBoundedNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): TParsedSetting<number> {
  if (raw === undefined || raw.trim() === "") return { value: fallback };
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value < min || value > max)
    return {
      value: fallback,
      warning: `${name}=${JSON.stringify(raw)} ignored (must be between ${min} and ${max}); using ${fallback}`,
    };
  return { value };
}

/** WEBHOOK_TIMEOUT_MS: total time of one attempt, 1–20000 ms (default 10000, the spec's 10 s). */
export function parseTimeoutMs(raw: string | undefined): TParsedSetting<number> {
  return parseBoundedNumber("WEBHOOK_TIMEOUT_MS", raw, DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS);
}

/** WEBHOOK_SWEEP_GRACE_SECONDS: how late a pending attempt may be before the sweeper re-queues it. */
export function parseSweepGraceSeconds(raw: string | undefined): TParsedSetting<number> {
  return parseBoundedNumber("WEBHOOK_SWEEP_GRACE_SECONDS", raw, DEFAULT_SWEEP_GRACE_SECONDS, 0, 86_400);
}

function setting<T>(name: string, parse: (raw: string | undefined) => TParsedSetting<T>): T {
  const raw = process.env[name];
  const parsed = parse(raw);
  if (parsed.warning) warnOnce(`${name}=${raw}`, parsed.warning);
  return parsed.value;
}

export const retrySchedule = () => setting("WEBHOOK_RETRY_SCHEDULE", parseRetrySchedule);
export const attemptTimeoutMs = () => setting("WEBHOOK_TIMEOUT_MS", parseTimeoutMs);
export const sweepGraceSeconds = () => setting("WEBHOOK_SWEEP_GRACE_SECONDS", parseSweepGraceSeconds);

// ---------------------------------------------------------------------------------------------
// One HTTP attempt

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

function clip(text: string, max = MAX_ERROR_LENGTH): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
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

/** Shown when the URL's host is an IP literal in a forbidden range. */
export const DESTINATION_NOT_ALLOWED =
  "destination not allowed: private, loopback, link-local and reserved addresses are refused";
/**
 * Shown when a host name did not resolve, or resolved to a forbidden address: one message for
 * both, so that a tenant cannot probe which internal names exist.
 */
export const HOST_NOT_ALLOWED =
  "host not found or not allowed: the host name must resolve to public addresses only";

const CONNECTION_ERRORS: Record<string, string> = {
  ENOTFOUND: HOST_NOT_ALLOWED,
  ENODATA: HOST_NOT_ALLOWED,
  EAI_NONAME: HOST_NOT_ALLOWED,
  EAI_AGAIN: "host name lookup failed temporarily",
  EAI_FAIL: "host name lookup failed temporarily",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection closed by the receiver before it answered",
  EPIPE: "connection closed by the receiver before it answered",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "host unreachable",
  EHOSTDOWN: "host unreachable",
  ENETDOWN: "host unreachable",
  CERT_HAS_EXPIRED: "TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate does not match the host name",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate could not be verified",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS certificate could not be verified",
};

/**
 * What a tenant is told about a request that got no answer: a fixed text per error code, never
 * the error's own message (Node's messages name the address a host resolved to, e.g. "connect
 * ECONNREFUSED 10.0.0.5:443"). The server log keeps the detail.
 */
function tenantConnectionError(err: unknown, target: URL): string {
  const first = err instanceof AggregateError && err.errors.length > 0 ? (err.errors[0] as unknown) : err;
  const code = (first as NodeJS.ErrnoException | undefined)?.code;
  logger.warn(
    {
      host: target.host,
      code,
      err: first instanceof Error ? first.message : String(first),
      ...(first instanceof ForbiddenAddressError ? { address: first.address } : {}),
    },
    "webhook attempt got no answer",
  );
  if (first instanceof ForbiddenAddressError)
    return first.hostname ? HOST_NOT_ALLOWED : DESTINATION_NOT_ALLOWED;
  if (code && code in CONNECTION_ERRORS) return CONNECTION_ERRORS[code]!;
  if (code && /^(ERR_TLS_|ERR_SSL_|CERT_)/.test(code)) return `TLS handshake failed (${code})`;
  if (code && /^[A-Z0-9_]{1,40}$/.test(code)) return `connection failed (${code})`;
  return "connection failed";
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
  timeoutMs: number = attemptTimeoutMs(),
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
    const request = transport.request(
      {
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ""),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: "POST",
        headers: requestHeaders,
        // a fresh connection per attempt: a pooled socket would skip the guarded lookup
        agent: false,
        lookup: (options.resolve ? createGuardedLookup(options.resolve) : guardedLookup) as never,
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
    request.on("error", (err) =>
      answer ? finishAnswered() : finish(null, tenantConnectionError(err, target)),
    );
    request.end(body, "utf8");
  });
}

// ---------------------------------------------------------------------------------------------
// Claim, send, record

/**
 * Takes the lease of a pending delivery; undefined when it is not pending or another worker
 * holds a live lease. PostgreSQL re-checks the WHERE clause on the row it locks, so of two
 * concurrent claims exactly one wins.
 */
export async function claimDelivery(
  db: Tx,
  deliveryId: string,
  now = new Date(),
): Promise<WebhookDelivery | undefined> {
  const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000);
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, status: "pending", OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil },
  });
  if (count === 0) return undefined;
  return (await db.webhookDelivery.findUnique({ where: { id: deliveryId } })) ?? undefined;
}

export interface TDeliverOutcome {
  /**
   * skipped: not claimed (not pending, or another worker is on it); waiting: an earlier event of
   * the session has not finished its first attempt, the job comes back later; failed: a manual
   * attempt failed and the delivery stays succeeded from an earlier attempt
   */
  outcome: "skipped" | "waiting" | "succeeded" | "failed" | "retrying" | "dead";
  attempt?: TAttemptResult;
  nextAttemptAt?: Date;
}

/** Why an attempt must not be made, or undefined when it may. */
function refusalReason(
  app: { deletedAt: Date | null; webhookEnabled: boolean; webhookUrl: string | null } | null,
  explicit: boolean,
): string | undefined {
  if (!app || app.deletedAt) return "the app was deleted; delivery abandoned";
  if (!app.webhookUrl) return "the app has no webhook URL; delivery abandoned";
  if (!app.webhookEnabled && !explicit) return "the app's webhook is disabled; delivery abandoned";
  return undefined;
}

/** How long a first attempt waiting for an earlier event of its session sleeps between checks. */
export const ORDER_RECHECK_MS = 1000;

/** A delivery's place among the deliveries of its verification's events to its app. */
interface TChainPosition {
  appId: string;
  verificationId: string;
  /** the event's emission order (verification_events.seq) */
  seq: bigint;
}

async function chainPosition(db: Tx, delivery: WebhookDelivery): Promise<TChainPosition | undefined> {
  if (!delivery.eventId) return undefined; // test events stand alone
  const event = await db.verificationEvent.findUnique({
    where: { id: delivery.eventId },
    select: { verificationId: true, seq: true },
  });
  return event ? { appId: delivery.appId, verificationId: event.verificationId, seq: event.seq } : undefined;
}

/** Deliveries of the same chain whose first attempt has not finished, before or after `chain`. */
function unfinishedInChain(chain: TChainPosition, side: "before" | "after") {
  return {
    appId: chain.appId,
    status: "pending",
    attemptCount: 0,
    event: {
      verificationId: chain.verificationId,
      seq: side === "before" ? { lt: chain.seq } : { gt: chain.seq },
    },
  };
}

/** Queues the next delivery of the chain now, once this one's first attempt has finished. */
async function wakeNextInChain(db: Tx, chain: TChainPosition | undefined): Promise<void> {
  if (!chain) return;
  const next = await db.webhookDelivery.findFirst({
    where: unfinishedInChain(chain, "after"),
    orderBy: { event: { seq: "asc" } },
    select: { id: true },
  });
  // unkeyed, like the in-order wait below: a keyed job could replace or detach another's
  if (next)
    await enqueue(db, deliverWebhookJob, { deliveryId: next.id, trigger: "automatic" }, { keyed: false });
}

/** Sends one attempt of a delivery and records it (the body of the `webhook_deliver` task). */
export async function deliverWebhook(
  db: Db,
  deliveryId: string,
  { trigger = "automatic" }: { trigger?: TDeliveryTrigger } = {},
): Promise<TDeliverOutcome> {
  const delivery = await claimDelivery(db, deliveryId);
  if (!delivery) return { outcome: "skipped" };
  const app = await db.app.findUnique({
    where: { id: delivery.appId },
    select: { deletedAt: true, webhookEnabled: true, webhookUrl: true, webhookSecretEncrypted: true },
  });

  // only a first automatic attempt takes part in the session's order
  const chain =
    trigger === "automatic" && delivery.attemptCount === 0 ? await chainPosition(db, delivery) : undefined;

  const refusal = refusalReason(app, trigger === "manual" || delivery.eventType === TEST_EVENT_TYPE);
  if (refusal || !app?.webhookUrl) {
    await db.$transaction(async (tx) => {
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id: delivery.id, leaseUntil: delivery.leaseUntil },
        data: { status: "dead", lastError: refusal, nextAttemptAt: null, leaseUntil: null },
      });
      if (count > 0) await wakeNextInChain(tx, chain);
    });
    return { outcome: "dead" };
  }
  const url = app.webhookUrl;

  if (chain && (await db.webhookDelivery.findFirst({ where: unfinishedInChain(chain, "before") }))) {
    // an earlier event of the session is still on its first attempt: it wakes this one when it
    // finishes; the re-check is the fallback should that wake-up be lost
    const runAt = new Date(Date.now() + ORDER_RECHECK_MS);
    await db.$transaction(async (tx) => {
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id: delivery.id, leaseUntil: delivery.leaseUntil },
        data: { nextAttemptAt: runAt, leaseUntil: null },
      });
      if (count > 0)
        await enqueue(
          tx,
          deliverWebhookJob,
          { deliveryId: delivery.id, trigger: "automatic" },
          // no job key: a keyed job may be replaced or detached by a concurrent wake-up, and an
          // extra job is harmless (it finds the lease taken or the attempt made, and stops)
          { runAt, keyed: false },
        );
    });
    return { outcome: "waiting" };
  }

  const attemptNumber = delivery.attemptCount + 1;
  let attempt: TAttemptResult;
  let secret: string | undefined;
  try {
    secret = app.webhookSecretEncrypted ? decryptSecret(app.webhookSecretEncrypted) : undefined;
  } catch {
    secret = undefined;
  }
  if (app.webhookSecretEncrypted && secret === undefined) {
    // never downgrade a signed webhook to an unsigned one
    attempt = {
      startedAt: new Date(),
      durationMs: 0,
      responseStatus: null,
      error: "the signing secret could not be decrypted (IDV_MASTER_KEY changed?); not sent",
      success: false,
      requestHeaders: null,
      responseHeaders: null,
      responseBody: null,
      responseBodyTruncated: false,
    };
  } else {
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "X-Service-Event": delivery.eventType,
      "X-Service-Delivery": delivery.id,
      "X-Service-Attempt": String(attemptNumber),
    };
    if (secret) headers[SIGNATURE_HEADER] = signPayload(secret, delivery.body);
    attempt = await sendWebhookRequest(url, delivery.body, headers);
  }

  return db.$transaction(async (tx) => {
    await tx.webhookDeliveryAttempt.create({
      data: {
        deliveryId: delivery.id,
        attemptNumber,
        trigger,
        startedAt: attempt.startedAt,
        durationMs: attempt.durationMs,
        responseStatus: attempt.responseStatus,
        error: attempt.error,
        success: attempt.success,
        requestHeaders: attempt.requestHeaders ?? Prisma.DbNull,
        responseHeaders: attempt.responseHeaders ?? Prisma.DbNull,
        responseBody: attempt.responseBody,
        responseBodyTruncated: attempt.responseBodyTruncated,
      },
    });
    let outcome: TDeliverOutcome["outcome"] = attempt.success ? "succeeded" : "dead";
    // a failed redelivery does not undo an earlier success
    if (!attempt.success && trigger === "manual" && delivery.deliveredAt) outcome = "failed";
    let nextAttemptAt: Date | undefined;
    if (!attempt.success && trigger === "automatic") {
      const schedule = retrySchedule();
      const automatic = await tx.webhookDeliveryAttempt.count({
        where: { deliveryId: delivery.id, trigger: "automatic" },
      });
      const delay = schedule[automatic - 1];
      if (delay !== undefined) {
        outcome = "retrying";
        nextAttemptAt = new Date(Date.now() + Math.round(delay * 1000));
      }
    }
    const { count } = await tx.webhookDelivery.updateMany({
      // only while our lease stands: after a lost lease another worker owns the delivery
      where: { id: delivery.id, leaseUntil: delivery.leaseUntil },
      data: {
        status: outcome === "retrying" ? "pending" : outcome === "failed" ? "succeeded" : outcome,
        attemptCount: attemptNumber,
        lastStatus: attempt.responseStatus,
        lastError: attempt.error,
        url,
        nextAttemptAt: nextAttemptAt ?? null,
        leaseUntil: null,
        ...(attempt.success ? { deliveredAt: attempt.startedAt } : {}),
      },
    });
    if (count === 0) {
      logger.warn({ deliveryId: delivery.id }, "webhook delivery lease lost; attempt logged only");
      return { outcome: "skipped", attempt };
    }
    await wakeNextInChain(tx, chain);
    if (nextAttemptAt) {
      await enqueue(
        tx,
        deliverWebhookJob,
        { deliveryId: delivery.id, trigger: "automatic" },
        { runAt: nextAttemptAt },
      );
    }
    return { outcome, attempt, nextAttemptAt };
  });
}

/** Queues the next attempt of a delivery now (manual redelivery, sweeper). Call in a transaction. */
export async function queueDeliveryAttempt(
  db: Tx,
  deliveryId: string,
  trigger: TDeliveryTrigger,
): Promise<void> {
  await enqueue(db, deliverWebhookJob, { deliveryId, trigger });
}

/** The `webhook_deliver` job (lib/jobs/definitions.ts). */
export async function deliverWebhookTask({ deliveryId, trigger }: TDeliverWebhookPayload): Promise<void> {
  await deliverWebhook(getDb(), deliveryId, { trigger });
}

// ---------------------------------------------------------------------------------------------
// Sweeper

/**
 * Re-queues pending deliveries whose worker died (lease expired) or whose job went missing (next
 * attempt overdue by more than the grace period and nobody holds it). The job key replaces a
 * still-queued job instead of adding a second one, and the lease makes a duplicate job harmless.
 * Returns the ids re-queued.
 */
export async function sweepWebhookDeliveries(db: Tx, now = new Date()): Promise<string[]> {
  const overdue = new Date(now.getTime() - sweepGraceSeconds() * 1000);
  const stuck = await db.webhookDelivery.findMany({
    where: {
      status: "pending",
      OR: [
        { leaseUntil: { lt: now } },
        { leaseUntil: null, nextAttemptAt: { lt: overdue } },
        { leaseUntil: null, nextAttemptAt: null, updatedAt: { lt: overdue } },
      ],
    },
    select: { id: true, deliveredAt: true, attempts: { select: { trigger: true } } },
    orderBy: { nextAttemptAt: "asc" },
    take: SWEEP_BATCH,
  });
  if (stuck.length === 0) return [];
  const retries = retrySchedule().length;
  // one add_job per delivery, each atomic on its own: no transaction needed (nor possible on a Tx)
  for (const d of stuck) {
    // the job payload that carried the trigger is gone: a pending delivery with its automatic
    // attempts used up, or already delivered, or redelivered before, is a manual redelivery
    const automatic = d.attempts.filter((a) => a.trigger === "automatic").length;
    const manual =
      d.deliveredAt !== null || d.attempts.some((a) => a.trigger === "manual") || automatic > retries;
    await queueDeliveryAttempt(db, d.id, manual ? "manual" : "automatic");
  }
  logger.warn({ deliveryIds: stuck.map((d) => d.id) }, "webhook deliveries re-queued by the sweeper");
  return stuck.map((d) => d.id);
}

export async function sweepWebhookDeliveriesTask(): Promise<void> {
  await sweepWebhookDeliveries(getDb());
}
