/**
 * Rate limits counted in PostgreSQL (rate-limiter-flexible's PostgreSQL store on the
 * `rate_limits` table of our migrations), so they hold across instances.
 * Rules:
 * - a limiter counts failures (`fail`) and answers `check` before the expensive work; a success
 *   may clear its key (`reset`), so a user who finally types the right password starts afresh;
 * - limits are configurable: IDV_SIGNIN_LIMIT_EMAIL and IDV_SIGNIN_LIMIT_IP (failures per
 *   15 minutes; defaults 10 and 100);
 * - a refused request carries the seconds until the window frees a point (Retry-After).
 */
import pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "../http/errors";
import { logger } from "../log";

let pool: pg.Pool | undefined;
let poolUrl: string | undefined;

function storeClient(): pg.Pool {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  if (!pool || poolUrl !== url) {
    pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", (err) => logger.warn({ err }, "rate limit pool error"));
    poolUrl = url;
  }
  return pool;
}

export interface LimitSpec {
  name: string;
  points: number;
  durationSeconds: number;
}

const limiters = new Map<string, RateLimiterPostgres>();

function limiterFor(spec: LimitSpec): RateLimiterPostgres {
  const client = storeClient();
  const id = `${spec.name}:${spec.points}:${spec.durationSeconds}:${poolUrl}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: client,
      tableName: "rate_limits",
      tableCreated: true,
      keyPrefix: spec.name,
      points: spec.points,
      duration: spec.durationSeconds,
      clearExpiredByTimeout: false,
    });
    limiters.set(id, limiter);
  }
  return limiter;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

export function signInLimits(): { email: LimitSpec; ip: LimitSpec } {
  return {
    email: { name: "signin_email", points: positiveInt("IDV_SIGNIN_LIMIT_EMAIL", 10), durationSeconds: 900 },
    ip: { name: "signin_ip", points: positiveInt("IDV_SIGNIN_LIMIT_IP", 100), durationSeconds: 900 },
  };
}

/** Seconds until `key` may try again, or 0 when it is under its limit. */
export async function retryAfter(spec: LimitSpec, key: string): Promise<number> {
  const res = await limiterFor(spec).get(key);
  if (!res || res.consumedPoints < spec.points) return 0;
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/** Counts one failure against `key`. */
export async function fail(spec: LimitSpec, key: string): Promise<void> {
  try {
    await limiterFor(spec).consume(key, 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) return; // already over the limit: nothing more to count
    throw err;
  }
}

export async function reset(spec: LimitSpec, key: string): Promise<void> {
  await limiterFor(spec).delete(key);
}

export function rateLimited(seconds: number, what: string): ApiError {
  logger.warn({ what, retryAfter: seconds }, "rate limited");
  return new ApiError("RATE_LIMITED", `Too many attempts. Try again in ${formatWait(seconds)}`, {
    headers: { "Retry-After": String(seconds) },
  });
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * The client's address: the right-most X-Forwarded-For entry after IDV_TRUST_PROXY_HOPS trusted
 * proxies (default 0: the entry Next.js itself records from the socket when no proxy is in front).
 */
export function clientIp(headers: Headers): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const hops = positiveIntOrZero("IDV_TRUST_PROXY_HOPS");
  return entries[entries.length - 1 - hops] ?? entries[0] ?? "unknown";
}

function positiveIntOrZero(name: string): number {
  const raw = process.env[name];
  if (!raw) return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number`);
  return n;
}
