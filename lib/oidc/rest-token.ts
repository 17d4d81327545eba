/**
 * POST {base_url}/token: the REST code exchange (spec, App API table). It speaks OAuth, not the
 * REST envelope: form or JSON body, RFC 6749 error bodies, no-store caching.
 * Order of checks: readable body (400/413/415) → grant_type and code present (400) → client
 * authentication (400 for two methods at once, 401 invalid_client) → the code (401
 * invalid_grant). Success is exactly `{"id_token": "…"}` (spec).
 */
import { getDb } from "../db/client";
import type { TEnvironment } from "../environments";
import { newId } from "../ids";
import { logger } from "../log";
import { OAuthError, oauthErrorResponse, oauthJsonResponse } from "./errors";
import { handleCodeGrant } from "./exchange";

export async function handleRestTokenRequest(request: Request, environment: TEnvironment): Promise<Response> {
  const started = performance.now();
  const requestId = newId("req");
  const url = new URL(request.url);
  let status = 500;
  try {
    const result = await handleCodeGrant(getDb(), request, environment, {
      surface: "rest",
      includeVerificationId: true,
      requestId,
    });
    status = 200;
    return oauthJsonResponse(200, { id_token: result.idToken }, { "X-Request-Id": requestId });
  } catch (err) {
    if (err instanceof OAuthError) {
      status = err.status;
      return oauthErrorResponse(err, { "X-Request-Id": requestId });
    }
    logger.error({ err, requestId, method: request.method, path: url.pathname }, "unhandled error");
    status = 500;
    return oauthErrorResponse(
      new OAuthError(
        "server_error",
        `Internal server error. Quote the requestId ${requestId} when contacting support`,
        500,
      ),
      { "X-Request-Id": requestId },
    );
  } finally {
    logger.info(
      {
        requestId,
        method: request.method,
        path: url.pathname,
        status,
        ms: Math.round(performance.now() - started),
      },
      "request",
    );
  }
}
