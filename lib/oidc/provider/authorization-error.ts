/**
 * Errors of the authorization endpoint (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6).
 * Rules:
 * - an error found before client_id and redirect_uri are known to be good is never redirected
 *   (RFC 6749 §4.1.2.1: an open redirector otherwise); the end-user sees an error page;
 * - every later error goes back to the client's redirect_uri with error, error_description,
 *   state and iss (RFC 9207), in the request's response mode (./form-post.ts).
 */
import { answerRedirectUrl, type TAuthorizationAnswer, type TResponseMode } from "./form-post";

export type TAuthorizationErrorCode =
  | "invalid_request"
  | "unauthorized_client"
  | "access_denied"
  | "unsupported_response_type"
  | "invalid_scope"
  | "server_error"
  | "temporarily_unavailable"
  | "login_required"
  | "request_not_supported"
  | "request_uri_not_supported"
  | "registration_not_supported"
  // RFC 9101 §6.2 (a request object that does not verify), RFC 9126 §4 / OIDC Core §3.1.2.6 (a
  // request_uri that names no usable pushed request)
  | "invalid_request_object"
  | "invalid_request_uri";

export class AuthorizationError extends Error {
  readonly code: TAuthorizationErrorCode;
  /** false: shown on the error page; true: sent to the validated redirect_uri */
  readonly redirectable: boolean;

  constructor(code: TAuthorizationErrorCode, description: string, redirectable = true) {
    super(description);
    this.name = "AuthorizationError";
    this.code = code;
    this.redirectable = redirectable;
  }
}

/** An error the end-user sees, because the client or its redirect_uri cannot be trusted. */
export function pageError(description: string): AuthorizationError {
  return new AuthorizationError("invalid_request", description, false);
}

export interface TErrorRedirect {
  redirectUri: string;
  state?: string | null;
  issuer: string;
}

/** The RFC 6749 error answer with state and iss (RFC 9207), in the request's response mode. */
export function errorAnswer(
  target: TErrorRedirect,
  error: AuthorizationError,
  mode: TResponseMode = "query",
): TAuthorizationAnswer {
  const params: [string, string][] = [
    ["error", error.code],
    ["error_description", error.message],
  ];
  if (target.state) params.push(["state", target.state]);
  params.push(["iss", target.issuer]);
  return { redirectUri: target.redirectUri, params, mode };
}

/** The client's redirect_uri with the RFC 6749 error parameters and iss (RFC 9207). */
export function errorRedirectUrl(target: TErrorRedirect, error: AuthorizationError): string {
  return answerRedirectUrl(errorAnswer(target, error));
}
