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
 *   connection's claimMapping: upstream claim name (or a JSON pointer "/a/0/b" into nested
 *   claims) → OIDC claim name, as `{"prenom": "given_name"}`; an OIDC claim no key maps to is read
 *   under its own name;
 * - client authentication at the token (and PAR) endpoint: client_secret_basic,
 *   client_secret_post or private_key_jwt (an assertion signed with privateKeyJwk); unset, it is
 *   private_key_jwt when only a private key is configured, else client_secret_basic (post when
 *   the upstream offers post but not basic);
 * - `requestObject` sends the authorization request as a signed request object (JAR, signed with
 *   privateKeyJwk); `pushedAuthorizationRequests` (or an upstream whose metadata requires it)
 *   pushes it to the PAR endpoint first and sends the end-user with its request_uri only;
 * - `authorizationParameters` (acr_values, GOV.UK's vtr, prompt …) travel with every
 *   authorization request, inside the request object and the pushed request alike; the
 *   parameters the adapter sets itself (scope, state, nonce, PKCE, redirect_uri …) are refused;
 * - `idTokenDecryptionKey` decrypts encrypted ID tokens (and userinfo JWTs); the public halves of
 *   both keys are served at {PUBLIC_URL}/connections/{connectionId}/jwks.json;
 * - every request to the upstream (discovery, JWKS, PAR, token, userinfo) goes through the SSRF
 *   guard (lib/http/guarded-fetch.ts): private addresses only where private networks are allowed;
 *   the LoA comes from `acr` through acrToLoa (unknown → null, the provider's default applies);
 * - discovery documents (and the issuer's JWKS) are cached per issuer for an hour; a failed
 *   discovery is not cached.
 */
import * as client from "openid-client";
import { z } from "zod";
import { ApiError } from "../../errors";
import { guardedFetch } from "../../http/guarded-fetch";
import { logger } from "../../log";
import { isKnownClaim } from "../claims";
import {
  algFitsKey,
  decryptionKeysOf,
  importPrivateKey,
  signingAlgOf,
  SIGNING_ALGS,
  ZPrivateDecryptionJwk,
  ZPrivateSigningJwk,
} from "./oidc-keys";
import type { TAdapterOutcome } from "./types";
import { mapUpstreamClaims } from "../claim-mapping";

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"] as const;

/** The upstream's claim name (or a JSON pointer into its claims) → an OIDC claim name. */
export const ZClaimMapping = z.record(
  z.string().min(1).max(255),
  // not the guard itself: the values stay strings (a mapping names some claims, not all)
  z.string().refine((name): boolean => isKnownClaim(name), "must be an OIDC claim name known to the service"),
);

/**
 * The authorization request parameters the adapter sets itself: a connection's
 * `authorizationParameters` may not name them (`scope` comes from `scopes`).
 */
export const ADAPTER_AUTHORIZATION_PARAMETERS: ReadonlySet<string> = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "response_mode",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
]);

/**
 * Extra authorization request parameters a scheme requires (`acr_values`, GOV.UK's `vtr`,
 * `prompt`, `claims` …): name → value, sent with every authorization request.
 */
export const ZAuthorizationParameters = z
  .record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "must be a parameter name (letters, digits, _ . -)"),
    z.string().max(4096),
  )
  .superRefine((parameters, ctx) => {
    for (const name of Object.keys(parameters))
      if (ADAPTER_AUTHORIZATION_PARAMETERS.has(name))
        ctx.addIssue({
          code: "custom",
          path: [name],
          message:
            name === "scope"
              ? "is set by the adapter: use the scopes setting"
              : "is set by the adapter and cannot be configured",
        });
    if (Object.keys(parameters).length > 30)
      ctx.addIssue({ code: "custom", path: [], message: "must name at most 30 parameters" });
  });

/**
 * The cross-field rules of a complete configuration (secrets included): how the client
 * authenticates, and what a request object needs.
 */
