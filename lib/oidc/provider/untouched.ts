/**
 * The cap of untouched sessions per client: a session /oidc/{env}/auth starts is `untouched`
 * until its end-user acts on it (lib/verifications/create.ts), and an app may have at most
 * IDV_OIDC_UNTOUCHED_LIMIT of those created in the last hour.
 * Rules:
 * - over the cap, /auth starts no session and answers `temporarily_unavailable` (RFC 6749
 *   §4.1.2.1) the way every error after the client and redirect_uri checks goes: to the client's
 *   redirect_uri with state and iss, so the relying party can tell its user to try again;
 * - sessions an end-user acted on never count: an app whose users sign in is never capped, only
 *   one whose sign-ins are started and abandoned by the hundred (a flood of anonymous requests,
 *   from however many addresses; the per-address limit is lib/oidc/provider/rate-limit.ts);
 * - the count reads the partial index of untouched rows (migration 20261129030000) and stops at
 *   the cap; it is not serialised with concurrent requests, so a burst may pass the cap by at most
 *   the requests of that app in flight at once.
 */
import { config } from "../../config";
import type { Db } from "../../db/client";
import { countUntouchedSessions } from "../store/provider";
import { AuthorizationError } from "./authorization-error";

const WINDOW_MS = 3600 * 1000;

/** The error /auth answers once the app has IDV_OIDC_UNTOUCHED_LIMIT untouched sessions of the last hour. */
export async function checkUntouchedCap(db: Db, appId: string, now = new Date()): Promise<void> {
  const limit = config().limits.oidcUntouched;
  const count = await countUntouchedSessions(db, appId, new Date(now.getTime() - WINDOW_MS), limit);
  if (count >= limit) {
    throw new AuthorizationError(
      "temporarily_unavailable",
      "Too many sign-ins of this client were started and not continued; try again later",
    );
  }
}
