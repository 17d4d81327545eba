/**
 * Rules: response_type is required and must be `code` (the authorization code flow only);
 * response_mode, when sent, must be `query` (the default) or `form_post` (OAuth 2.0 Form Post
 * Response Mode) — the modes we deliver answers in (./form-post.ts). `fragment` is not offered
 * for the code flow (OAuth 2.0 Multiple Response Types §2.1: the code travels in the query) and
 * `jwt` (JARM) not at all: both, like any unknown mode, are invalid_request, answered in the
 * default mode.
 */
import { AuthorizationError } from "./authorization-error";
import type { TResponseMode } from "./form-post";
import { single, type TAuthorizationParams } from "./params";

const MODES: ReadonlySet<string> = new Set<TResponseMode>(["query", "form_post"]);

/** The response mode asked for (query when none). */
export function checkResponseType(params: TAuthorizationParams): TResponseMode {
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
  if (mode !== undefined && !MODES.has(mode)) {
    throw new AuthorizationError(
      "invalid_request",
      `response_mode: "${mode.slice(0, 64)}" is not supported; use query or form_post`,
    );
  }
  return (mode ?? "query") as TResponseMode;
}
