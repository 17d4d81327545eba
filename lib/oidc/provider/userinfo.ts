/**
 * The UserInfo endpoint (/oidc/{env}/userinfo), GET and POST.
 * Rules (RFC 6750):
 * - the access token comes in the Authorization header (Bearer) or, on POST, as access_token in
 *   a form body — exactly one of the two (§2: "MUST NOT use more than one method"); the query
 *   parameter is not supported;
 * - no token: 401 with a bare Bearer challenge; unknown, expired, revoked or another
 *   environment's token: 401 invalid_token; a malformed request: 400 invalid_request; every
 *   error carries WWW-Authenticate;
 * - the answer is the verification's userinfo, the same object as the REST userinfo.
 */
import { sha256Hex } from "../../crypto/hash";
import { getDb } from "../../db/client";
import type { TEnvironment } from "../../environments";
import { ApiError } from "../../http/errors";
import { newId } from "../../ids";
import { logger } from "../../log";
import { readUserinfo } from "../../verifications/service";

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
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      Pragma: "no-cache",
      ...headers,
    },
  });
}

/** The presented token, from the header or (POST) the form body. */
export async function readBearerToken(request: Request): Promise<string> {
  const header = request.headers.get("authorization");
  let fromBody: string | undefined;
  if (request.method === "POST") {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "application/x-www-form-urlencoded") {
      const form = new URLSearchParams((await request.text()).slice(0, 16 * 1024));
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
  const requestId = newId("req");
  try {
    const token = await readBearerToken(request);
    const db = getDb();
    const row =
      token.length <= 256
        ? await db.oidcAccessToken.findUnique({ where: { tokenHash: sha256Hex(token) } })
        : null;
    if (!row || row.environment !== environment)
      throw new BearerError(401, "invalid_token", "The access token is invalid");
    if (row.revokedAt) throw new BearerError(401, "invalid_token", "The access token has been revoked");
    if (row.expiresAt.getTime() <= Date.now())
      throw new BearerError(401, "invalid_token", "The access token has expired");
    const v = await db.verification.findUnique({ where: { id: row.verificationId } });
    const app = await db.app.findUnique({ where: { id: row.appId }, select: { deletedAt: true } });
    if (!v || !app || app.deletedAt)
      throw new BearerError(401, "invalid_token", "The access token is invalid");
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
      const body = err.code
        ? { error: err.code, error_description: err.message }
        : { error: "invalid_request", error_description: err.message };
      return respond(err.status, body, { "WWW-Authenticate": challenge(err), "X-Request-Id": requestId });
    }
    logger.error({ err, requestId }, "unhandled error");
    return respond(
      500,
      { error: "server_error", error_description: `Internal server error (${requestId})` },
      { "X-Request-Id": requestId },
    );
  }
}
