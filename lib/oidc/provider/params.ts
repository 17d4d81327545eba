/**
 * Reading authorization request parameters (OIDC Core §3.1.2.1: GET query or POST form).
 * Rules: empty values count as absent (RFC 6749 §3.1); a parameter sent twice is remembered so
 * the checks can refuse it (§3.1: "MUST NOT be included more than once"); unknown parameters
 * are kept but never read, i.e. ignored; a name or value holding U+0000 (`%00`) or an unpaired
 * surrogate is refused on the error page, never redirected (lib/http/safe-text.ts), before
 * anything is looked up or stored.
 */
import { readBodyText } from "../../http/body";
import { isSafeText, printableText, UNSAFE_TEXT_MESSAGE } from "../../http/safe-text";
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
    if (!isSafeText(name) || !isSafeText(value)) {
      throw new AuthorizationError(
        "invalid_request",
        `${printableText(name).slice(0, 64)}: ${UNSAFE_TEXT_MESSAGE}`,
        false,
      );
    }
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
  // over the limit: 413 on the error page (lib/http/body.ts), before the rest is read
  const text = await readBodyText(request, MAX_AUTHORIZATION_FORM_BYTES);
  return paramsFromSearch(new URLSearchParams(text));
}

/** A parameter's value, refusing repeats (redirectable once the redirect_uri is trusted). */
export function single(params: TAuthorizationParams, name: string, redirectable = true): string | undefined {
  if (params.repeated.has(name)) {
    throw new AuthorizationError("invalid_request", `${name}: must not be sent more than once`, redirectable);
  }
  return params.values[name];
}
