/**
 * Ending console sessions on the server. Every session issued before a user's
 * `sessionsValidFrom` is refused by the API and never renewed (console-session.ts); this module
 * is the one place that moves it.
 */
import type { Tx } from "../db/client";

/**
 * Ends every console session of the user (password change, password reset, "sign out of all
 * sessions"): `sessionsValidFrom` becomes the start of the next second, because session issue
 * times are whole seconds.
 */
export async function endAllSessions(db: Tx, userId: string, extra: { passwordHash?: string } = {}) {
  const nextSecond = new Date((Math.floor(Date.now() / 1000) + 1) * 1000);
  await db.user.update({
    where: { id: userId },
    data: { ...extra, sessionsValidFrom: nextSecond },
    select: { id: true },
  });
}
