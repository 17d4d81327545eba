/**
 * Rules (RFC 7636): PKCE is required when the client's policy says so (`required`:
 * policy.requirePkce of lib/oidc/profile.ts — the app's pkceRequired, always under fapi2), else
 * optional — our clients are confidential and authenticate at /token — but when used it must be S256. `plain` is refused, and so is a code_challenge without
 * code_challenge_method (RFC 7636 §4.3 makes that plain) and a method without a challenge.
 */
import { isValidCodeChallenge } from "../pkce";
import { AuthorizationError } from "./authorization-error";
import { single, type TAuthorizationParams } from "./params";

export function checkPkce(params: TAuthorizationParams, required = false): string | undefined {
  const challenge = single(params, "code_challenge");
  const method = single(params, "code_challenge_method");
  if (method !== undefined && method !== "S256") {
    throw new AuthorizationError(
      "invalid_request",
      `code_challenge_method: "${method.slice(0, 32)}" is not supported; use S256`,
    );
  }
  if (challenge === undefined) {
    if (method !== undefined)
      throw new AuthorizationError(
        "invalid_request",
        "code_challenge: is required with code_challenge_method",
      );
    if (required)
      throw new AuthorizationError(
        "invalid_request",
        "code_challenge: is required by this client (PKCE with code_challenge_method S256)",
      );
    return undefined;
  }
  if (method === undefined) {
    throw new AuthorizationError(
      "invalid_request",
      "code_challenge_method: is required (S256); the plain method is not supported",
    );
  }
  if (!isValidCodeChallenge(challenge)) {
    throw new AuthorizationError("invalid_request", "code_challenge: must be 43 base64url characters (S256)");
  }
  return challenge;
}
