/**
 * An app's webhook configuration (lib/webhooks/config.ts): its columns of `apps`, on the data
 * layer (lib/db/kysely.ts). `updatedAt` is set here.
 */
import type { Db } from "../../db/kysely";

/** The columns of an app a webhook configuration patch may change. */
export interface TWebhookColumns {
  webhookUrl?: string | null;
  webhookEnabled?: boolean;
  webhookRetryAttempts?: number;
  webhookTimeoutSeconds?: number;
  webhookEvents?: string[];
}

const WEBHOOK_CONFIG = [
  "webhookUrl",
  "webhookEnabled",
  "webhookRetryAttempts",
  "webhookTimeoutSeconds",
  "webhookEvents",
  "webhookSecretEncrypted",
] as const;

/** Writes `columns` to app `appId`: its webhook configuration then, undefined when there is no such app. */
export async function updateWebhookColumns(db: Db, appId: string, columns: TWebhookColumns) {
  return db
    .updateTable("apps")
    .set({ ...columns, updatedAt: new Date() })
    .where("id", "=", appId)
    .returning(WEBHOOK_CONFIG)
    .executeTakeFirst();
}

/** Stores app `appId`'s encrypted signing secret: whether there was such an app. */
export async function setWebhookSecret(db: Db, appId: string, encrypted: string): Promise<boolean> {
  const result = await db
    .updateTable("apps")
    .set({ webhookSecretEncrypted: encrypted, updatedAt: new Date() })
    .where("id", "=", appId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
