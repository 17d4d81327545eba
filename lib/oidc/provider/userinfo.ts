/**
 * The UserInfo endpoint (/oidc/{env}/userinfo), GET and POST.
 * Rules (RFC 6750):
 * - the access token comes in the Authorization header (Bearer) or, on POST, as access_token in
 *   a form body — exactly one of the two (§2: "MUST NOT use more than one method"); the query
 *   parameter is not supported;
 * - no token: 401 with a bare Bearer challenge; unknown, expired, revoked or another
 *   environment's token: 401 invalid_token; a malformed request: 400 invalid_request; every
 *   error carries WWW-Authenticate;
 * - the answer is the verification's userinfo, the same object as the REST userinfo;
 * - invalid tokens count per address (lib/rate-limit/credentials.ts): over the limit, 429
 *   slow_down with Retry-After;
 * - the token (stored as its SHA-256), its verification's sealed userinfo and its app's state are
 *   read in one prepared statement (lib/oidc/store/provider.ts), outside any transaction;
 * - DPoP (RFC 9449 §7): a DPoP-bound token (its row has dpop_jkt) is accepted only as
 *   `Authorization: DPoP <token>` with a valid proof (lib/oidc/dpop.ts: htm the method, htu
 *   `{issuer}/userinfo` for the issuer the request is served under, ath the token's hash, the
 *   server nonce) of the very key it is bound to; presented as Bearer, without a proof, or with
 *   another key's proof it is 401 invalid_token; a bad proof is 401 invalid_dpop_proof, a proof
 *   without the current nonce 401 use_dpop_nonce with a DPoP-Nonce header (§9); a Bearer token
 *   presented with the DPoP scheme is invalid_token. A Bearer token used as Bearer is answered
 *   as before (a DPoP header beside it is not looked at);
 * - every 401 challenges with both schemes (§7.1): `Bearer realm="userinfo"` and `DPoP algs="…"`
 *   (the error attributes on the scheme the client used); every answer to a request with a DPoP
 *   header or scheme carries a fresh DPoP-Nonce header (§8.2).
 */
import { sha256Hex } from "../../crypto/hash";
import { kysely } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { readBodyText } from "../../http/body";
import { BufferedResponse } from "../../http/buffered-response";
import { ApiError } from "../../errors";
import { currentRequestId } from "../../http/pipeline";
import { newId } from "../../ids";
import { clientIp } from "../../rate-limit";
import { addressBlocked, countCredentialFailure } from "../../rate-limit/credentials";
import { oauthRateLimited } from "../../rate-limit/oauth";
import { readUserinfo } from "../../verifications/read";
import { checkDpopProof, currentDpopNonce, DPOP_NONCE_HEADER, DpopError } from "../dpop";
import { CLIENT_JWT_ALGS, FAPI2_CLIENT_JWT_ALGS } from "../profile";
import { readAccessToken } from "../store/provider";
import { cachedIssuer } from "./issuer";
import { servesApp } from "../../domains/served-app";

const REALM = 'Bearer realm="userinfo"';

type TBearerErrorCode = "invalid_request" | "invalid_token" | "invalid_dpop_proof" | "use_dpop_nonce";

class BearerError extends Error {
  constructor(
    readonly status: number,
    readonly code: TBearerErrorCode | undefined,
    description: string,
    /** the error is the DPoP scheme's (the client used it, or the token is DPoP-bound) */
    readonly dpop = false,
  ) {
    super(description);
  }
}

/** Both schemes (RFC 9449 §7.1), the error on the one it concerns. */
function challenge(err: BearerError, algs: readonly string[]): string {
  const dpop = `DPoP algs="${algs.join(" ")}"`;
  if (!err.code) return `${REALM}, ${dpop}`;
  const error = `error="${err.code}", error_description="${err.message.replace(/["\\]/g, "")}"`;
  return err.dpop ? `DPoP ${error}, algs="${algs.join(" ")}", ${REALM}` : `${REALM}, ${error}, ${dpop}`;
}

function respond(status: number, body: unknown, headers: Record<string, string>): Response {
  return new BufferedResponse(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      Pragma: "no-cache",
      ...headers,
    },
  });
}

/** A form carrying an access token: far below this. */
export const USERINFO_FORM_MAX_BYTES = 16 * 1024;

