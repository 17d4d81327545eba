/**
 * Deployment settings of the token machinery (signing keys, codes, ID tokens) shared by the REST
 * code exchange and the OpenID Provider.
 * Rules: a retired signing key stays published for the longest token lifetime plus the time
 * other instances may keep signing with a cached key, so every token issued still verifies.
 */
import type { TEnvironment } from "../environments";

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Age after which the active signing key is replaced: IDV_KEY_ROTATION_DAYS, default 90. */
export function keyRotationDays(): number {
  return positiveNumber("IDV_KEY_ROTATION_DAYS", 90);
}

/** Default lifetime of an ID token. */
export const ID_TOKEN_TTL_SECONDS = 300;

/**
 * The longest lifetime of any token signed with a signing key (ID tokens and, later, JWT access
 * tokens of the OpenID Provider). Minting refuses longer lifetimes, so retiring a key and keeping
 * it published for this long (plus the cache window) never strands a valid token.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 3600;

/** How long an instance keeps using the active key it loaded before looking for a newer one. */
export const ACTIVE_KEY_CACHE_SECONDS = 60;

/** Default and ceiling of authorization code lifetimes (RFC 6749 §4.1.2: at most 10 minutes). */
export const CODE_TTL_SECONDS = 60;
export const MAX_CODE_TTL_SECONDS = 600;

function publicUrl(): string {
  return (process.env.PUBLIC_URL ?? "http://localhost:3000").replace(/\/+$/, "");
}

/** The environment's OpenID Provider issuer on the service's own host (DESIGN.md §2). */
export function issuerFor(environment: TEnvironment): string {
  return `${publicUrl()}/oidc/${environment}`;
}
