/**
 * The pushed authorization request endpoint (RFC 9126) at {issuer}/par.
 * Rules:
 * - POST with an application/x-www-form-urlencoded body (at most 64 KB, no NUL or unpaired
 *   surrogate; every other method is the route's 405 with Allow);
 * - the client authenticates exactly as at /token (lib/oidc/client-auth.ts with `op`: the app's
 *   registered method, private_key_jwt with `aud` the issuer or this endpoint); on a custom OIDC
 *   domain only that domain's app is a client (401 invalid_client otherwise, before anything else);
 * - the body's other parameters are an authorization request of that client: a body client_id
 *   must name it (it is the client_id when absent); `request_uri` is refused (§2.1); a `request`
 *   object is verified and unpacked (./request-object.ts) and its parameters are the request;
 *   then the checks /auth runs on its parameters (redirect_uri registered, response_type, scope,
 *   PKCE — required by the client's policy —, dpop_jkt, prompt, max_age, acr_values, ui_locales,
 *   provider, parameters sent twice); /auth runs every check again when the request_uri comes;
 * - every refusal is a JSON answer {error, error_description} (never a redirect), 400 (401 for
 *   client authentication), Cache-Control no-store, with the authorization endpoint's error codes;
 * - DPoP (RFC 9449 §10.1): a `DPoP` header is a proof checked like at /token (lib/oidc/dpop.ts,
 *   htu = this endpoint); `dpop_jkt` and a proof must name the same key (invalid_dpop_proof); the
 *   key of either is stored with the request, and the code will be bound to it;
 * - success: 201 {request_uri: urn:ietf:params:oauth:request_uri:<256 random bits, base64url>,
 *   expires_in: parTtlSeconds()}; the row holds the SHA-256 of the random part (store/pushed.ts),
 *   the parameters (no client credentials, no request object) and the DPoP key; it is used once, at
 *   /auth (./request-source.ts).
 */
import { randomBytes } from "node:crypto";
import { decodeJwt } from "jose";
import { parseAuthorization } from "../../auth/header";
import { sha256Hex } from "../../crypto/hash";
import { kysely } from "../../db/client";
import { servesApp } from "../../domains/served-app";
import type { TEnvironment } from "../../environments";
import { ApiError } from "../../errors";
import { readBodyText } from "../../http/body";
import { currentRequestId } from "../../http/pipeline";
import { newId } from "../../ids";
import { clientIp } from "../../rate-limit";
import { config } from "../../config";
import { authenticateClient } from "../client-auth";
import { checkDpopProof, currentDpopNonce, DPOP_NONCE_HEADER, DpopError } from "../dpop";
import { OAuthError, oauthErrorResponse, oauthJsonResponse } from "../errors";
import { clientPolicy } from "../profile";
import { insertPushedRequest } from "../store/pushed";
import { AuthorizationError } from "./authorization-error";
import { availableProviders } from "./authorize";
import { checkAcrValues } from "./check-acr-values";
import { checkClient } from "./check-client";
import { checkPkce } from "./check-pkce";
import { checkMaxAge, checkPrompt, checkUiLocales } from "./check-prompt";
import { checkProvider } from "./check-provider";
import { checkRedirectUri } from "./check-redirect-uri";
import { checkResponseType } from "./check-response-type";
import { checkScope } from "./check-scope";
import { checkUnsupportedParams } from "./check-unsupported";
import { requestIssuer } from "./issuer";
import { MAX_AUTHORIZATION_FORM_BYTES, paramsFromSearch, single, type TAuthorizationParams } from "./params";
import { verifyRequestObject } from "./request-object";
import { checkDpopJkt, PAR_REQUEST_URI_PREFIX } from "./request-source";

/**
 * Lifetime of a request_uri, seconds (RFC 9126 §2.2: short; FAPI 2.0: under 600 s):
 * IDV_OIDC_PAR_TTL_SECONDS, 10–600, default 60.
 */
export function parTtlSeconds(): number {
  return Math.floor(config().oidcParTtlSeconds);
}

/** The client's credentials: read by client authentication, never stored with the request. */
const CLIENT_AUTH_PARAMS = ["client_secret", "client_assertion", "client_assertion_type"] as const;

/** A refusal in the authorization endpoint's vocabulary, as a JSON answer. */
class ParError extends Error {
  constructor(
    readonly code: string,
    description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "ParError";
  }
}

async function readForm(request: Request): Promise<TAuthorizationParams> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded")
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded");
  let text: string;
  try {
    text = await readBodyText(request, MAX_AUTHORIZATION_FORM_BYTES);
  } catch (err) {
    if (err instanceof ApiError && err.code === "PAYLOAD_TOO_LARGE")
      throw new OAuthError(
        "invalid_request",
        `The request body exceeds ${MAX_AUTHORIZATION_FORM_BYTES / 1024} KB`,
        413,
      );
    throw err;
  }
  return paramsFromSearch(new URLSearchParams(text));
}

