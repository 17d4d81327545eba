/**
 * Rules: response_type is required and must be `code` (the authorization code flow only);
 * response_mode, when sent, must be `query` — the only mode in which we deliver responses.
 */
import { AuthorizationError } from "./authorization-error";
import { single, type TAuthorizationParams } from "./params";

export function checkResponseType(params: TAuthorizationParams): void {
  const responseType = single(params, "response_type");
  if (responseType === undefined)
    throw new AuthorizationError("invalid_request", "response_type: is required");
  if (responseType !== "code") {
    throw new AuthorizationError(
      "unsupported_response_type",
      `response_type: "${responseType.slice(0, 64)}" is not supported; use code`,
    );
  }
  const mode = single(params, "response_mode");
  if (mode !== undefined && mode !== "query") {
    throw new AuthorizationError(
      "invalid_request",
      `response_mode: "${mode.slice(0, 64)}" is not supported; use query`,
    );
  }
}
