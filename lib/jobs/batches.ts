/**
 * Bounded deletes for the housekeeping jobs: one statement removes at most `batchSize` rows and
 * commits on its own, repeated until a statement removes fewer; a large backlog never holds long
 * locks or one huge transaction.
 */
export const PURGE_BATCH = 1000;

/** Runs `deleteBatch(limit)` until it deletes fewer than `limit` rows; returns the total. */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  batchSize = PURGE_BATCH,
): Promise<number> {
  if (!(Number.isInteger(batchSize) && batchSize > 0))
    throw new RangeError("batchSize must be a positive integer");
  let deleted = 0;
  for (;;) {
    const count = await deleteBatch(batchSize);
    deleted += count;
    if (count < batchSize) return deleted;
  }
}

export interface TPurgeOptions {
  now?: Date;
  batchSize?: number;
}
