/**
 * The generic OpenID Connect upstream adapter: a redirect provider's production path through its
 * OIDC front door (authorization code flow with PKCE), on openid-client. Its settings are
 * ./oidc-settings.ts; discovery and the configured client ./oidc-client.ts.
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
 *   connection's claimMapping (lib/providers/claim-mapping.ts); an OIDC claim no key maps to is
 *   read under its own name;
 * - `requestObject` sends the authorization request as a signed request object (JAR, signed with
 *   privateKeyJwk); `pushedAuthorizationRequests` (or an upstream whose metadata requires it)
 *   pushes it to the PAR endpoint first and sends the end-user with its request_uri only;
 * - `authorizationParameters` (acr_values, GOV.UK's vtr, prompt …) travel with every
 *   authorization request, inside the request object and the pushed request alike; the
 *   adapter's own parameters always win;
 * - the public halves of the private keys (oidc-settings.ts) are served at
 *   {PUBLIC_URL}/connections/{connectionId}/jwks.json;
 * - the LoA comes from `acr` through acrToLoa (unknown → null, the provider's default applies).
 */
import * as client from "openid-client";
import { z } from "zod";
import { ApiError } from "../../errors";
import { logger } from "../../log";
import { mapUpstreamClaims } from "../claim-mapping";
import { configure } from "./oidc-client";
import { importPrivateKey, signingAlgOf } from "./oidc-keys";
import type { TOidcUpstreamConfig } from "./oidc-settings";
import type { TAdapterOutcome } from "./types";

/** What a session keeps (sealed) between the redirect to the provider and its callback. */
export const ZOidcSavedState = z.object({ state: z.string(), nonce: z.string(), codeVerifier: z.string() });
export type TOidcSavedState = z.infer<typeof ZOidcSavedState>;

const DEFAULT_SCOPES = ["openid", "profile"];

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
    // the scheme's own parameters first: the adapter's below always win (the schema refuses them)
    ...config.authorizationParameters,
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
  let url: URL;
  try {
    url = await authorizationUrl(cfg, config, parameters);
  } catch (error) {
    // a refused push or request object: the cause is the operator's business, not the integrator's
    logger.warn(
      { issuer: config.issuer, cause: describe(error) },
      "the upstream refused the authorization request",
    );
    throw new ApiError(
      "PROVIDER_NOT_AVAILABLE",
      "The provider's sign-in service refused the sign-in request",
    );
  }
  return { url: url.href, saved };
}

/** The authorization URL: plain, as a signed request object (JAR), pushed (PAR), or both. */
async function authorizationUrl(
  cfg: client.Configuration,
  config: TOidcUpstreamConfig,
  parameters: Record<string, string>,
): Promise<URL> {
  const push =
    config.pushedAuthorizationRequests ?? cfg.serverMetadata().require_pushed_authorization_requests === true;
  let request: URLSearchParams | Record<string, string> = parameters;
  if (config.requestObject) {
    const jwk = config.privateKeyJwk!;
    const key = await importPrivateKey(jwk, signingAlgOf(jwk, config.requestObject.signingAlg));
    const jar = await client.buildAuthorizationUrlWithJAR(cfg, parameters, { key, kid: jwk.kid });
    if (!push) return jar;
    request = jar.searchParams;
  }
  return push
    ? client.buildAuthorizationUrlWithPAR(cfg, request)
    : client.buildAuthorizationUrl(cfg, request);
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
  // what the browser brought back decides these outcomes: the end-user's, not the upstream's
  const fromCallback =
    callbackUrl.searchParams.get("state") !== saved.state ||
    callbackUrl.searchParams.has("error") ||
    !callbackUrl.searchParams.get("code");
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
    const outcome = failureFor(error);
    // a code the upstream refuses (bogus, replayed, or another session's) is the callback's too
    const refusedCode = error instanceof client.ResponseBodyError && error.error === "invalid_grant";
    return outcome.kind === "failure" && (fromCallback || refusedCode)
      ? { ...outcome, origin: "callback" }
      : outcome;
  }
}
