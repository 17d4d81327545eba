/**
 * Deployment settings of the token machinery (signing keys, codes, ID tokens) shared by the REST
 * code exchange and the OpenID Provider.
 * Rules: a retired signing key stays published for the longest token lifetime plus the time
 * other instances may keep signing with a cached key, so every token issued still verifies.
 */
import { config } from "../config";
import type { TEnvironment } from "../environments";

/** Age after which the active signing key is replaced: IDV_KEY_ROTATION_DAYS, default 90. */
export function keyRotationDays(): number {
  return config().keyRotationDays;
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

/** The environment's OpenID Provider issuer on the service's own host (docs/design.md §2). */
export function issuerFor(environment: TEnvironment): string {
  return `${config().publicUrl}/oidc/${environment}`;
}
