/**
 * A custom domain serves only its own app.
 * Rules:
 * - the proxy (proxy.ts) drops any SERVED_APP_HEADER a client sends, on every host, and sets it to
 *   the domain's app (client_id) when it rewrites a request of an active custom domain
 *   (routing.ts); so the header is present exactly on requests that came in on a custom domain;
 * - on such a request the hosted pages and routes answer 404 for a verification of another app
 *   (as for an unknown id: nothing tells the two apart), and the OP treats another app's
 *   client_id as no client of this host (error page with 404, never a redirect; OAuth errors at
 *   /token and /userinfo);
 * - without the header (the service's own hosts) every app is served, as before.
 * Only the proxy sets the header; route handlers never trust a Host header for this.
 */
import type { Db } from "../db/client";
import { VERIFICATION_ID } from "../hosted/headers";
import { readVerificationApp } from "./store/routing";

export const SERVED_APP_HEADER = "x-idv-served-app";

/** The only app this request's host serves (a custom domain), or undefined on the service's own hosts. */
export function servedApp(headers: Headers): string | undefined {
  return headers.get(SERVED_APP_HEADER) ?? undefined;
}

/** Whether `appId`'s verifications and sign-ins may be served on this request's host. */
export function servesApp(headers: Headers, appId: string): boolean {
  const served = servedApp(headers);
  return served === undefined || served === appId;
}

/**
 * Whether verification `id` may be served on this request's host: always on the service's own
 * hosts; on a custom domain only a verification of the domain's app (one primary-key read).
 */
export async function servesVerification(db: Db, headers: Headers, id: string): Promise<boolean> {
  const served = servedApp(headers);
  if (served === undefined) return true;
  if (!VERIFICATION_ID.test(id)) return false;
  return (await readVerificationApp(db, id)) === served;
}
