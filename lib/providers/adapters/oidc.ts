/**
 * The generic OpenID Connect upstream adapter: a redirect provider's production path through its
 * OIDC front door (authorization code flow with PKCE), on openid-client.
 * Rules:
 * - every authorization request carries S256 PKCE, a fresh `state` and a fresh `nonce`, saved
 *   with the session; the callback is checked by openid-client (issuer `iss`, state, ID token
 *   signature against the issuer's JWKS, audience, nonce; PKCE at the token endpoint) before any
 *   claim is read;
 * - the callback's parameters are replayed onto the registered redirect URI, so the token request
 *   names exactly the redirect_uri of the authorization request whatever host served the callback;
 * - `error=access_denied` (after the state check) is a cancellation; any other upstream error, a
 *   rejected code or a failed check is a failure, never an exception; only programming errors throw;
 * - claims are the ID token's and userinfo's person claims under OIDC names, renamed by the
 *   provider's claimMapping (upstream names may be JSON pointers "/a/0/b" into nested claims);
 *   the LoA comes from `acr` through acrToLoa (unknown → null, the provider's default applies);
 * - discovery documents (and the issuer's JWKS) are cached per issuer for an hour; a failed
 *   discovery is not cached.
 */
import * as client from "openid-client";
import { z } from "zod";
import { ApiError } from "../../errors";
import { isKnownClaim, KNOWN_CLAIMS } from "../claims";
import type { TAdapterOutcome } from "./types";

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The provider configuration an operator stores for an OIDC upstream (AppProvider.config). */
export const ZOidcUpstreamConfig = z
  .object({
    issuer: z.url({ protocol: /^https?$/ }),
    clientId: z.string().min(1).max(255),
    clientSecret: z.string().min(1).max(1024),
    scopes: z.array(z.string().regex(SCOPE_TOKEN, "must be a scope token")).min(1).max(30).optional(),
    /** OIDC claim name → the upstream's claim name (or a JSON pointer into its claims) */
    claimMapping: z
      .record(
        // not the guard itself: the keys stay strings (a mapping names some claims, not all)
        z
          .string()
          .refine((name): boolean => isKnownClaim(name), "must be an OIDC claim name known to the service"),
        z.string().min(1).max(255),
      )
      .optional(),
    /** upstream `acr` value → LoA 0–3 */
    acrToLoa: z.record(z.string().min(1), z.number().int().min(0).max(3)).optional(),
    /** http issuer; tests and local development only */
    allowInsecureRequests: z.boolean().optional(),
  })
  .strict()
  .refine((c) => c.allowInsecureRequests === true || !c.issuer.startsWith("http:"), {
    path: ["issuer"],
    message: "must use https",
  });
export type TOidcUpstreamConfig = z.infer<typeof ZOidcUpstreamConfig>;

/** What a session keeps (sealed) between the redirect to the provider and its callback. */
export const ZOidcSavedState = z.object({ state: z.string(), nonce: z.string(), codeVerifier: z.string() });
export type TOidcSavedState = z.infer<typeof ZOidcSavedState>;

const DEFAULT_SCOPES = ["openid", "profile"];
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const HTTP_TIMEOUT_SECONDS = 10;

/** Protocol claims of ID tokens and userinfo responses: evidence, never person data. */
const PROTOCOL_CLAIMS: ReadonlySet<string> = new Set([
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "nbf",
  "jti",
  "nonce",
  "acr",
  "amr",
  "auth_time",
  "azp",
  "at_hash",
  "c_hash",
  "s_hash",
  "sid",
]);

interface TDiscoveryEntry {
  metadata: Promise<client.ServerMetadata>;
  fetchedAt: number;
  jwks?: client.ExportedJWKSCache;
}

const discoveries = new Map<string, TDiscoveryEntry>();

/** Forgets cached discovery documents (tests; an operator changing an issuer's keys). */
export function clearOidcDiscoveryCache(): void {
  discoveries.clear();
}

