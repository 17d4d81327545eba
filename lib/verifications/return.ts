/**
 * Where the end-user's browser goes when a session has ended. Only the browser the session is
 * bound to is ever told (lib/hosted/binding.ts); computing the address mints nothing.
 * Rules:
 * - a session started by the OpenID Provider (/oidc/{env}/auth, viaOidcProvider) returns through
 *   the OP only — never the REST way, also once its request was purged — which
 *   answers its client: {issuer}/resume/{resumeToken}?p={proof} on the issuer the client used (a
 *   random token, not the verification id; the proof of the hosted page's browser); the OP answers
 *   once, and only to the browser holding the cookie /auth set (lib/oidc/provider/resume.ts);
 *   once answered there is nowhere to go;
 * - otherwise, when there is an address — the session's redirect_uri if it is still one of the
 *   app's redirectUris, else the app's defaultSuccessRedirectUri (completed) or
 *   defaultFailureRedirectUri (failed, cancelled, expired) — through /verify/{id}/return, on the
 *   hosted page's own host (where the browser's cookie lives);
 * - /verify/{id}/return is answered once (returnedAt, claimed with a conditional update): the
 *   browser goes to the address with verificationId, status and the session's state, and a
 *   completed session adds its one authorization code for the REST code exchange
 *   (POST {base_url}/token); later visits show the final page. So a session has at most one
 *   code, however often its status is polled.
 */
import { publicUrl } from "../config";
import type { Verification } from "../db/rows";
import type { Db } from "../db/kysely";
import { issueCode } from "../oidc/codes";
import { isTerminal } from "./state-machine";
import { readOidcRequestOf, readReturnAddresses } from "./store/binding";
import { claimReturn, readVerification } from "./store/session";

type TReturnSession = Pick<
  Verification,
  "id" | "appId" | "environment" | "status" | "redirectUri" | "state" | "returnedAt" | "viaOidcProvider"
>;

/** The registered address a REST session returns to, without parameters; null: none. */
async function restTarget(db: Db, v: TReturnSession): Promise<string | null> {
  // a session of the OpenID Provider never returns the REST way, even once its request was purged
  // (lib/oidc/purge.ts); channel "oidc" does not tell (REST sessions with a hosted page have it)
  if (v.viaOidcProvider) return null;
  const app = await readReturnAddresses(db, v.appId);
  if (!app || app.deletedAt) return null;
  const sessionTarget = v.redirectUri && app.redirectUris.includes(v.redirectUri) ? v.redirectUri : null;
  const fallback = v.status === "completed" ? app.defaultSuccessRedirectUri : app.defaultFailureRedirectUri;
  return sessionTarget ?? fallback ?? null;
}

/**
 * Where the bound browser of an ended session goes now; null: the final page. Mints nothing.
 * `resumeProof`: the OpenID Provider's resume proof of that browser (lib/hosted/binding.ts).
 */
export async function nextUrlFor(db: Db, v: TReturnSession, resumeProof?: string): Promise<string | null> {
  return nextUrlOf(db, v, resumeProof);
}

/** nextUrlFor on the data layer's handle. */
export async function nextUrlOf(db: Db, v: TReturnSession, resumeProof?: string): Promise<string | null> {
  if (v.viaOidcProvider) {
    const oidc = await readOidcRequestOf(db, v.id);
    if (!oidc || oidc.completedAt || !oidc.resumeToken) return null;
    // back through the issuer the client talked to (a custom oidcDomain is rewritten to /oidc/{env})
    const issuer = oidc.issuer ?? `${publicUrl()}/oidc/${v.environment}`;
    return `${issuer}/resume/${oidc.resumeToken}${resumeProof ? `?p=${resumeProof}` : ""}`;
  }
  if (v.returnedAt) return null;
  return (await restTarget(db, v)) ? `/verify/${v.id}/return` : null;
}

/**
 * /verify/{id}/return for the bound browser: the REST return, answered once. Returns the address
 * (with the session's one code when completed), or null when there is nothing (more) to answer.
 */
export async function answerHostedReturn(db: Db, verificationId: string): Promise<string | null> {
  const v = await readVerification(db, verificationId);
  if (!v || v.viaOidcProvider || !isTerminal(v.status) || v.returnedAt) return null;
  const target = await restTarget(db, v);
  if (!target) return null;
  // of two concurrent visits, one answers
  if (!(await claimReturn(db, verificationId, new Date()))) return null;
  const url = new URL(target);
  url.searchParams.set("verificationId", v.id);
  url.searchParams.set("status", v.status);
  if (v.state) url.searchParams.set("state", v.state);
  if (v.status === "completed") {
    const code = await issueCode(db, {
      appId: v.appId,
      environment: v.environment,
      surface: "rest",
      verificationId: v.id,
    });
    url.searchParams.set("code", code);
  }
  return url.toString();
}
