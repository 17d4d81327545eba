/**
 * Reading a token request body (RFC 6749 §3.2, §4.1.3).
 * Rules:
 * - application/x-www-form-urlencoded (the OAuth format) or application/json (the spec's REST
 *   table), at most 64 KB; anything else is refused before parsing;
 * - every parameter is a string, sent at most once (§3.2); an empty value counts as absent
 *   (§3.1); unknown parameters are ignored, as §3.2 requires of token endpoints;
 * - no name or value may hold U+0000 or an unpaired surrogate (lib/http/safe-text.ts): 400
 *   invalid_request naming the parameter, before anything is looked up;
 * - grant_type must be authorization_code and code must be present; the failures name the
 *   parameter in error_description;
 * - client_assertion_type and client_assertion (private_key_jwt) are read for the OpenID
 *   Provider's /token (lib/oidc/client-auth.ts decides where they are accepted); they are not
 *   part of the REST /token's documented parameters.
 */
import { z } from "zod";
import { parseJsonText, readBodyText } from "../http/body";
import { ApiError } from "../errors";
import { isSafeText, printableText, UNSAFE_TEXT_MESSAGE } from "../http/safe-text";
import { OAuthError } from "./errors";

export const MAX_TOKEN_REQUEST_BYTES = 64 * 1024;

/** The parameters this service reads; documented in the OpenAPI description. */
export const ZTokenRequest = z.object({
  grant_type: z.literal("authorization_code").describe("Must be authorization_code"),
  code: z.string().describe("The authorization code the verification's redirect delivered"),
  redirect_uri: z
    .string()
    .optional()
    .describe("Required, and must be equal, when the code was issued for a redirect_uri"),
  code_verifier: z
    .string()
    .optional()
    .describe("PKCE verifier, when the code was issued with a code challenge"),
  client_id: z.string().optional().describe("client_secret_post: the app's clientId (instead of HTTP Basic)"),
  client_secret: z
    .string()
    .optional()
    .describe("client_secret_post: the app's clientSecret (instead of HTTP Basic)"),
});
export type TTokenRequest = z.infer<typeof ZTokenRequest>;

/** A code grant as read: the documented parameters and a client assertion (private_key_jwt). */
export type TCodeGrant = TTokenRequest & { client_assertion_type?: string; client_assertion?: string };

export type TTokenParams = Record<string, string>;

/** The body through the shared reader (lib/http/body.ts); its 413 as an OAuth error. */
async function readLimited(request: Request): Promise<string> {
  try {
    return await readBodyText(request, MAX_TOKEN_REQUEST_BYTES);
  } catch (err) {
    if (err instanceof ApiError && err.code === "PAYLOAD_TOO_LARGE") {
      throw new OAuthError(
        "invalid_request",
        `The request body exceeds ${MAX_TOKEN_REQUEST_BYTES / 1024} KB`,
        413,
      );
    }
    throw err;
  }
}

function checkSafe(name: string, value: string): void {
  if (!isSafeText(name) || !isSafeText(value)) {
    throw new OAuthError("invalid_request", `${printableText(name).slice(0, 64)}: ${UNSAFE_TEXT_MESSAGE}`);
  }
}

function fromForm(text: string): TTokenParams {
  const out: TTokenParams = {};
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(text)) {
    checkSafe(name, value);
    if (seen.has(name)) throw new OAuthError("invalid_request", `${name}: must not be sent more than once`);
    seen.add(name);
    if (value !== "") out[name] = value;
  }
  return out;
}

function fromJson(text: string): TTokenParams {
  let parsed: unknown;
  try {
    // nesting depth and value count are checked before JSON.parse (lib/http/body.ts)
    parsed = parseJsonText(text);
  } catch (err) {
    if (err instanceof ApiError && err.code === "JSON_TOO_COMPLEX")
      throw new OAuthError("invalid_request", err.message);
    throw new OAuthError("invalid_request", "The request body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new OAuthError("invalid_request", "The request body must be a JSON object of parameters");
  }
  const out: TTokenParams = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value === null || value === "") continue;
    if (typeof value !== "string") throw new OAuthError("invalid_request", `${name}: must be a string`);
    checkSafe(name, value);
    out[name] = value;
  }
  return out;
}

/** The body's parameters; throws OAuthError (400 / 413 / 415) on a body that cannot be read. */
export async function readTokenParams(request: Request): Promise<TTokenParams> {
  const text = await readLimited(request);
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (text.trim() === "" && mediaType === "") return {};
  if (mediaType === "application/x-www-form-urlencoded") return fromForm(text);
  if (mediaType === "application/json" || mediaType.endsWith("+json"))
    return text.trim() === "" ? {} : fromJson(text);
  throw new OAuthError(
    "invalid_request",
    `Content-Type must be application/x-www-form-urlencoded or application/json (got ${contentType ? `"${contentType}"` : "none"})`,
    415,
  );
}

/** The authorization_code grant's parameters, or the 400 that names what is wrong. */
export function parseCodeGrant(params: TTokenParams): TCodeGrant {
  if (params.grant_type === undefined) throw new OAuthError("invalid_request", "grant_type: is required");
  if (params.grant_type !== "authorization_code") {
    throw new OAuthError(
      "unsupported_grant_type",
      `grant_type: "${params.grant_type.slice(0, 64)}" is not supported; use authorization_code`,
    );
  }
  if (params.code === undefined) throw new OAuthError("invalid_request", "code: is required");
  return {
    grant_type: "authorization_code",
    code: params.code,
    ...(params.redirect_uri !== undefined ? { redirect_uri: params.redirect_uri } : {}),
    ...(params.code_verifier !== undefined ? { code_verifier: params.code_verifier } : {}),
    ...(params.client_id !== undefined ? { client_id: params.client_id } : {}),
    ...(params.client_secret !== undefined ? { client_secret: params.client_secret } : {}),
    ...(params.client_assertion_type !== undefined
      ? { client_assertion_type: params.client_assertion_type }
      : {}),
    ...(params.client_assertion !== undefined ? { client_assertion: params.client_assertion } : {}),
  };
}
