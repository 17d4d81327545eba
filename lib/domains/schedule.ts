/**
 * When the service checks a pending custom domain's DNS again by itself (lib/domains/recheck.ts).
 * Rules:
 * - only pending domains (awaiting_dns, verifying) are re-checked: an active domain is served, an
 *   invalid one waits for the integrator to fix a record and verify;
 * - the delays grow — 1 min, 5 min, 15 min and 1 h after the previous check, then every 6 h — so
 *   records that show within minutes (most do) are found within minutes, and a domain whose
 *   records never come is not looked up every minute for days;
 * - the count starts over whenever a domain becomes pending (configure, or a check that moves it
 *   there) and after every verify by hand (whoever pressed it has probably just changed DNS);
 * - no check is planned beyond RECHECK_GIVE_UP_DAYS after that start: a record that has not
 *   appeared in a week is not coming by itself. The domain stays pending and says so; a verify
 *   starts the schedule over.
 * Pure functions: the caller writes the result with the check that produced it.
 */
import type { TDomainStatus } from "./state-machine";

export const RECHECK_DELAYS_MINUTES: readonly number[] = [1, 5, 15, 60, 360];
export const RECHECK_GIVE_UP_DAYS = 7;

const MINUTE_MS = 60_000;
const GIVE_UP_MS = RECHECK_GIVE_UP_DAYS * 24 * 60 * MINUTE_MS;

export const PENDING_STATUSES = ["awaiting_dns", "verifying"] as const satisfies readonly TDomainStatus[];

export function isPendingStatus(status: string): boolean {
  return (PENDING_STATUSES as readonly string[]).includes(status);
}

/** The wait after `done` automatic checks before the next one (the last delay repeats). */
export function recheckDelayMs(done: number): number {
  const index = Math.min(Math.max(0, Math.floor(done)), RECHECK_DELAYS_MINUTES.length - 1);
  return RECHECK_DELAYS_MINUTES[index]! * MINUTE_MS;
}

/**
 * When the next automatic check is due after `done` of them in a pending spell that began at
 * `pendingSince`; null when it would fall after the give-up time.
 */
export function nextRecheckAt(done: number, pendingSince: Date, now: Date): Date | null {
  const at = new Date(now.getTime() + recheckDelayMs(done));
  return at.getTime() > pendingSince.getTime() + GIVE_UP_MS ? null : at;
}

export interface TRecheckSchedule {
  nextCheckAt: Date | null;
  autoChecks: number;
  pendingSince: Date | null;
  /** a pending domain whose automatic checks just ended */
  gaveUp: boolean;
}

/** The schedule of a domain that just became pending (configure) or was verified by hand. */
export function startRecheckSchedule(now: Date): TRecheckSchedule {
  return { nextCheckAt: nextRecheckAt(0, now, now), autoChecks: 0, pendingSince: now, gaveUp: false };
}

/**
 * The schedule after a check that left the domain in `status`. An automatic check of a domain
 * that was already pending continues its spell; anything else starts one (or ends it).
 */
export function scheduleAfterCheck(input: {
  status: string;
  previous: { status: string; autoChecks: number; pendingSince: Date | null };
  automatic: boolean;
  now: Date;
}): TRecheckSchedule {
  const { status, previous, automatic, now } = input;
  if (!isPendingStatus(status))
    return { nextCheckAt: null, autoChecks: 0, pendingSince: null, gaveUp: false };
  if (!automatic || !isPendingStatus(previous.status) || !previous.pendingSince)
    return startRecheckSchedule(now);
  const done = previous.autoChecks + 1;
  const nextCheckAt = nextRecheckAt(done, previous.pendingSince, now);
  return { nextCheckAt, autoChecks: done, pendingSince: previous.pendingSince, gaveUp: nextCheckAt === null };
}

/** The sentence added to the status message when automatic checks end. */
export const GAVE_UP_MESSAGE = `Automatic checks stopped after ${RECHECK_GIVE_UP_DAYS} days; verify again once the records are in place.`;
