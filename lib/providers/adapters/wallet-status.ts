/**
 * Revocation of wallet credentials: the Token Status List (draft-ietf-oauth-status-list) a
 * credential points to with `status.status_list {idx, uri}`, read through @sd-jwt/jwt-status-list
 * when @sd-jwt/sd-jwt-vc verifies the presentation (wallet.ts).
 * Rules:
 * - the Status List Token is fetched from `uri` through the SSRF guard (guardedFetch: 5 s, at most
 *   1 MiB, no redirects), and must be a JWT of typ statuslist+jwt signed (ES256, ES384 or EdDSA)
 *   by a key of the SAME trusted issuer as the credential, whose `sub` is the uri, within its
 *   exp (same clock tolerance as the credential);
 * - a verified token is cached per instance (process) and per issuer + uri until its exp, its
 *   `ttl`, or STATUS_LIST_CACHE_SECONDS, whichever comes first; the cache is bounded;
 * - status 0 is valid, 1 revoked (credential_revoked), 2 suspended (credential_suspended),
 *   anything else, or an index outside the list, fails as invalid_presentation;
 * - fail closed: a status list that cannot be fetched or does not verify fails the presentation
 *   (invalid_presentation): a credential whose revocation cannot be checked is not accepted.
 */
import { SLException } from "@sd-jwt/jwt-status-list";
import { compactVerify, createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { guardedFetch } from "../../http/guarded-fetch";

export const WALLET_ALGORITHMS = ["ES256", "ES384", "EdDSA"];
export const CLOCK_TOLERANCE_SECONDS = 60;
export const STATUS_LIST_TIMEOUT_MS = 5_000;
export const STATUS_LIST_MAX_BYTES = 1024 * 1024;
/** the longest a verified Status List Token is reused */
export const STATUS_LIST_CACHE_SECONDS = 300;
const STATUS_LIST_CACHE_ENTRIES = 256;

/** A check of the presentation failed: the session's failure reason and a message without claim values. */
export class PresentationError extends Error {
  constructor(
    message: string,
    readonly reason:
      | "invalid_presentation"
      | "credential_revoked"
      | "credential_suspended"
      | "credential_expired"
      | "credential_not_yet_valid" = "invalid_presentation",
  ) {
    super(message);
    this.name = "PresentationError";
  }
}

/** A verifier callback for @sd-jwt (data = "header.payload", sig): the signature only, by a key of `jwks`. */
export function jwksSignatureVerifier(jwks: JSONWebKeySet, failure: string) {
  const keys = createLocalJWKSet(jwks);
  return async (data: string, sig: string): Promise<boolean> => {
    try {
      await compactVerify(`${data}.${sig}`, keys, { algorithms: WALLET_ALGORITHMS });
      return true;
    } catch {
      throw new PresentationError(failure);
    }
  };
}

const cache = new Map<string, { token: string; until: number }>();

/** Forgets every cached Status List Token (tests). */
export function clearStatusListCache(): void {
  cache.clear();
}

async function fetchStatusListToken(uri: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new PresentationError("the credential's status list uri is not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new PresentationError("the credential's status list uri is not an http(s) URL");
  }
  let res: Response;
  try {
    res = await guardedFetch(url, {
      headers: { accept: "application/statuslist+jwt" },
      timeoutMs: STATUS_LIST_TIMEOUT_MS,
      maxBytes: STATUS_LIST_MAX_BYTES,
    });
  } catch {
    throw new PresentationError("the credential's status list could not be fetched (fail closed)");
  }
  if (!res.ok) {
    throw new PresentationError(
      `the credential's status list could not be fetched (HTTP ${res.status}; fail closed)`,
    );
  }
  return (await res.text()).trim();
}

/**
 * The `statusListFetcher` for @sd-jwt/sd-jwt-vc: the Status List Token at `uri`, verified against
 * the credential issuer's keys, from the cache when still fresh.
 */
export function statusListFetcher(iss: string, jwks: JSONWebKeySet, now: Date) {
  return async (uri: string): Promise<string> => {
    const key = `${iss}\n${uri}`;
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const cached = cache.get(key);
    if (cached && cached.until > nowSeconds) return cached.token;
    cache.delete(key);
    const token = await fetchStatusListToken(uri);
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
        algorithms: WALLET_ALGORITHMS,
        typ: "statuslist+jwt",
        subject: uri,
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch {
      throw new PresentationError(
        "the credential's status list does not verify (issuer key, typ, sub or exp; fail closed)",
      );
    }
    const ttl = typeof payload.ttl === "number" && payload.ttl > 0 ? payload.ttl : STATUS_LIST_CACHE_SECONDS;
    const exp = typeof payload.exp === "number" ? payload.exp : Number.POSITIVE_INFINITY;
    const until = Math.min(nowSeconds + Math.min(ttl, STATUS_LIST_CACHE_SECONDS), exp);
    if (cache.size >= STATUS_LIST_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, { token, until });
    return token;
  };
}

/** The `statusValidator` for @sd-jwt/sd-jwt-vc: the status read at the credential's idx. */
export async function statusValidator(status: number): Promise<void> {
  if (status === 0) return;
  if (status === 1) throw new PresentationError("the credential is revoked", "credential_revoked");
  if (status === 2) throw new PresentationError("the credential is suspended", "credential_suspended");
  throw new PresentationError("the credential's status is not valid");
}

/** The message of a failure @sd-jwt/jwt-status-list raised while reading the list. */
export function statusListFailure(err: unknown): PresentationError | null {
  if (err instanceof SLException) {
    return new PresentationError("the credential's status list does not verify (fail closed)");
  }
  if (err instanceof Error && /Index out of bounds|Decompression failed/.test(err.message)) {
    return new PresentationError("the credential's status list has no valid entry at its idx (fail closed)");
  }
  return null;
}
