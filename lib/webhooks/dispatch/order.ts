/**
 * The order of one session's events at its app: the chain of first automatic attempts.
 * Rules:
 * - the first automatic attempt of an event waits while an earlier event of the same
 *   verification to the same app has not finished its first attempt (pending, no attempt made);
 *   it stays queued meanwhile, no attempt recorded, and is sent once that one has finished;
 * - only that chain waits: other sessions and other apps are not held up; retries, manual
 *   redeliveries and test events neither wait nor hold anyone up;
 * - the dispatcher's claim passes over a waiting delivery (`waitsForEarlierSql`, evaluated in the
 *   claiming statement, so a delivery and the earlier one it waits for are never claimed
 *   together); the statement that records the earlier one's attempt claims it. The claim is the
 *   only way to an attempt, so this condition is the rule's only form.
 */

/**
 * SQL condition, true while the delivery row `d` (an alias of webhook_deliveries with its
 * `queued_trigger`) is a first automatic attempt that must wait for an earlier event of its chain.
 * `finished`: a relation of delivery ids (`id`) whose first attempt the same statement records,
 * which the statement's snapshot still shows unfinished.
 */
export function waitsForEarlierSql(d: string, finished?: string): string {
  // reads the few deliveries of d's session (webhook_deliveries_verification_id_event_seq_idx,
  // migration 20261128020000). The state test is a CASE, which no index serves: written as plain
  // conditions, a generic plan made while the statistics showed almost no pending delivery probed
  // the (status, next_attempt_at) index instead, reading every pending delivery for each row
  // (0.5 s claims under load).
  return `(${d}.queued_trigger = 'automatic' AND ${d}.attempt_count = 0 AND ${d}.event_seq IS NOT NULL
    AND EXISTS (
      SELECT 1 FROM webhook_deliveries p
       WHERE p.verification_id = ${d}.verification_id AND p.event_seq < ${d}.event_seq
         AND CASE WHEN p.status = 'pending' THEN p.attempt_count = 0 ELSE false END${
           finished ? `\n         AND p.id NOT IN (SELECT id FROM ${finished})` : ""
         }))`;
}
