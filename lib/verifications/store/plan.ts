/**
 * What a running session's plan is computed from again (lib/verifications/wallet.ts: the claims
 * a wallet is asked for), on the data layer (lib/db/kysely.ts): the workflow's current content
 * and the app's providers, two reads the caller runs side by side.
 */
import type { Db } from "../../db/kysely";

/** The current content of workflow `id` (checked by lib/workflows/row.ts); undefined: deleted. */
export async function readWorkflowContent(db: Db, id: string) {
  return db.selectFrom("workflows").select(["entryNodeId", "nodes"]).where("id", "=", id).executeTakeFirst();
}

/** Which providers app `appId` has, switched on or not, and their activation status. */
export async function readAppProviderStates(db: Db, appId: string) {
  return db
    .selectFrom("appProviders")
    .select(["providerId", "enabled", "status"])
    .where("appId", "=", appId)
    .execute();
}
