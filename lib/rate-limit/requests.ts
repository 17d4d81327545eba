/**
 * Request-rate limits of unauthenticated endpoints that write: every request counts, whatever
 * its outcome (generous defaults: an end-user makes a handful of these per sign-in).
 * - /oidc/{env}/auth and /select: IDV_OIDC_AUTH_LIMIT_IP per source address and minute
 *   (default 300); no limit per client_id: anyone can name a client, so such a limit would let
 *   one stranger lock out every user of an app;
 * - hosted-page actions (/verify/{id}/start|cancel|push|wallet|qr, the simulator's act):
 *   IDV_HOSTED_LIMIT_IP per address and minute (default 300) and IDV_HOSTED_LIMIT_SESSION per
 *   verification and minute (default 60; the qr page asks for a new frame every 5 s).
 * Over a limit: 429 with Retry-After, in the surface's own shape.
 */
import { jsonResponse } from "../hosted/headers";
import { config } from "../config";
import { clientIp, formatWait, take, type LimitSpec } from "./index";

const MINUTE = 60;

export function authorizationRequestLimit(): LimitSpec {
  return {
    name: "oidc_auth_ip",
    points: config().limits.oidcAuthIp,
    durationSeconds: MINUTE,
  };
}

export function hostedActionLimits(): { ip: LimitSpec; session: LimitSpec } {
  return {
    ip: { name: "hosted_ip", points: config().limits.hostedIp, durationSeconds: MINUTE },
    session: { name: "hosted_session", points: config().limits.hostedSession, durationSeconds: MINUTE },
  };
}

export function tooManyRequests(seconds: number): string {
  return `Too many requests. Try again in ${formatWait(seconds)}`;
}

/** Counts one /auth (or /select) request of the caller; the seconds to wait when over, else 0. */
export async function takeAuthorizationRequest(request: Request): Promise<number> {
  return take(authorizationRequestLimit(), clientIp(request.headers));
}

const SESSION_KEY = /^ver_[0-9A-Za-z]{1,64}$/;

/**
 * Counts one hosted-page action on session `id` (per address, and per session when `id` is a
 * verification id); over a limit, the hosted JSON envelope 429 RATE_LIMITED with Retry-After.
 */
export async function limitHostedAction(request: Request, id: string): Promise<Response | null> {
  const limits = hostedActionLimits();
  const [byIp, bySession] = await Promise.all([
    take(limits.ip, clientIp(request.headers)),
    SESSION_KEY.test(id) ? take(limits.session, id) : 0,
  ]);
  const wait = Math.max(byIp, bySession);
  if (wait === 0) return null;
  const response = jsonResponse(429, { error: { code: "RATE_LIMITED", message: tooManyRequests(wait) } });
  response.headers.set("Retry-After", String(wait));
  return response;
}