function discover(config: TOidcUpstreamConfig): TDiscoveryEntry {
  const key = `${config.allowInsecureRequests ? "insecure" : "tls"} ${config.issuer}`;
  const cached = discoveries.get(key);
  if (cached && Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached;
  const entry: TDiscoveryEntry = {
    fetchedAt: Date.now(),
    metadata: client
      .discovery(new URL(config.issuer), config.clientId, undefined, undefined, {
        timeout: HTTP_TIMEOUT_SECONDS,
        execute: config.allowInsecureRequests ? [client.allowInsecureRequests] : [],
      })
      .then((c) => c.serverMetadata()),
  };
  entry.metadata.catch(() => {
    if (discoveries.get(key) === entry) discoveries.delete(key);
  });
  discoveries.set(key, entry);
  return entry;
}

async function configure(
  config: TOidcUpstreamConfig,
): Promise<{ cfg: client.Configuration; entry: TDiscoveryEntry }> {
  const entry = discover(config);
  const metadata = await entry.metadata;
  const methods = metadata.token_endpoint_auth_methods_supported;
  // client_secret_basic is the OIDC default; use post only where the upstream offers nothing else
  const auth =
    methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
      ? client.ClientSecretPost(config.clientSecret)
      : client.ClientSecretBasic(config.clientSecret);
  const cfg = new client.Configuration(metadata, config.clientId, undefined, auth);
  cfg.timeout = HTTP_TIMEOUT_SECONDS;
  if (config.allowInsecureRequests) client.allowInsecureRequests(cfg);
  // verify the ID token's signature too, not only TLS: it is the evidence we keep
  client.enableNonRepudiationChecks(cfg);
  if (entry.jwks) client.setJwksCache(cfg, entry.jwks);
  return { cfg, entry };
}

function scopeOf(config: TOidcUpstreamConfig): string {
  const scopes = config.scopes?.length ? config.scopes : DEFAULT_SCOPES;
  return [...new Set(["openid", ...scopes])].join(" ");
}

function checkRedirectUri(redirectUri: string): URL {
  const url = new URL(redirectUri);
  // openid-client derives the token request's redirect_uri from the callback without its query
  if (url.search || url.hash) throw new TypeError("redirectUri must not carry a query or fragment");
  return url;
}

/**
 * Starts an upstream sign-in: the URL to send the end-user to, and what to keep with the session
 * for the callback. An unreachable or invalid issuer is 400 PROVIDER_NOT_AVAILABLE.
 */
export async function beginOidcAuthorization(
  config: TOidcUpstreamConfig,
  redirectUri: string,
  options: { acrValues?: string[]; loginHint?: string; uiLocales?: string } = {},
): Promise<{ url: string; saved: TOidcSavedState }> {
  checkRedirectUri(redirectUri);
  let cfg: client.Configuration;
  try {
    ({ cfg } = await configure(config));
  } catch {
    // the cause (an operator-configured host) is not the integrator's business
    throw new ApiError(
      "PROVIDER_NOT_AVAILABLE",
      "The provider's sign-in service cannot be reached right now",
    );
  }
  const saved: TOidcSavedState = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: scopeOf(config),
    response_type: "code",
    state: saved.state,
    nonce: saved.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(saved.codeVerifier),
    code_challenge_method: "S256",
  };
  if (options.acrValues?.length) parameters.acr_values = options.acrValues.join(" ");
  if (options.loginHint) parameters.login_hint = options.loginHint;
  if (options.uiLocales) parameters.ui_locales = options.uiLocales;
  return { url: client.buildAuthorizationUrl(cfg, parameters).href, saved };
}

