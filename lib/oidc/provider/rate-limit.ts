/**
 * The request-rate limit of the authorization endpoint (lib/rate-limit/requests.ts): over it,
 * the error page with `temporarily_unavailable` (RFC 6749 §4.1.2.1), status 429 and
 * Retry-After — never a redirect: the request has not been checked, so its client and
 * redirect_uri are not trusted.
 */
import { takeAuthorizationRequest, tooManyRequests } from "../../rate-limit/requests";
import { AuthorizationError } from "./authorization-error";
import { errorPage } from "./pages";

export async function limitAuthorizationRequest(request: Request): Promise<Response | null> {
  const wait = await takeAuthorizationRequest(request);
  if (wait === 0) return null;
  const response = errorPage(
    new AuthorizationError("temporarily_unavailable", tooManyRequests(wait), false),
    429,
  );
  response.headers.set("Retry-After", String(wait));
  return response;
}
