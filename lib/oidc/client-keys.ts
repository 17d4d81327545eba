/**
 * The public keys of an OpenID Provider client (its app's `jwks` or `jwksUri`), for everything
 * the client signs: client assertions (private_key_jwt), request objects (JAR).
 * Rules:
 * - `jwks` (a JWK Set stored on the app) is used as it is read with the app: a change applies to
 *   the next request on every instance;
 * - `jwksUri` is fetched through the SSRF guard (lib/http/guarded-fetch.ts: no redirects, 5 s,
 *   256 KiB), cached per instance for JWKS_CACHE_MAX_AGE_MS, and fetched again when a JWT names a
 *   `kid` the cached set lacks (at most once per JWKS_COOLDOWN_MS: a flood of unknown kids cannot
 *   make us hammer the client's server); a changed URI is a new cache entry;
 * - an app with neither has no keys: every signed JWT of it is refused.
 */
import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import { guardedFetch } from "../http/guarded-fetch";

export const JWKS_CACHE_MAX_AGE_MS = 5 * 60 * 1000;
export const JWKS_COOLDOWN_MS = 30 * 1000;
export const JWKS_FETCH_TIMEOUT_MS = 5000;
export const JWKS_MAX_BYTES = 256 * 1024;

export interface TClientKeySource {
  /** the app's id (client_id) */
  id: string;
  jwks: unknown;
  jwksUri: string | null;
}

const remoteSets = new Map<string, JWTVerifyGetKey>();
/** entries beyond this are dropped oldest first (one per app with a jwksUri, normally) */
const MAX_REMOTE_SETS = 1000;

function remoteSet(appId: string, uri: string): JWTVerifyGetKey {
  const cacheKey = `${appId} ${uri}`;
  let set = remoteSets.get(cacheKey);
  if (!set) {
    set = createRemoteJWKSet(new URL(uri), {
      cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
      cooldownDuration: JWKS_COOLDOWN_MS,
      timeoutDuration: JWKS_FETCH_TIMEOUT_MS,
      [customFetch]: (url: string, options: RequestInit) =>
        guardedFetch(url, { ...options, timeoutMs: JWKS_FETCH_TIMEOUT_MS, maxBytes: JWKS_MAX_BYTES }),
    });
    if (remoteSets.size >= MAX_REMOTE_SETS) remoteSets.delete(remoteSets.keys().next().value!);
    remoteSets.set(cacheKey, set);
  }
  return set;
}

/**
 * The key resolver for JWTs the client signed (jose's jwtVerify second argument), or undefined
 * when the app registered no keys.
 */
export function clientKeys(app: TClientKeySource): JWTVerifyGetKey | undefined {
  if (app.jwksUri) return remoteSet(app.id, app.jwksUri);
  const jwks = app.jwks as { keys?: unknown } | null;
  if (jwks && typeof jwks === "object" && Array.isArray(jwks.keys)) {
    return createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]);
  }
  return undefined;
}

/** Forgets the cached sets (tests). */
export function clearClientKeyCache(): void {
  remoteSets.clear();
}
