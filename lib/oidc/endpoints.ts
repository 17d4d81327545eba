/**
 * Endpoint definition of the REST code exchange, for the OpenAPI document. The route does not run
 * through withApi (OAuth errors instead of the REST envelope), so the error responses are
 * documented here explicitly with their OAuth body.
 */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { ZTokenRequest } from "./token-request";

const ZOAuthError = z.object({
  error: z
    .enum(["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type", "server_error"])
    .describe("RFC 6749 §5.2 error code"),
  error_description: z.string().describe("Human-readable reason; names the offending parameter"),
});

export const ZTokenResponse = z.object({
  id_token: z
    .string()
    .describe(
      "Signed JWT (ES256; kid in the header, keys at {oidc_url}/jwks) with iss, sub, aud (clientId), exp, iat, auth_time, acr, amr, jti, verification_id and nonce when the code carries one. No personal data: claims come from /v1/verifications/{verificationId}/userinfo",
    ),
});

export const exchangeCode = endpoint({
  method: "POST",
  path: "/token",
  operationId: "exchangeAuthorizationCode",
  summary: "Exchange an authorization code for an ID token",
  description:
    "OAuth 2.0 code exchange (RFC 6749 §4.1.3) for a completed verification. Body: application/x-www-form-urlencoded or application/json, at most 64 KB, with grant_type=authorization_code and code (plus redirect_uri and code_verifier when the code is bound to them). Client authentication: HTTP Basic with clientId:clientSecret (client_secret_basic) or client_id and client_secret in the body (client_secret_post) — one of the two, not both. Codes are single-use and expire after 60 seconds. Errors use OAuth bodies, not the REST envelope; an invalid, expired, used or foreign code is 401 invalid_grant (the service's rule; RFC 6749 would answer 400). Responses are sent with Cache-Control: no-store.",
  tag: "App API",
  auth: "none",
  body: ZTokenRequest,
  responses: {
    200: {
      description: "The ID token",
      schema: ZTokenResponse,
      headers: { "Cache-Control": "no-store", Pragma: "no-cache" },
    },
    400: {
      description:
        "invalid_request (a required parameter missing, repeated or not a string; both client authentication methods at once), unsupported_grant_type",
      schema: ZOAuthError,
    },
    401: {
      description:
        "invalid_client (missing or wrong client credentials) or invalid_grant (unknown, expired, already used or another app's code; redirect_uri or code_verifier mismatch; verification not completed)",
      schema: ZOAuthError,
      headers: { "WWW-Authenticate": 'Basic realm="token", charset="UTF-8"' },
    },
    413: { description: "invalid_request: the body exceeds 64 KB", schema: ZOAuthError },
    415: {
      description: "invalid_request: the body is neither form-urlencoded nor JSON",
      schema: ZOAuthError,
    },
  },
});
