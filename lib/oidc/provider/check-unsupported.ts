/**
 * Rule: request objects (request, request_uri) and dynamic registration are not supported; OIDC
 * Core §6.1/§6.2/§7.2.1 name the errors to answer with. Everything else unknown is ignored.
 */
import { AuthorizationError } from "./authorization-error";
import type { TAuthorizationParams } from "./params";

export function checkUnsupportedParams(params: TAuthorizationParams): void {
  if (params.values.request !== undefined)
    throw new AuthorizationError("request_not_supported", "request: request objects are not supported");
  if (params.values.request_uri !== undefined) {
    throw new AuthorizationError("request_uri_not_supported", "request_uri: is not supported");
  }
  if (params.values.registration !== undefined) {
    throw new AuthorizationError("registration_not_supported", "registration: is not supported");
  }
}