function checkCredentials(
  c: {
    clientAuthMethod?: (typeof CLIENT_AUTH_METHODS)[number] | undefined;
    clientSecret?: string | undefined;
    privateKeyJwk?: { kty: string } | undefined;
    requestObject?: { signingAlg?: (typeof SIGNING_ALGS)[number] | undefined } | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const method = c.clientAuthMethod;
  if (method === "private_key_jwt" && !c.privateKeyJwk)
    ctx.addIssue({
      code: "custom",
      path: ["privateKeyJwk"],
      message: "is required with clientAuthMethod private_key_jwt",
    });
  if ((method === "client_secret_basic" || method === "client_secret_post") && c.clientSecret === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["clientSecret"],
      message: `is required with clientAuthMethod ${method}`,
    });
  if (!method && c.clientSecret === undefined && !c.privateKeyJwk)
    ctx.addIssue({
      code: "custom",
      path: ["clientSecret"],
      message: "is required (or privateKeyJwk, for private_key_jwt)",
    });
  if (c.requestObject && !c.privateKeyJwk)
    ctx.addIssue({
      code: "custom",
      path: ["privateKeyJwk"],
      message: "is required to sign request objects (requestObject)",
    });
  const alg = c.requestObject?.signingAlg;
  if (alg && c.privateKeyJwk && !algFitsKey(c.privateKeyJwk, alg))
    ctx.addIssue({
      code: "custom",
      path: ["requestObject", "signingAlg"],
      message: `${alg} does not fit the ${c.privateKeyJwk.kty} key of privateKeyJwk`,
    });
}

/** The settings of an OIDC connection, secrets included (lib/connections). */
export const ZOidcUpstreamConfig = z
  .object({
    issuer: z.url({ protocol: /^https?$/ }),
    clientId: z.string().min(1).max(255),
    /** client_secret_basic / client_secret_post */
    clientSecret: z.string().min(1).max(1024).optional(),
    /** unset: private_key_jwt when only privateKeyJwk is set, else client_secret_basic (or post) */
    clientAuthMethod: z
      .enum(CLIENT_AUTH_METHODS)
      .optional()
      .describe("Unset: private_key_jwt when only privateKeyJwk is set, else client_secret_basic"),
    /** private JWK (RS256/PS256/ES256) for private_key_jwt and request objects; a secret */
    privateKeyJwk: ZPrivateSigningJwk.optional().describe(
      "A private JWK (RSA or EC P-256; RS256, PS256 or ES256) for private_key_jwt and request objects; its public half is served at /connections/{connectionId}/jwks.json",
    ),
    /** send signed request objects (JAR), signed with privateKeyJwk */
    requestObject: z
      .object({ signingAlg: z.enum(SIGNING_ALGS).optional() })
      .strict()
      .optional(),
    /** push authorization requests (PAR) first; unset: when the upstream's metadata requires it */
    pushedAuthorizationRequests: z
      .boolean()
      .optional()
      .describe("Push authorization requests first (PAR); unset: when the upstream requires it"),
    /** private JWK (RSA-OAEP(-256), ECDH-ES on P-256) decrypting encrypted ID tokens; a secret */
    idTokenDecryptionKey: ZPrivateDecryptionJwk.optional().describe(
      "A private JWK (RSA-OAEP(-256), or ECDH-ES on P-256) decrypting encrypted ID tokens and userinfo JWTs",
    ),
    scopes: z.array(z.string().regex(SCOPE_TOKEN, "must be a scope token")).min(1).max(30).optional(),
    /** extra authorization request parameters (acr_values, vtr, prompt …), in every mode */
    authorizationParameters: ZAuthorizationParameters.optional().describe(
      'Extra authorization request parameters sent with every request (plain, in the signed request object and through PAR alike), e.g. {"acr_values": "eidas2", "vtr": "[\\"Cl.Cm\\"]", "prompt": "login"}; the adapter\'s own (client_id, redirect_uri, response_type, response_mode, scope, state, nonce, code_challenge(_method), request, request_uri) are refused',
    ),
    /** the upstream's claim name (or a JSON pointer into its claims) → OIDC claim name */
    claimMapping: ZClaimMapping.optional().describe(
      'The upstream\'s claim name (or a JSON pointer "/a/0/b") → OIDC claim name, e.g. {"prenom": "given_name"}',
    ),
    /** upstream `acr` value → LoA 0–3 */
    acrToLoa: z.record(z.string().min(1), z.number().int().min(0).max(3)).optional(),
    /** http issuer; tests and local development only */
    allowInsecureRequests: z.boolean().optional(),
  })
  .strict()
  .refine((c) => c.allowInsecureRequests === true || !c.issuer.startsWith("http:"), {
    path: ["issuer"],
    message: "must use https",
  })
  .superRefine(checkCredentials);