/** The presented token, from the header (Bearer or DPoP scheme) or (POST) the form body. */
export async function readPresentedToken(request: Request): Promise<{ token: string; dpop: boolean }> {
  const header = request.headers.get("authorization");
  let fromBody: string | undefined;
  if (request.method === "POST") {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "application/x-www-form-urlencoded") {
      // over the limit: 413 (lib/http/body.ts), never a silently shortened form
      const form = new URLSearchParams(await readBodyText(request, USERINFO_FORM_MAX_BYTES));
      if (form.getAll("access_token").length > 1)
        throw new BearerError(400, "invalid_request", "access_token: must not be sent more than once");
      fromBody = form.get("access_token") || undefined;
    }
  }
  if (header !== null) {
    if (fromBody !== undefined) {
      throw new BearerError(
        400,
        "invalid_request",
        "Send the access token in the Authorization header or the body, not both",
      );
    }
    const m = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m)
      throw new BearerError(
        400,
        "invalid_request",
        "The Authorization header must be: Bearer <access token> (or DPoP <access token>)",
      );
    return { token: m[2]!, dpop: m[1]!.toLowerCase() === "dpop" };
  }
  if (fromBody !== undefined) return { token: fromBody, dpop: false };
  throw new BearerError(401, undefined, "An access token is required");
}

export async function handleUserinfoRequest(request: Request, environment: TEnvironment): Promise<Response> {
  const requestId = currentRequestId() ?? newId("req");
  const ip = clientIp(request.headers);
  const blocked = addressBlocked(ip);
  const headers: Record<string, string> = { "X-Request-Id": requestId };
  if (request.headers.has("dpop") || /^\s*dpop\s/i.test(request.headers.get("authorization") ?? "")) {
    headers[DPOP_NONCE_HEADER] = currentDpopNonce();
  }
  if (blocked > 0) return oauthRateLimited(blocked, headers);
  // the DPoP algorithms of the token's client (all client JWT algorithms until it is known)
  let algs: readonly string[] = CLIENT_JWT_ALGS;
  try {
    const { token, dpop } = await readPresentedToken(request);
    const invalid = (description: string) => new BearerError(401, "invalid_token", description, dpop);
    const row = token.length <= 256 ? await readAccessToken(kysely(), sha256Hex(token)) : undefined;
    // on a custom OIDC domain, another app's token is as unknown as any (lib/domains/served-app.ts)
    if (!row || row.environment !== environment || !servesApp(request.headers, row.appId))
      throw invalid("The access token is invalid");
    if (row.revokedAt) throw invalid("The access token has been revoked");
    if (row.expiresAt.getTime() <= Date.now()) throw invalid("The access token has expired");
    if (row.oidcProfile === "fapi2") algs = FAPI2_CLIENT_JWT_ALGS;
    if (row.dpopJkt !== null) {
      // RFC 9449 §7.1: a bound token only with the DPoP scheme and a proof of its key
      if (!dpop)
        throw new BearerError(
          401,
          "invalid_token",
          "The access token is DPoP-bound: use the DPoP scheme",
          true,
        );
      const proof = await checkProof(request, environment, row.appId, token, algs);
      if (!proof) throw invalid("The access token is DPoP-bound: a DPoP proof is required");
      if (proof.jkt !== row.dpopJkt)
        throw invalid("The DPoP proof's key is not the one the access token is bound to");
    } else if (dpop) {
      throw invalid("The access token is not DPoP-bound: use the Bearer scheme");
    }
    const v =
      row.verificationId === null || row.verificationStatus === null
        ? null
        : {
            id: row.verificationId,
            status: row.verificationStatus,
            personalDataDeletedAt: row.personalDataDeletedAt,
            resultEncrypted: row.resultEncrypted,
          };
    if (!v || !row.appLive) throw invalid("The access token is invalid");
    let userinfo: unknown;
    try {
      userinfo = readUserinfo(v);
    } catch (err) {
      if (err instanceof ApiError) throw invalid(err.message);
      throw err;
    }
    return respond(200, userinfo, headers);
  } catch (err) {
    if (err instanceof BearerError) {
      // a failed token check counts against the address (lib/rate-limit/credentials.ts)
      const wait = err.code === "invalid_token" ? await countCredentialFailure(ip) : 0;
      if (wait > 0) return oauthRateLimited(wait, headers);
      const body = err.code
        ? { error: err.code, error_description: err.message }
        : { error: "invalid_request", error_description: err.message };
      return respond(err.status, body, { "WWW-Authenticate": challenge(err, algs), ...headers });
    }
    // anything else (413, 503, 500): the pipeline answers (lib/http/pipeline.ts)
    throw err;
  }
}

/** The request's DPoP proof for this token (undefined: none); its errors as 401 DPoP errors. */
async function checkProof(
  request: Request,
  environment: TEnvironment,
  clientId: string,
  accessToken: string,
  algs: readonly string[],
): Promise<{ jkt: string } | undefined> {
  const issuer = await cachedIssuer(environment, request, clientId);
  try {
    return await checkDpopProof(kysely(), request, {
      htu: `${issuer}/userinfo`,
      algs,
      replayScope: `dpop:${clientId}`,
      accessToken,
    });
  } catch (err) {
    if (err instanceof DpopError) throw new BearerError(401, err.code, err.message, true);
    throw err;
  }
}
