/** Periodic clean-up tasks. */
import { getDb } from "../db/client";
import { purgeExpiredIdempotencyRecords } from "../idempotency";

export async function purgeIdempotencyRecords(): Promise<void> {
  await purgeExpiredIdempotencyRecords(getDb());
}
