/**
 * The production-test request state machine (spec "Production test request").
 * Rules:
 * - a request starts `pending`; only an operator moves it, and only out of `pending`;
 * - `schedule` → `scheduled` (its challenge is created and request.challengeId set);
 * - `fail` → `failed` (with a reason shown to the integrator);
 * - `scheduled` and `failed` are final: a new test is a new request.
 * A challenge has no stored state of its own: it is active while neither completed (the last
 * stamp was claimed) nor expired, which is computed when read.
 */
import type { TTransitionTable } from "../state-machine";
import type { TRequestStatus } from "./schema";

export type TRequestAction = "schedule" | "fail";

export const REQUEST_TRANSITIONS: TTransitionTable<TRequestStatus, TRequestAction> = {
  schedule: [{ from: ["pending"], to: "scheduled" }],
  fail: [{ from: ["pending"], to: "failed" }],
};

export function isChallengeActive(
  challenge: { completedAt: Date | null; expiresAt: Date },
  now: Date = new Date(),
): boolean {
  return challenge.completedAt === null && challenge.expiresAt.getTime() > now.getTime();
}
