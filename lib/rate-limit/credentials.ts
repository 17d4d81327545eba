/**
 * Limits of failed credential checks: App API Basic credentials, workspace API keys, operator
 * keys, client authentication at both /token endpoints and access tokens at /userinfo.
 * Rules:
 * - only failures count, per source address (IDV_CREDENTIAL_LIMIT_IP per 15 minutes, default
 *   300, every kind of credential together) and per client id (IDV_CREDENTIAL_LIMIT_CLIENT per
 *   15 minutes, default 30; App credentials and client authentication, whose client id is
 *   public); a request without credentials is not a failed check and counts nothing;
 * - an address over its limit is refused everything that needs a credential, the right one
 *   included, until its window frees a point; the check reads this instance's memory of blocks,
 *   so a successful request costs no database round trip (an instance that has not seen the
 *   block yet learns it from PostgreSQL at the address's next failure there);
 * - a client id over its limit has its further failures refused with 429 instead of 401, but
 *   its right secret still works: anyone can name a client id, so the client id's own limit must
 *   not let a stranger lock the app out;
 * - workspace and operator keys, and access tokens, carry no public identifier: a presented key
 *   is its own secret, so they are limited by address only.
 */
import { ApiError } from "../errors";
import { config } from "../config";
import { formatWait, knownWait, take, type LimitSpec } from "./index";

const WINDOW_SECONDS = 900;

export function credentialLimits(): { ip: LimitSpec; client: LimitSpec } {
  return {
    ip: {
      name: "credential_ip",
      points: config().limits.credentialIp,
      durationSeconds: WINDOW_SECONDS,
    },
    client: {
      name: "credential_client",
      points: config().limits.credentialClient,
      durationSeconds: WINDOW_SECONDS,
    },
  };
}

export function tooManyFailures(seconds: number): string {
  return `Too many failed authentication attempts. Try again in ${formatWait(seconds)}`;
}

export function credentialRateLimited(seconds: number): ApiError {
  return new ApiError("RATE_LIMITED", tooManyFailures(seconds), {
    headers: { "Retry-After": String(seconds) },
  });
}

/** Seconds the address must wait before any credential check, from memory only; 0 when free. */
export function addressBlocked(ip: string): number {
  return knownWait(credentialLimits().ip, ip);
}

/** Counts one failed check of `ip` (and `clientId`); the seconds to wait when over a limit, else 0. */
export async function countCredentialFailure(ip: string, clientId?: string): Promise<number> {
  const limits = credentialLimits();
  const [byIp, byClient] = await Promise.all([
    take(limits.ip, ip),
    clientId === undefined ? 0 : take(limits.client, clientId),
  ]);
  return Math.max(byIp, byClient);
}

/**
 * Runs a credential check under the limits: refused from memory when the address is blocked;
 * a 401 of a presented credential is counted and becomes 429 RATE_LIMITED over a limit.
 * `ip` null (the CLI, unit tests): no limits.
 */
export async function limitCredentialCheck<T>(
  ip: string | null,
  presented: boolean,
  check: () => Promise<T>,
  clientId?: string,
): Promise<T> {
  if (ip === null) return check();
  const blocked = addressBlocked(ip);
  if (blocked > 0) throw credentialRateLimited(blocked);
  try {
    return await check();
  } catch (err) {
    if (presented && err instanceof ApiError && err.status === 401) {
      const wait = await countCredentialFailure(ip, clientId);
      if (wait > 0) throw credentialRateLimited(wait);
    }
    throw err;
  }
}
