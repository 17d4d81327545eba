/**
 * The request-rate limit of the authorization endpoint (lib/rate-limit/requests.ts): over it,
 * the error page with `temporarily_unavailable` (RFC 6749 §4.1.2.1), status 429 and
 * Retry-After — never a redirect: the request has not been checked, so its client and
 * redirect_uri are not trusted.
 */
import { takeAuthorizationRequest, tooManyRequests } from "../../rate-limit/requests";
import { AuthorizationError } from "./authorization-error";
import { errorPage, type TOpErrorPage } from "./page";

export async function limitAuthorizationRequest(request: Request): Promise<TOpErrorPage | null> {
  const wait = await takeAuthorizationRequest(request);
  if (wait === 0) return null;
  return errorPage(new AuthorizationError("temporarily_unavailable", tooManyRequests(wait), false), 429, {
    reason: "busy",
    headers: { "Retry-After": String(wait) },
  });
}
