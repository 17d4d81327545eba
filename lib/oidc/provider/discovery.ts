/**
 * The discovery document (OpenID Connect Discovery 1.0 §3) of one issuer.
 * Rules: it advertises exactly what the endpoints enforce — code flow only, query responses,
 * S256 PKCE, the two client_secret methods, ES256/RS256 ID tokens, iss in authorization
 * responses (RFC 9207) — plus our `provider` extension parameter; claims come from the claim
 * catalog and acr values from the LoA scale with the configured namespace.
 */
import { KNOWN_CLAIMS } from "../../providers/claims";
import { acrFor } from "../../verifications/loa";
import { SIGNING_ALGS } from "../keys";
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
    response_modes_supported: ["query"],
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
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    acr_values_supported: [0, 1, 2, 3].map((n) => acrFor(n)),
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
    prompt_values_supported: ["none", "login", "consent", "select_account"],
    // our extension: `provider=<providerId>` skips the picker page
    authorization_request_parameters_supported: ["provider"],
    provider_parameter_supported: true,
  };
}
