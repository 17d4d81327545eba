/**
 * POST {base_url}/token: the REST code exchange (spec, App API table). It speaks OAuth, not the
 * REST envelope: form or JSON body, RFC 6749 error bodies, no-store caching.
 * Order of checks: readable body (400/413/415) → grant_type and code present (400) → client
 * authentication (400 for two methods at once, 401 invalid_client) → the code (401
 * invalid_grant). Success is exactly `{"id_token": "…"}` (spec).
 */
import { kysely } from "../db/client";
import type { TEnvironment } from "../environments";
import { currentRequestId } from "../http/pipeline";
import { newId } from "../ids";
import { OAuthError, oauthErrorResponse, oauthJsonResponse } from "./errors";
import { handleCodeGrant } from "./exchange";

export async function handleRestTokenRequest(request: Request, environment: TEnvironment): Promise<Response> {
  // request id, access log and unexpected errors (500 server_error): the pipeline's (lib/http/pipeline.ts)
  const requestId = currentRequestId() ?? newId("req");
  try {
    const result = await handleCodeGrant(kysely(), request, environment, {
      surface: "rest",
      includeVerificationId: true,
      requestId,
    });
    return oauthJsonResponse(200, { id_token: result.idToken }, { "X-Request-Id": requestId });
  } catch (err) {
    if (err instanceof OAuthError) return oauthErrorResponse(err, { "X-Request-Id": requestId });
    throw err;
  }
}
