/**
 * An app's OpenID Provider client settings and the policy they add up to (issue 28: PAR,
 * private_key_jwt, DPoP, FAPI 2.0). Every OP endpoint asks `clientPolicy` what it must enforce;
 * nothing else reads the raw settings.
 * Rules:
 * - `oidcProfile: "fapi2"` is the FAPI 2.0 Security Profile (OpenID FAPI 2.0 SP, Final, §5):
 *   pushed authorization requests only (no plain /auth), PKCE S256, private_key_jwt, DPoP-bound
 *   access tokens (the profile's sender-constraining; mTLS is not offered), authorization codes
 *   valid at most 60 s, client JWTs (assertions, request objects, DPoP proofs) signed with ES256,
 *   PS256 or EdDSA only; a client assertion's `aud` must be the issuer identifier;
 * - under "default" each switch is the app's own (requirePushedAuthorizationRequests,
 *   requireDpop, pkceRequired, tokenEndpointAuthMethod) and client JWTs may also use RS256;
 * - `none`, HMAC (HS*) and every other algorithm are refused for client JWTs in every profile.
 */

export const OIDC_PROFILES = ["default", "fapi2"] as const;
export type TOidcProfile = (typeof OIDC_PROFILES)[number];

export const TOKEN_ENDPOINT_AUTH_METHODS = [
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
] as const;
export type TTokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/**
 * Algorithms of client-signed JWTs (client assertions, request objects, DPoP proofs). "Ed25519"
 * is EdDSA with Ed25519 under its fully-specified name (RFC 9864), which openid-client 6 and
 * oauth4webapi send for an Ed25519 key.
 */
export const CLIENT_JWT_ALGS = ["ES256", "PS256", "EdDSA", "Ed25519", "RS256"] as const;
export const FAPI2_CLIENT_JWT_ALGS = ["ES256", "PS256", "EdDSA", "Ed25519"] as const;
export type TClientJwtAlg = (typeof CLIENT_JWT_ALGS)[number];

/** The longest lifetime of an authorization code under the FAPI 2.0 profile (§5.3.2.1). */
export const FAPI2_MAX_CODE_TTL_SECONDS = 60;

/** An app's OpenID Provider settings as stored (apps columns). */
export interface TClientOidcSettings {
  tokenEndpointAuthMethod: string;
  /** a JWK Set of public keys, or null */
  jwks: unknown;
  jwksUri: string | null;
  requirePushedAuthorizationRequests: boolean;
  requireDpop: boolean;
  oidcProfile: string;
  pkceRequired: boolean;
}

/** What the OP enforces for one client. */
export interface TClientPolicy {
  profile: TOidcProfile;
  /** the one client authentication method accepted at /token and /par (see clientAuthAccepts) */
  authMethod: TTokenEndpointAuthMethod;
  /** plain /auth requests are refused: only request_uri values of /par */
  requirePar: boolean;
  /** /token issues DPoP-bound tokens only; a request without a DPoP proof is refused */
  requireDpop: boolean;
  /** /auth and /par refuse a request without code_challenge (S256) */
  requirePkce: boolean;
  /** algorithms accepted for the client's JWTs */
  clientJwtAlgs: readonly TClientJwtAlg[];
  /** a client assertion's aud must be exactly the issuer (FAPI 2.0) or may name an endpoint */
  assertionAudience: "issuer_only" | "issuer_or_endpoint";
  /** ceiling of the authorization code's lifetime, seconds */
  maxCodeTtlSeconds: number | undefined;
}

function parseProfile(value: string): TOidcProfile {
  return (OIDC_PROFILES as readonly string[]).includes(value) ? (value as TOidcProfile) : "default";
}

function parseAuthMethod(value: string): TTokenEndpointAuthMethod {
  return (TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(value)
    ? (value as TTokenEndpointAuthMethod)
    : "client_secret_basic";
}

export function clientPolicy(settings: TClientOidcSettings): TClientPolicy {
  const profile = parseProfile(settings.oidcProfile);
  if (profile === "fapi2") {
    return {
      profile,
      authMethod: "private_key_jwt",
      requirePar: true,
      requireDpop: true,
      requirePkce: true,
      clientJwtAlgs: FAPI2_CLIENT_JWT_ALGS,
      assertionAudience: "issuer_only",
      maxCodeTtlSeconds: FAPI2_MAX_CODE_TTL_SECONDS,
    };
  }
  return {
    profile,
    authMethod: parseAuthMethod(settings.tokenEndpointAuthMethod),
    requirePar: settings.requirePushedAuthorizationRequests,
    requireDpop: settings.requireDpop,
    requirePkce: settings.pkceRequired,
    clientJwtAlgs: CLIENT_JWT_ALGS,
    assertionAudience: "issuer_or_endpoint",
    maxCodeTtlSeconds: undefined,
  };
}

/**
 * Whether a client registered with `registered` may authenticate with `used`. The two forms of
 * the client secret are one credential (RFC 6749 §2.3.1) and are both accepted for either
 * registration (openid-client 6 sends client_secret_post by default, next-auth 4
 * client_secret_basic); a private_key_jwt client must sign: its secret is refused at the OP.
 */
export function clientAuthAccepts(
  registered: TTokenEndpointAuthMethod,
  used: TTokenEndpointAuthMethod,
): boolean {
  if (registered === "private_key_jwt") return used === "private_key_jwt";
  return used !== "private_key_jwt";
}