/** RFC 6901 JSON pointer ("/vc/credentialSubject/birthDate/0/value") or a plain claim name. */
function readClaim(claims: Record<string, unknown>, name: string): unknown {
  if (!name.startsWith("/")) return claims[name];
  let node: unknown = claims;
  for (const raw of name.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

const BOOLEAN_CLAIMS: ReadonlySet<string> = new Set(["email_verified", "phone_number_verified"]);

/** The upstream's person claims under OIDC names (claimMapping first, then same-named claims). */
export function mapUpstreamClaims(
  upstream: Record<string, unknown>,
  claimMapping: Record<string, string> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const claim of KNOWN_CLAIMS) {
    const source = claimMapping[claim] ?? claim;
    let value = readClaim(upstream, source);
    if (value === undefined || value === null || value === "") continue;
    // some upstreams send "true"/"false" for the *_verified flags
    if (BOOLEAN_CLAIMS.has(claim) && (value === "true" || value === "false")) value = value === "true";
    out[claim] = value;
  }
  return out;
}

function describe(error: unknown): string {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error;
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const parameters = error.cause[0]?.parameters;
    if (parameters?.error) {
      return parameters.error_description
        ? `${parameters.error}: ${parameters.error_description}`
        : parameters.error;
    }
  }
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`.slice(0, 300);
  }
  return "unknown error";
}

function isNetworkError(error: unknown): boolean {
  if (error instanceof DOMException) return error.name === "TimeoutError" || error.name === "AbortError";
  // fetch() failures are TypeErrors without openid-client's ERR_INVALID_ARG_* codes
  return error instanceof TypeError && !("code" in error && String(error.code).startsWith("ERR_INVALID_ARG"));
}

function failureFor(error: unknown): TAdapterOutcome {
  if (error instanceof client.AuthorizationResponseError) {
    if (error.error === "access_denied") return { kind: "cancelled" };
    return { kind: "failure", reason: "provider_error", message: describe(error) };
  }
  if (error instanceof client.ResponseBodyError || error instanceof client.WWWAuthenticateChallengeError) {
    return { kind: "failure", reason: "provider_error", message: describe(error) };
  }
  if (error instanceof client.ClientError) {
    const unavailable =
      error.code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || error.code === "OAUTH_RESPONSE_IS_NOT_JSON";
    return {
      kind: "failure",
      reason: unavailable ? "provider_error" : "invalid_response",
      message: describe(error),
    };
  }
  if (isNetworkError(error)) {
    return { kind: "failure", reason: "provider_unavailable", message: describe(error) };
  }
  throw error;
}

/**
 * Finishes an upstream sign-in from the callback URL: checks and redeems the code, reads the ID
 * token and userinfo, and returns the adapter outcome.
 */
export async function completeOidcAuthorization(
  config: TOidcUpstreamConfig,
  redirectUri: string,
  callbackUrl: URL,
  saved: TOidcSavedState,
): Promise<TAdapterOutcome> {
  const current = checkRedirectUri(redirectUri);
  for (const [key, value] of callbackUrl.searchParams) current.searchParams.append(key, value);
  try {
    const { cfg, entry } = await configure(config);
    const tokens = await client.authorizationCodeGrant(cfg, current, {
      expectedState: saved.state,
      expectedNonce: saved.nonce,
      pkceCodeVerifier: saved.codeVerifier,
      idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    const userinfo = cfg.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(cfg, tokens.access_token, idToken.sub)
      : {};
    const jwks = client.getJwksCache(cfg);
    if (jwks) entry.jwks = jwks;

    const merged: Record<string, unknown> = { ...idToken, ...userinfo };
    const rawClaims = Object.fromEntries(Object.entries(merged).filter(([k]) => !PROTOCOL_CLAIMS.has(k)));
    const acr = typeof idToken.acr === "string" ? idToken.acr : undefined;
    const loa =
      acr !== undefined && Object.hasOwn(config.acrToLoa ?? {}, acr) ? config.acrToLoa![acr]! : null;
    const evidence: Record<string, string> = { issuer: idToken.iss, sub: idToken.sub };
    if (acr !== undefined) evidence.acr = acr;
    if (Array.isArray(idToken.amr)) evidence.amr = idToken.amr.join(" ");
    if (typeof idToken.auth_time === "number") evidence.auth_time = String(idToken.auth_time);
    if (typeof idToken.jti === "string") evidence.id_token_jti = idToken.jti;
    if (typeof idToken.at_hash === "string") evidence.at_hash = idToken.at_hash;
    if (typeof idToken.sid === "string") evidence.sid = idToken.sid;

    return {
      kind: "success",
      identity: {
        upstreamSubject: idToken.sub,
        claims: mapUpstreamClaims(merged, config.claimMapping),
        loa,
        rawClaims,
        evidence,
      },
    };
  } catch (error) {
    return failureFor(error);
  }
}
