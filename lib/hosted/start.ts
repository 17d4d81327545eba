/**
 * /verify/{id}/start, the redirect flow's "Continue to <provider>", after the hosted action's gate
 * (lib/hosted/action-gate.ts: rate limit, the served-session 404). Its steps, in order:
 * 1. the browser: a sign-in started in another browser does not continue here (`mayStart`; back
 *    to the page, which says so);
 * 2. the session: its row, or the hosted 404;
 * 3. the environment: sandbox → the session starts and the browser goes to the provider's
 *    simulator; production → the upstream of the session's connection, through its adapter's
 *    sign-in (lib/verifications/sign-in.ts), when that adapter signs in at all (else the page);
 * 4. errors: a sign-in the adapter refuses (an ApiError) sends the browser back to the page,
 *    which shows the session as it is; anything else is the request pipeline's.
 */
import { kysely } from "../db/client";
import type { Db } from "../db/kysely";
import type { TEnvironment } from "../environments";
import { ApiError } from "../errors";
import { beginSignIn, sessionAnswerChannel } from "../verifications/sign-in";
import { readStartSession } from "../verifications/store/hosted";
import { hostedSecretFrom } from "./binding";
import { seeOther, verificationNotFound } from "./headers";
import { leaveForProvider, mayStart } from "./session";
import { upstreamCookie } from "./upstream-cookie";

/** The session as the start reads it. */
export interface TStartSession {
  id: string;
  environment: TEnvironment;
  providerId: string;
  flowType: string;
}

/** The answer to GET /verify/{id}/start. */
export async function startVerification(request: Request, id: string): Promise<Response> {
  const db = kysely();
  if (!(await mayStart(db, id, hostedSecretFrom(request)))) return backToPage(id);
  const v = await readStartSession(db, id);
  if (!v) return verificationNotFound();
  return v.environment === "sandbox" ? toSimulator(db, v) : toUpstream(v);
}

/** The hosted page of the session, which shows it as it is. */
export function backToPage(id: string): Response {
  return seeOther(`/verify/${id}`);
}

/** Sandbox: the session starts (an ended one is left alone) and the browser goes to its simulator. */
export async function toSimulator(db: Db, v: TStartSession): Promise<Response> {
  await leaveForProvider(db, v.id);
  return seeOther(`/sandbox/verify/${v.id}?flow=${v.flowType}`);
}

/**
 * Production: the upstream sign-in of the session's connection. A form post (SAML) is
 * cross-site and carries no cookie: it finds the session from its RelayState; a redirect's
 * callback (/verify/callback) finds it from the upstream cookie set here.
 */
export async function toUpstream(v: TStartSession): Promise<Response> {
  if (!(await sessionAnswerChannel(v))) return backToPage(v.id);
  try {
    const { url, answer } = await beginSignIn(v.id);
    if (answer === "form_post") return seeOther(url);
    return seeOther(url, { "Set-Cookie": upstreamCookie(v.id) });
  } catch (err) {
    if (err instanceof ApiError) return backToPage(v.id);
    throw err;
  }
}
