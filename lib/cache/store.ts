/**
 * The cache's one statement on the data layer (lib/db/kysely.ts): an invalidation's `pg_notify`,
 * delivered when the transaction of `db` commits (at once on the pool).
 */
import type { Db } from "../db/kysely";

/** Notifies `channel` with `payload` in the transaction of `db`. */
export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await db
    .selectNoFrom((eb) => eb.fn<void>("pg_notify", [eb.val(channel), eb.val(payload)]).as("notified"))
    .execute();
}
