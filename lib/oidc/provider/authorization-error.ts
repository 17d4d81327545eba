/**
 * Errors of the authorization endpoint (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6).
 * Rules:
 * - an error found before client_id and redirect_uri are known to be good is never redirected
 *   (RFC 6749 §4.1.2.1: an open redirector otherwise); the end-user sees an error page;
 * - every later error goes back to the client's redirect_uri with error, error_description,
 *   state and iss (RFC 9207).
 */
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
  | "registration_not_supported";

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

/** The client's redirect_uri with the RFC 6749 error parameters and iss (RFC 9207). */
export function errorRedirectUrl(target: TErrorRedirect, error: AuthorizationError): string {
  const url = new URL(target.redirectUri);
  url.searchParams.set("error", error.code);
  url.searchParams.set("error_description", error.message);
  if (target.state) url.searchParams.set("state", target.state);
  url.searchParams.set("iss", target.issuer);
  return url.toString();
}
