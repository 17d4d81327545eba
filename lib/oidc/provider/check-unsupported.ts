/**
 * Rules: request_uri by reference is supported only for the values of our PAR endpoint
 * (./request-source.ts resolves those, and `request` objects, before this check runs); any other
 * request_uri (https://…) and dynamic registration are not supported, with the errors OIDC Core
 * §6.2/§7.2.1 name. Everything else unknown is ignored.
 */
import { AuthorizationError } from "./authorization-error";
import type { TAuthorizationParams } from "./params";

export function checkUnsupportedParams(params: TAuthorizationParams): void {
  // a request object still here was not resolved (it never is once request-source.ts ran)
  if (params.values.request !== undefined)
    throw new AuthorizationError("request_not_supported", "request: request objects are not supported here");
  if (params.values.request_uri !== undefined) {
    throw new AuthorizationError(
      "request_uri_not_supported",
      "request_uri: only the request_uri values of the pushed authorization request endpoint (PAR) are supported",
    );
  }
  if (params.values.registration !== undefined) {
    throw new AuthorizationError("registration_not_supported", "registration: is not supported");
  }
}
