/**
 * Rule: redirect_uri is required (OIDC Core §3.1.2.1) and equal, character for character, to one
 * of the app's registered redirectUris. No normalisation: a lenient comparison is how open
 * redirectors start. A failure is shown on the error page, never redirected.
 */
import { pageError } from "./authorization-error";
import { single, type TAuthorizationParams } from "./params";

export function checkRedirectUri(registered: readonly string[], params: TAuthorizationParams): string {
  const redirectUri = single(params, "redirect_uri", false);
  if (redirectUri === undefined) throw pageError("redirect_uri: is required");
  if (!registered.includes(redirectUri)) {
    throw pageError("redirect_uri: is not one of the client's registered redirect URIs");
  }
  return redirectUri;
}
