/**
 * Reading authorization request parameters (OIDC Core §3.1.2.1: GET query or POST form).
 * Rules: empty values count as absent (RFC 6749 §3.1); a parameter sent twice is remembered so
 * the checks can refuse it (§3.1: "MUST NOT be included more than once"); unknown parameters
 * are kept but never read, i.e. ignored.
 */
import { AuthorizationError } from "./authorization-error";

export interface TAuthorizationParams {
  values: Record<string, string>;
  repeated: Set<string>;
}

export const MAX_AUTHORIZATION_FORM_BYTES = 64 * 1024;

export function paramsFromSearch(search: URLSearchParams): TAuthorizationParams {
  const values: Record<string, string> = {};
  const repeated = new Set<string>();
  const seen = new Set<string>();
  for (const [name, value] of search) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
    if (value !== "") values[name] = value;
  }
  return { values, repeated };
}

export async function readAuthorizationParams(request: Request): Promise<TAuthorizationParams> {
  if (request.method !== "POST") return paramsFromSearch(new URL(request.url).searchParams);
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new AuthorizationError(
      "invalid_request",
      "A POST authorization request must be application/x-www-form-urlencoded",
      false,
    );
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_AUTHORIZATION_FORM_BYTES) {
    throw new AuthorizationError("invalid_request", "The authorization request is too large", false);
  }
  return paramsFromSearch(new URLSearchParams(text));
}

/** A parameter's value, refusing repeats (redirectable once the redirect_uri is trusted). */
export function single(params: TAuthorizationParams, name: string, redirectable = true): string | undefined {
  if (params.repeated.has(name)) {
    throw new AuthorizationError("invalid_request", `${name}: must not be sent more than once`, redirectable);
  }
  return params.values[name];
}
