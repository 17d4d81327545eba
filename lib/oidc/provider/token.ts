/**
 * The OpenID Provider's token endpoint (/oidc/{env}/token), authorization_code only.
 * Rules:
 * - the body and client authentication are the REST exchange's (lib/oidc/token-request.ts,
 *   lib/oidc/client-auth.ts): client_secret_basic, client_secret_post or private_key_jwt (its
 *   audience the issuer this host speaks as), the app's registered method enforced, 401
 *   invalid_client;
 * - the code must pass lib/oidc/codes.ts (single-use, 60 s, bound to client, redirect_uri, PKCE,
 *   and issued by the OP: codes of the REST hosted-page return are refused);
 *   failures are RFC 6749's 400 invalid_grant here (the REST /token's 401 is the spec's own rule);
 *   a reused code revokes the access tokens issued from it;
 * - the answer: an opaque access token (ACCESS_TOKEN_TTL_SECONDS), token_type Bearer, expires_in,
 *   the ID token (with at_hash, no personal data) and the granted scope; never cached;
 * - DPoP (RFC 9449, lib/oidc/dpop.ts): a request with a valid proof (htu `{issuer}/token`, the
 *   issuer the request is served under) gets a DPoP-bound token, token_type DPoP; a bad proof is
 *   400 invalid_dpop_proof, a proof without the current nonce 400 use_dpop_nonce, both checked
 *   before the code is looked at (the code stays usable for the retry); a client whose policy
 *   requires DPoP (requireDpop, fapi2) sending no proof: 400 invalid_request; every answer to a
 *   request with a DPoP header carries a fresh DPoP-Nonce header (§8.2).
 */
import { kysely } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { currentRequestId } from "../../http/pipeline";
import { newId } from "../../ids";
import { OAuthError, oauthErrorResponse, oauthJsonResponse } from "../errors";
import { handleCodeGrant } from "../exchange";
import { checkDpopProof, currentDpopNonce, DPOP_NONCE_HEADER, dpopOAuthError, DpopError } from "../dpop";
import { cachedIssuer, requestIssuer } from "./issuer";
import { servedApp, servesApp } from "../../domains/served-app";

export const ACCESS_TOKEN_TTL_SECONDS = 600;

export async function handleOidcTokenRequest(request: Request, environment: TEnvironment): Promise<Response> {
  const requestId = currentRequestId() ?? newId("req");
  const headers: Record<string, string> = { "X-Request-Id": requestId };
  if (request.headers.has("dpop")) headers[DPOP_NONCE_HEADER] = currentDpopNonce();
  try {
    const db = kysely();
    // private_key_jwt's audience: the issuer this host speaks as (its custom domain's app's)
    const opIssuer = await cachedIssuer(environment, request, servedApp(request.headers));
    const result = await handleCodeGrant(db, request, environment, {
      surface: "op",
      op: { issuer: opIssuer, endpointUrl: `${opIssuer}/token` },
      issuerFor: (clientId) => {
        // a custom OIDC domain serves its own app only (lib/domains/served-app.ts); asked before
        // the code is looked at, so the code stays unused
        if (!servesApp(request.headers, clientId))
          throw new OAuthError("invalid_client", "Invalid client credentials", 401);
        return requestIssuer(db, environment, request, clientId);
      },
      checkDpop: async (client, issuer) => {
        let proof: { jkt: string } | undefined;
        try {
          proof = await checkDpopProof(db, request, {
            htu: `${issuer ?? ""}/token`,
            algs: client.policy.clientJwtAlgs,
            replayScope: `dpop:${client.clientId}`,
          });
        } catch (err) {
          if (err instanceof DpopError) throw dpopOAuthError(err);
          throw err;
        }
        if (!proof && client.policy.requireDpop)
          throw new OAuthError("invalid_request", "DPoP: this client must send a DPoP proof (DPoP header)");
        return proof?.jkt;
      },
      invalidGrantStatus: 400,
      accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
      requestId,
    });
    return oauthJsonResponse(
      200,
      {
        access_token: result.accessToken,
        token_type: result.dpopJkt !== undefined ? "DPoP" : "Bearer",
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
