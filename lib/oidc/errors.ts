/**
 * OAuth 2.0 errors (RFC 6749 §5.2, RFC 6750 §3): the token endpoints answer with
 * `{"error":"invalid_grant","error_description":"…"}` instead of the REST error envelope
 * (docs/design.md §5). Every 401 carries a WWW-Authenticate challenge (RFC 9110 §11.6.1).
 */
import { BufferedResponse } from "../http/buffered-response";

export type TOAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "server_error"
  // 429: too many failed client authentications (RFC 8628 §3.5's token-endpoint code)
  | "slow_down"
  // RFC 9449 §5, §8: a bad DPoP proof; a proof without the server nonce (with a DPoP-Nonce header)
  | "invalid_dpop_proof"
  | "use_dpop_nonce";

/** The challenge of the token endpoints: clients authenticate with HTTP Basic (or the body). */
export const TOKEN_ENDPOINT_CHALLENGE = 'Basic realm="token", charset="UTF-8"';

export class OAuthError extends Error {
  readonly code: TOAuthErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    code: TOAuthErrorCode,
    description: string,
    status = 400,
    headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
    this.code = code;
    this.status = status;
    this.headers = status === 401 ? { "WWW-Authenticate": TOKEN_ENDPOINT_CHALLENGE, ...headers } : headers;
  }
}

export interface TOAuthErrorBody {
  error: TOAuthErrorCode;
  error_description: string;
}

export function oauthErrorBody(error: OAuthError): TOAuthErrorBody {
  return { error: error.code, error_description: error.message };
}

// RFC 6749 §5.1: token responses, errors included, are never cached
const NO_STORE = {
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
  Pragma: "no-cache",
};

export function oauthJsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new BufferedResponse(JSON.stringify(body), { status, headers: { ...NO_STORE, ...headers } });
}

export function oauthErrorResponse(error: OAuthError, headers: Record<string, string> = {}): Response {
  return oauthJsonResponse(error.status, oauthErrorBody(error), { ...error.headers, ...headers });
}
