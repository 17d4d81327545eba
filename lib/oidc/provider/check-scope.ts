/**
 * Rules: scope is required and contains `openid` (OIDC Core §3.1.2.1; without it this is not an
 * OpenID request and we serve nothing else). Scope values we do not know are ignored (§3.1.2.1:
 * "SHOULD be ignored"); the known ones are kept, in the order sent, for the code and token.
 */
import { SCOPE_CLAIMS } from "../../providers/claims";
import { PROVIDERS } from "../../providers/catalog";
import { AuthorizationError } from "./authorization-error";
import { single, type TAuthorizationParams } from "./params";

/** The standard scopes plus every scope of the provider catalog. */
export function supportedScopes(): string[] {
  const out = new Set<string>(Object.keys(SCOPE_CLAIMS));
  for (const provider of PROVIDERS) for (const scope of provider.scopes) out.add(scope);
  return [...out];
}

export function checkScope(params: TAuthorizationParams): string {
  const scope = single(params, "scope");
  if (scope === undefined) throw new AuthorizationError("invalid_request", "scope: is required");
  const requested = scope.split(" ").filter(Boolean);
  if (!requested.includes("openid")) {
    throw new AuthorizationError("invalid_scope", 'scope: must contain "openid"');
  }
  const known = new Set(supportedScopes());
  return [...new Set(requested.filter((s) => known.has(s)))].join(" ");
}
