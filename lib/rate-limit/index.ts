/**
 * Rate limits counted in PostgreSQL (rate-limiter-flexible's PostgreSQL store on the
 * `rate_limits` table of our migrations), so they hold across instances.
 * Rules:
 * - a limiter counts failures (`fail`) and answers `check` before the expensive work; a success
 *   may clear its key (`reset`), so a user who finally types the right password starts afresh;
 * - limits are configurable: IDV_SIGNIN_LIMIT_EMAIL and IDV_SIGNIN_LIMIT_IP (failures per
 *   15 minutes; defaults 10 and 100), through lib/config like every other limit;
 * - a refused request carries the seconds until the window frees a point (Retry-After).
 * Failed checks of API credentials, the token endpoints and /userinfo (./credentials.ts) and
 * the request rates of unauthenticated writes (./requests.ts) count with `take`, which keeps a
 * per-instance memory of the blocks this instance has seen (`knownWait`): a blocked key is
 * refused without a database round trip, and a credential check that succeeds costs none (only
 * failures count). Ended windows are deleted by the `rate_limit_purge` job (./purge.ts).
 */
import pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { config } from "../config";
import { sha256Hex } from "../crypto/hash";
import { ApiError } from "../errors";
import { isSafeText } from "../http/safe-text";
import { logger } from "../log";

let pool: pg.Pool | undefined;
let poolUrl: string | undefined;

function storeClient(): pg.Pool {
  const url = config().databaseUrl;
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

/**
 * The key as stored (rate_limits.key is varchar(255) and PostgreSQL text takes no NUL): keys
 * from request input (an email, a client id, an address) that are long or not storable text are
 * counted under their SHA-256 instead, so they still count and never fail the query.
 */
function storeKey(key: string): string {
  return key.length <= 128 && isSafeText(key) ? key : `sha256:${sha256Hex(key)}`;
}

/**
 * Blocks this instance has seen: limiter key → when the block ends (ms). Filled from the counts
 * PostgreSQL returns, read without any I/O; another instance learns a block at its own first
 * count for that key.
 */
const knownBlocks = new Map<string, number>();
const KNOWN_BLOCKS_MAX = 50_000;

function blockKey(spec: LimitSpec, key: string): string {
  return `${spec.name}:${spec.points}:${spec.durationSeconds}:${key}`;
}

function remember(spec: LimitSpec, key: string, msBeforeNext: number): void {
  const id = blockKey(spec, key);
  const now = Date.now();
  if ((knownBlocks.get(id) ?? 0) <= now) {
    // one line per block and instance, never the key itself (an address or an email)
    logger.warn(
      { limit: spec.name, retryAfter: Math.max(1, Math.ceil(msBeforeNext / 1000)) },
      "rate limit reached",
    );
  }
  if (knownBlocks.size >= KNOWN_BLOCKS_MAX) {
    for (const [k, until] of knownBlocks) if (until <= now) knownBlocks.delete(k);
    if (knownBlocks.size >= KNOWN_BLOCKS_MAX) knownBlocks.clear();
  }
  knownBlocks.set(id, now + msBeforeNext);
}

/** Seconds `key` must still wait as far as this instance knows (no database access), or 0. */
export function knownWait(spec: LimitSpec, key: string): number {
  const id = blockKey(spec, key);
  const until = knownBlocks.get(id);
  if (until === undefined) return 0;
  const ms = until - Date.now();
  if (ms <= 0) {
    knownBlocks.delete(id);
    return 0;
  }
  return Math.ceil(ms / 1000);
}

/**
 * Counts one event (a failed check, or a request) against `key`. Returns 0 while `key` is within
 * its limit, else the seconds until the window frees a point. The count that reaches the limit
 * is still within it, and makes the next event wait without asking the database. A store error
 * is logged and counts as within (the limit fails open; the request's own queries will fail if
 * the database is gone).
 */
export async function take(spec: LimitSpec, key: string): Promise<number> {
  const known = knownWait(spec, key);
  if (known > 0) return known;
  try {
    const res = await limiterFor(spec).consume(storeKey(key), 1);
    if (res.consumedPoints >= spec.points) remember(spec, key, res.msBeforeNext);
    return 0;
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      remember(spec, key, err.msBeforeNext);
      return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    }
    logger.warn({ err, limit: spec.name }, "rate limit store unavailable");
    return 0;
  }
}

export function signInLimits(): { email: LimitSpec; ip: LimitSpec } {
  const { signInEmail, signInIp } = config().limits;
  return {
    email: { name: "signin_email", points: signInEmail, durationSeconds: 900 },
    ip: { name: "signin_ip", points: signInIp, durationSeconds: 900 },
  };
}

/** Seconds until `key` may try again, or 0 when it is under its limit. */
export async function retryAfter(spec: LimitSpec, key: string): Promise<number> {
  const res = await limiterFor(spec).get(storeKey(key));
  if (!res || res.consumedPoints < spec.points) return 0;
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/** Counts one failure against `key`. */
export async function fail(spec: LimitSpec, key: string): Promise<void> {
  try {
    await limiterFor(spec).consume(storeKey(key), 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) return; // already over the limit: nothing more to count
    throw err;
  }
}

export async function reset(spec: LimitSpec, key: string): Promise<void> {
  await limiterFor(spec).delete(storeKey(key));
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
 * proxies (default 0: the peer's address, which the production server appends to every request,
 * server/production.mjs — Next.js alone keeps a client's own X-Forwarded-For as sent).
 */
export function clientIp(headers: Headers): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const hops = config().trustProxyHops;
  return entries[entries.length - 1 - hops] ?? entries[0] ?? "unknown";
}
