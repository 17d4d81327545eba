/**
 * The OpenID Provider's token endpoint (/oidc/{env}/token), authorization_code only.
 * Rules:
 * - the body and client authentication are the REST exchange's (lib/oidc/token-request.ts,
 *   lib/oidc/client-auth.ts): client_secret_basic or client_secret_post, 401 invalid_client;
 * - the code must pass lib/oidc/codes.ts (single-use, 60 s, bound to client, redirect_uri, PKCE,
 *   and issued by the OP: codes of the REST hosted-page return are refused);
 *   failures are RFC 6749's 400 invalid_grant here (the REST /token's 401 is the spec's own rule);
 *   a reused code revokes the access tokens issued from it;
 * - the answer: an opaque access token (ACCESS_TOKEN_TTL_SECONDS), token_type Bearer, expires_in,
 *   the ID token (with at_hash, no personal data) and the granted scope; never cached.
 */
import { kysely } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { currentRequestId } from "../../http/pipeline";
import { newId } from "../../ids";
import { OAuthError, oauthErrorResponse, oauthJsonResponse } from "../errors";
import { handleCodeGrant } from "../exchange";
import { requestIssuer } from "./issuer";
import { servesApp } from "../../domains/served-app";

export const ACCESS_TOKEN_TTL_SECONDS = 600;

export async function handleOidcTokenRequest(request: Request, environment: TEnvironment): Promise<Response> {
  const requestId = currentRequestId() ?? newId("req");
  const headers = { "X-Request-Id": requestId };
  try {
    const db = kysely();
    const result = await handleCodeGrant(db, request, environment, {
      surface: "op",
      issuerFor: (clientId) => {
        // a custom OIDC domain serves its own app only (lib/domains/served-app.ts); asked before
        // the code is looked at, so the code stays unused
        if (!servesApp(request.headers, clientId))
          throw new OAuthError("invalid_client", "Invalid client credentials", 401);
        return requestIssuer(db, environment, request, clientId);
      },
      invalidGrantStatus: 400,
      accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
      requestId,
    });
    return oauthJsonResponse(
      200,
      {
        access_token: result.accessToken,
        token_type: "Bearer",
        expires_in: ACCESS_TOKEN_TTL_SECONDS,
        id_token: result.idToken,
        scope: result.code.scope ?? "openid",
      },
      headers,
    );
  } catch (err) {
    if (err instanceof OAuthError) return oauthErrorResponse(err, headers);
    // anything else: the pipeline's 500 server_error (lib/http/pipeline.ts), logged once there
    throw err;
  }
}
