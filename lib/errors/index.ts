/**
 * The one error model of the REST surface. Every error has a code; the status comes from the
 * code table below, so a code always means the same status. Unknown errors become a generic
 * INTERNAL_ERROR that hides internals (the wrapper logs the original once).
 */

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  VALIDATION_INVALID_PARAMETER: 400,
  INVALID_JSON: 400,
  // JSON nested deeper than 32 levels or holding more than 20,000 values (lib/http/body.ts)
  JSON_TOO_COMPLEX: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  DEFAULT_WORKFLOW_DELETE: 400,
  PROVIDER_NOT_AVAILABLE: 400,
  VERIFICATION_TERMINAL: 400,
  PRODUCTION_TEST_NOT_PENDING: 400,
  CUSTOM_DOMAIN_EXISTS: 400,
  DOMAIN_IN_USE: 400,
  ACTIVATION_STATE_CONFLICT: 409,
  INVALID_API_KEY: 401,
  INVALID_AUTHORIZATION_SCHEME: 401,
  INVALID_CLIENT_CREDENTIALS: 401,
  INVALID_OPERATOR_KEY: 401,
  INVALID_SESSION: 401,
  INVALID_CREDENTIALS: 401,
  CSRF_ORIGIN_MISMATCH: 403,
  SIGNUP_DISABLED: 403,
  INVITATION_INVALID: 410,
  // a password-reset or sign-up confirmation link that is unknown, used or expired (issue 23)
  RESET_LINK_INVALID: 410,
  SIGNUP_LINK_INVALID: 410,
  // the service sends no mail (SMTP_URL unset): password reset cannot work
  PASSWORD_RESET_UNAVAILABLE: 403,
  LAST_OWNER: 409,
  ALREADY_MEMBER: 409,
  INVITATION_NOT_PENDING: 409,
  RATE_LIMITED: 429,
  RESOURCE_FORBIDDEN: 403,
  RESOURCE_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  // the request body did not arrive within IDV_BODY_TIMEOUT_MS (lib/http/early-refusals.ts)
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_KEY_CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  VERIFICATION_NOT_COMPLETED: 409,
  VERIFICATION_STATE_CONFLICT: 409,
  WEBHOOK_DELIVERY_PENDING: 409,
  VERIFICATION_DATA_DELETED: 410,
  // If-Match named a workflow version that is no longer the latest (lib/workflows/versions.ts)
  WORKFLOW_VERSION_CONFLICT: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL_ERROR: 500,
  // the database cannot be reached (restart, failover, connection refused): retry after Retry-After
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
  /** workflow validation: the id of the node the path points into */
  nodeId?: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    { details = [], headers = {} }: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }
}

/** A 400 naming the offending field. */
export function invalidField(path: string, message: string, code: ErrorCode = "VALIDATION_ERROR"): ApiError {
  return new ApiError(code, `${path}: ${message}`, { details: [{ path, message }] });
}

export function notFound(what: string): ApiError {
  return new ApiError("RESOURCE_NOT_FOUND", `${what} not found`);
}

export interface ErrorBody {
  error: { code: string; message: string; requestId: string; details?: ErrorDetail[] };
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      requestId,
      ...(error.details.length > 0 ? { details: error.details } : {}),
    },
  };
}