/** The client the request names before it is authenticated (for the custom domain's rule). */
function namedClient(authorization: string | null, params: TAuthorizationParams): string | undefined {
  if (params.values.client_id !== undefined) return params.values.client_id;
  const parsed = parseAuthorization(authorization);
  if (parsed.scheme === "basic") return parsed.username;
  const assertion = params.values.client_assertion;
  if (assertion === undefined) return undefined;
  try {
    const iss = decodeJwt(assertion).iss;
    return typeof iss === "string" ? iss : undefined;
  } catch {
    return undefined;
  }
}

export async function handlePushedAuthorizationRequest(
  request: Request,
  environment: TEnvironment,
): Promise<Response> {
  const requestId = currentRequestId() ?? newId("req");
  const headers = { "X-Request-Id": requestId };
  try {
    const db = kysely();
    const body = await readForm(request);
    for (const name of ["client_id", ...CLIENT_AUTH_PARAMS])
      if (body.repeated.has(name))
        throw new OAuthError("invalid_request", `${name}: must not be sent more than once`);
    const authorization = request.headers.get("authorization");
    const named = namedClient(authorization, body);
    // a custom OIDC domain serves its own app only (lib/domains/served-app.ts)
    if (named !== undefined && !servesApp(request.headers, named))
      throw new OAuthError("invalid_client", "Invalid client credentials", 401);
    const issuer = await requestIssuer(db, environment, request, named);
    const { values } = body;
    const client = await authenticateClient(db, environment, {
      authorization,
      ...(values.client_id !== undefined ? { clientId: values.client_id } : {}),
      ...(values.client_secret !== undefined ? { clientSecret: values.client_secret } : {}),
      ...(values.client_assertion_type !== undefined
        ? { clientAssertionType: values.client_assertion_type }
        : {}),
      ...(values.client_assertion !== undefined ? { clientAssertion: values.client_assertion } : {}),
      ip: clientIp(request.headers),
      op: { issuer, endpointUrl: `${issuer}/par` },
    });
    const clientId = client.clientId;
    if (!servesApp(request.headers, clientId))
      throw new OAuthError("invalid_client", "Invalid client credentials", 401);
    if (values.client_id !== undefined && values.client_id !== clientId)
      throw new OAuthError("invalid_request", "client_id: must be the authenticated client");
    if (values.request_uri !== undefined)
      throw new OAuthError(
        "invalid_request",
        "request_uri: must not be sent to the pushed authorization request endpoint",
      );
    const app = await checkClient(db, environment, { values: { client_id: clientId }, repeated: new Set() });
    const policy = clientPolicy(app);

    // the authorization request: the request object's parameters, or the body's
    let params: TAuthorizationParams;
    if (values.request !== undefined) {
      const claims = await verifyRequestObject(single(body, "request")!, {
        client: app,
        algs: policy.clientJwtAlgs,
        issuer,
        clientId,
      });
      params = { values: { ...claims, client_id: clientId }, repeated: new Set() };
    } else {
      const own: Record<string, string> = { ...values, client_id: clientId };
      for (const name of CLIENT_AUTH_PARAMS) delete own[name];
      params = { values: own, repeated: body.repeated };
    }

    // the checks of /auth, in its order (./authorize.ts); /auth runs them again at the request_uri
    checkRedirectUri(app.redirectUris, params);
    checkUnsupportedParams(params);
    checkResponseType(params);
    checkScope(params);
    checkPkce(params, policy.requirePkce);
    const dpopJkt = checkDpopJkt(params);
    checkPrompt(params);
    checkMaxAge(params);
    const { minLoa } = checkAcrValues(params);
    checkUiLocales(params);
    single(params, "state");
    single(params, "nonce");
    checkProvider(app, params, await availableProviders(db, environment, app), minLoa);

    // DPoP (RFC 9449 §10.1): the proof's key and dpop_jkt must agree
    let proof: { jkt: string } | undefined;
    try {
      proof = await checkDpopProof(db, request, {
        htu: `${issuer}/par`,
        algs: policy.clientJwtAlgs,
        replayScope: `dpop:${clientId}`,
      });
    } catch (err) {
      if (err instanceof DpopError)
        throw new ParError(err.code, err.message, { [DPOP_NONCE_HEADER]: currentDpopNonce() });
      throw err;
    }
    if (proof && dpopJkt !== undefined && proof.jkt !== dpopJkt)
      throw new ParError("invalid_dpop_proof", "dpop_jkt: does not match the key of the DPoP proof");

    const random = randomBytes(32).toString("base64url");
    const stored = { ...params.values };
    delete stored.dpop_jkt;
    const now = new Date();
    const ttl = parTtlSeconds();
    await insertPushedRequest(db, {
      id: sha256Hex(random),
      appId: clientId,
      environment,
      params: stored,
      dpopJkt: proof?.jkt ?? dpopJkt ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    });
    return oauthJsonResponse(
      201,
      { request_uri: `${PAR_REQUEST_URI_PREFIX}${random}`, expires_in: ttl },
      headers,
    );
  } catch (err) {
    if (err instanceof OAuthError) return oauthErrorResponse(err, headers);
    if (err instanceof AuthorizationError || err instanceof ParError)
      return oauthJsonResponse(
        400,
        { error: err.code, error_description: err.message },
        { ...(err instanceof ParError ? err.headers : {}), ...headers },
      );
    // anything else: the pipeline's 500 server_error (lib/http/pipeline.ts), logged once there
    throw err;
  }
}
