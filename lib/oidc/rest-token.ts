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
import { authenticateClient } from "./client-auth";
import { OAuthError, oauthErrorResponse, oauthJsonResponse } from "./errors";
import { exchangeAuthorizationCode } from "./exchange";
import { parseCodeGrant, readTokenParams } from "./token-request";

export async function handleRestTokenRequest(request: Request, environment: TEnvironment): Promise<Response> {
  const started = performance.now();
  const requestId = newId("req");
  const url = new URL(request.url);
  let status = 500;
  try {
    const params = await readTokenParams(request);
    const grant = parseCodeGrant(params);
    const db = getDb();
    const client = await authenticateClient(db, environment, {
      authorization: request.headers.get("authorization"),
      ...(grant.client_id !== undefined ? { clientId: grant.client_id } : {}),
      ...(grant.client_secret !== undefined ? { clientSecret: grant.client_secret } : {}),
    });
    const result = await exchangeAuthorizationCode(db, {
      environment,
      client,
      code: grant.code,
      ...(grant.redirect_uri !== undefined ? { redirectUri: grant.redirect_uri } : {}),
      ...(grant.code_verifier !== undefined ? { codeVerifier: grant.code_verifier } : {}),
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
