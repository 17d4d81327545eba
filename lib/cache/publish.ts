/**
 * Publishing an invalidation: pg_notify in the writer's transaction, after its change.
 * Rules:
 * - PostgreSQL delivers it when that transaction commits and never when it rolls back, to every
 *   instance's listener (listener.ts), this process's included;
 * - this process's caches also drop the entry at once, so a read that follows the commit here
 *   never sees the old value (a read in between may refill it from before the commit: the
 *   notification then drops it again);
 * - given the client instead of a transaction, the notification goes out at once: call it after
 *   the change.
 */
import type { Db } from "../db/client";
import { CACHE_CHANNEL, encodeInvalidation, existingProcessListener } from "./listener";
import { notify } from "./store";
import type { TCacheTopic } from "./topics";

export async function publishInvalidation(tx: Db, topic: TCacheTopic, key?: string): Promise<void> {
  await notify(tx, CACHE_CHANNEL, encodeInvalidation(topic, key));
  existingProcessListener()?.deliver(topic, key);
}
