/**
 * The discovery document (OpenID Connect Discovery 1.0 §3) of one issuer.
 * Rules: it advertises exactly what the endpoints enforce — code flow only, query and form_post
 * responses, S256 PKCE, client_secret_basic/post and private_key_jwt, ES256/RS256 ID tokens, iss
 * in authorization responses (RFC 9207), pushed authorization requests (RFC 9126; required per
 * app, never for all), signed request objects by value (RFC 9101; request_uri only as /par
 * issues them), DPoP (RFC 9449) — plus our `provider` extension parameter; claims come from the
 * claim catalog and acr values from the LoA scale with the configured namespace. Client JWT
 * algorithms are the default profile's; an app under FAPI 2.0 is held to ES256/PS256/EdDSA
 * (lib/oidc/profile.ts), which discovery cannot say per client.
 */
import { KNOWN_CLAIMS } from "../../providers/claims";
import { acrFor } from "../../verifications/loa";
import { SIGNING_ALGS } from "../keys";
import { CLIENT_JWT_ALGS, TOKEN_ENDPOINT_AUTH_METHODS } from "../profile";
import { supportedScopes } from "./check-scope";

export const DISCOVERY_CACHE_CONTROL = "public, max-age=300";
export const JWKS_CACHE_CONTROL = "public, max-age=300, stale-while-revalidate=60";

export function buildDiscovery(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ["code"],
    pushed_authorization_request_endpoint: `${issuer}/par`,
    require_pushed_authorization_requests: false,
    response_modes_supported: ["query", "form_post"],
    grant_types_supported: ["authorization_code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    scopes_supported: supportedScopes(),
    claims_supported: [
      "sub",
      "iss",
      "aud",
      "exp",
      "iat",
      "auth_time",
      "nonce",
      "acr",
      "amr",
      "at_hash",
      ...KNOWN_CLAIMS,
    ],
    claim_types_supported: ["normal"],
    claims_parameter_supported: false,
    request_parameter_supported: true,
    // request_uri by reference (OIDC Core §6.2) is not offered: /auth takes only the values /par
    // issues, which RFC 9126 §4 governs through pushed_authorization_request_endpoint
    request_uri_parameter_supported: false,
    request_object_signing_alg_values_supported: [...CLIENT_JWT_ALGS],
    acr_values_supported: [0, 1, 2, 3].map((n) => acrFor(n)),
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: [...CLIENT_JWT_ALGS],
    dpop_signing_alg_values_supported: [...CLIENT_JWT_ALGS],
    authorization_response_iss_parameter_supported: true,
    prompt_values_supported: ["none", "login", "consent", "select_account"],
    // our extension: `provider=<providerId>` skips the picker page
    authorization_request_parameters_supported: ["provider", "request", "request_uri", "dpop_jkt"],
    provider_parameter_supported: true,
  };
}
