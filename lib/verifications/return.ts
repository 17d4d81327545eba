/**
 * Where the end-user's browser goes when a session has ended.
 * Rules:
 * - a session started by the OpenID Provider (/oidc/{env}/auth) returns through the OP, which
 *   answers its client: {issuer}/resume/{verificationId}, on the issuer the client used;
 * - otherwise the session's redirect_uri, else the app's defaultSuccessRedirectUri (completed) or
 *   defaultFailureRedirectUri (failed, cancelled, expired), else nowhere (the hosted page shows
 *   the final page);
 * - only registered addresses are ever used: the session's redirect_uri must still be one of the
 *   app's redirectUris at the time of return;
 * - the query carries verificationId, status and the session's state; a completed session adds a
 *   one-time authorization code for the REST code exchange (POST {base_url}/token) only.
 */
import type { Tx } from "../db/client";
import { ApiError, notFound } from "../http/errors";
import { issueAuthorizationCode } from "../oidc/codes";
import { publicUrl } from "./settings";
import { isTerminal } from "./states";

export async function returnUrlFor(db: Tx, verificationId: string): Promise<string | null> {
  const v = await db.verification.findUnique({ where: { id: verificationId } });
  if (!v) throw notFound(`Verification "${verificationId}"`);
  if (!isTerminal(v.status)) {
    throw new ApiError("VERIFICATION_STATE_CONFLICT", `Verification "${v.id}" is still ${v.status}`);
  }
  const oidc = await db.oidcAuthorizationRequest.findUnique({ where: { verificationId: v.id } });
  // back through the issuer the client talked to (a custom oidcDomain is rewritten to /oidc/{env})
  if (oidc) return `${oidc.issuer ?? `${publicUrl()}/oidc/${v.environment}`}/resume/${v.id}`;

  const app = await db.app.findUnique({ where: { id: v.appId } });
  if (!app || app.deletedAt) return null;
  const completed = v.status === "completed";
  const sessionTarget = v.redirectUri && app.redirectUris.includes(v.redirectUri) ? v.redirectUri : null;
  const target =
    sessionTarget ?? (completed ? app.defaultSuccessRedirectUri : app.defaultFailureRedirectUri) ?? null;
  if (!target) return null;

  const url = new URL(target);
  url.searchParams.set("verificationId", v.id);
  url.searchParams.set("status", v.status);
  if (v.state) url.searchParams.set("state", v.state);
  if (completed) {
    const code = await issueAuthorizationCode(db, {
      appId: v.appId,
      environment: v.environment,
      surface: "rest",
      verificationId: v.id,
    });
    url.searchParams.set("code", code);
  }
  return url.toString();
}