/**
 * A claimMapping of the former direction (OIDC claim → upstream name, as IDV_UPSTREAM_OIDC and
 * connections stored before 2026-11-29 wrote it) turned around; anything else as it is.
 */
export function invertLegacyClaimMapping(mapping: unknown): unknown {
  if (!mapping || typeof mapping !== "object" || Array.isArray(mapping)) return mapping;
  return Object.fromEntries(Object.entries(mapping as Record<string, unknown>).map(([k, v]) => [v, k]));
}
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
        [client.customFetch]: upstreamFetch,
      })
      .then((c) => c.serverMetadata()),
  };
  entry.metadata.catch(() => {
    if (discoveries.get(key) === entry) discoveries.delete(key);
  });
  discoveries.set(key, entry);
  return entry;
}

/** Every request to an upstream goes through the SSRF guard (openid-client's customFetch). */
const upstreamFetch: client.CustomFetch = (url, options) =>
  guardedFetch(url, { ...options, timeoutMs: HTTP_TIMEOUT_SECONDS * 1000 } as RequestInit);

/** The client authentication method a configuration uses with the upstream's metadata. */
export function clientAuthMethodOf(
  config: TOidcUpstreamConfig,
  metadata: Pick<client.ServerMetadata, "token_endpoint_auth_methods_supported">,
): (typeof CLIENT_AUTH_METHODS)[number] {
  if (config.clientAuthMethod) return config.clientAuthMethod;
  if (config.privateKeyJwk && !config.clientSecret) return "private_key_jwt";
  const methods = metadata.token_endpoint_auth_methods_supported;
  // client_secret_basic is the OIDC default; use post only where the upstream offers nothing else
  return methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
    ? "client_secret_post"
    : "client_secret_basic";
}

async function clientAuth(
  config: TOidcUpstreamConfig,
  metadata: client.ServerMetadata,
): Promise<client.ClientAuth> {
  const method = clientAuthMethodOf(config, metadata);
  if (method === "private_key_jwt") {
    const jwk = config.privateKeyJwk!;
    return client.PrivateKeyJwt({ key: await importPrivateKey(jwk, signingAlgOf(jwk)), kid: jwk.kid });
  }
  return method === "client_secret_post"
    ? client.ClientSecretPost(config.clientSecret!)
    : client.ClientSecretBasic(config.clientSecret!);
}

async function configure(
  config: TOidcUpstreamConfig,
): Promise<{ cfg: client.Configuration; entry: TDiscoveryEntry }> {
  const entry = discover(config);
  const metadata = await entry.metadata;
  const cfg = new client.Configuration(
    metadata,
    config.clientId,
    undefined,
    await clientAuth(config, metadata),
  );
  cfg.timeout = HTTP_TIMEOUT_SECONDS;
  cfg[client.customFetch] = upstreamFetch;
  if (config.allowInsecureRequests) client.allowInsecureRequests(cfg);
  if (config.idTokenDecryptionKey)
    client.enableDecryptingResponses(
      cfg,
      undefined,
      ...(await decryptionKeysOf(config.idTokenDecryptionKey)),
    );
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

/** The result mapping (lib/providers/claim-mapping.ts, shared with the back-office preview). */
export { mapUpstreamClaims };

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
