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
 *   read in one prepared statement (lib/oidc/store/provider.ts), outside any transaction.
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
import { readAccessToken } from "../store/provider";
import { servesApp } from "../../domains/served-app";

const REALM = 'Bearer realm="userinfo"';

class BearerError extends Error {
  constructor(
    readonly status: number,
    readonly code: "invalid_request" | "invalid_token" | undefined,
    description: string,
  ) {
    super(description);
  }
}

function challenge(err: BearerError): string {
  if (!err.code) return REALM;
  return `${REALM}, error="${err.code}", error_description="${err.message.replace(/["\\]/g, "")}"`;
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

/** The presented token, from the header or (POST) the form body. */
export async function readBearerToken(request: Request): Promise<string> {
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
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m)
      throw new BearerError(
        400,
        "invalid_request",
        "The Authorization header must be: Bearer <access token>",
      );
    return m[1]!;
  }
  if (fromBody !== undefined) return fromBody;
  throw new BearerError(401, undefined, "An access token is required");
}

export async function handleUserinfoRequest(request: Request, environment: TEnvironment): Promise<Response> {
  const requestId = currentRequestId() ?? newId("req");
  const ip = clientIp(request.headers);
  const blocked = addressBlocked(ip);
  if (blocked > 0) return oauthRateLimited(blocked, { "X-Request-Id": requestId });
  try {
    const token = await readBearerToken(request);
    const row = token.length <= 256 ? await readAccessToken(kysely(), sha256Hex(token)) : undefined;
    // on a custom OIDC domain, another app's token is as unknown as any (lib/domains/served-app.ts)
    if (!row || row.environment !== environment || !servesApp(request.headers, row.appId))
      throw new BearerError(401, "invalid_token", "The access token is invalid");
    if (row.revokedAt) throw new BearerError(401, "invalid_token", "The access token has been revoked");
    if (row.expiresAt.getTime() <= Date.now())
      throw new BearerError(401, "invalid_token", "The access token has expired");
    const v =
      row.verificationId === null || row.verificationStatus === null
        ? null
        : {
            id: row.verificationId,
            status: row.verificationStatus,
            personalDataDeletedAt: row.personalDataDeletedAt,
            resultEncrypted: row.resultEncrypted,
          };
    if (!v || !row.appLive) throw new BearerError(401, "invalid_token", "The access token is invalid");
    let userinfo: unknown;
    try {
      userinfo = readUserinfo(v);
    } catch (err) {
      if (err instanceof ApiError) throw new BearerError(401, "invalid_token", err.message);
      throw err;
    }
    return respond(200, userinfo, { "X-Request-Id": requestId });
  } catch (err) {
    if (err instanceof BearerError) {
      // a failed token check counts against the address (lib/rate-limit/credentials.ts)
      const wait = err.code === "invalid_token" ? await countCredentialFailure(ip) : 0;
      if (wait > 0) return oauthRateLimited(wait, { "X-Request-Id": requestId });
      const body = err.code
        ? { error: err.code, error_description: err.message }
        : { error: "invalid_request", error_description: err.message };
      return respond(err.status, body, { "WWW-Authenticate": challenge(err), "X-Request-Id": requestId });
    }
    // anything else (413, 503, 500): the pipeline answers (lib/http/pipeline.ts)
    throw err;
  }
}
