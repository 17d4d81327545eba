/**
 * Writing the apps table (lib/apps/service.ts: create, PATCH, delete, secret rotation), on the
 * data layer (lib/db/kysely.ts). Timestamps are set here (`createdAt` of a new row, `updatedAt`
 * of every change), from this process's clock; a write of a row that is not there says so
 * (false), and the caller answers 404.
 */
import type { App } from "../../db/generated/kysely/types";
import type { Db } from "../../db/kysely";

/** A new app with its starter provider (activated, enabled) and its starter workflow, the default. */
export async function insertApp(
  db: Db,
  values: {
    id: string;
    workspaceId: string;
    environment: App["environment"];
    name: string;
    clientSecretHash: string;
    providerId: string;
    workflow: { id: string; name: string; entryNodeId: string; nodes: unknown };
  },
): Promise<void> {
  const now = new Date();
  // no foreign key on default_workflow_id: the app names its workflow before the row exists
  await db
    .insertInto("apps")
    .values({
      id: values.id,
      workspaceId: values.workspaceId,
      environment: values.environment,
      name: values.name,
      redirectUris: [],
      // new apps require PKCE at the OpenID Provider (the column's default, false, is for older apps)
      pkceRequired: true,
      clientSecretHash: values.clientSecretHash,
      defaultWorkflowId: values.workflow.id,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  await db
    .insertInto("appProviders")
    .values({
      appId: values.id,
      providerId: values.providerId,
      enabled: true,
      status: "activated",
      activatedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  await db
    .insertInto("workflows")
    .values({
      id: values.workflow.id,
      appId: values.id,
      name: values.workflow.name,
      entryNodeId: values.workflow.entryNodeId,
      nodes: JSON.stringify(values.workflow.nodes),
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

/** The columns a PATCH of an app may change. */
export interface TAppChanges {
  name?: string;
  logo?: string | null;
  redirectUris?: string[];
  defaultSuccessRedirectUri?: string | null;
  defaultFailureRedirectUri?: string | null;
  webhookUrl?: string | null;
  webhookEnabled?: boolean;
  webhookRetryAttempts?: number;
  webhookTimeoutSeconds?: number;
  webhookEvents?: string[];
  pkceRequired?: boolean;
  tokenEndpointAuthMethod?: string;
  /** a JWK Set (stored as jsonb, as it was sent) or null */
  jwks?: unknown;
  jwksUri?: string | null;
  requirePushedAuthorizationRequests?: boolean;
  requireDpop?: boolean;
  oidcProfile?: string;
}

/** Writes `changes` to app `clientId` (updatedAt too, even with no change); whether the row was there. */
export async function updateAppRow(db: Db, clientId: string, changes: TAppChanges): Promise<boolean> {
  const { jwks, ...columns } = changes;
  const result = await db
    .updateTable("apps")
    .set({
      ...columns,
      // a JSON document, not a value node-postgres would turn into a PostgreSQL array or record
      ...(jwks === undefined ? {} : { jwks: jwks === null ? null : JSON.stringify(jwks) }),
      updatedAt: new Date(),
    })
    .where("id", "=", clientId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Soft-deletes app `clientId`: its secret dropped, its webhook off; whether the row was there. */
export async function softDeleteAppRow(db: Db, clientId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("apps")
    .set({ deletedAt: at, clientSecretHash: null, webhookEnabled: false, updatedAt: at })
    .where("id", "=", clientId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the custom domain of app `clientId`, if it has one. */
export async function deleteCustomDomainOfApp(db: Db, clientId: string): Promise<void> {
  await db.deleteFrom("customDomains").where("appId", "=", clientId).execute();
}

/** Stores a new client secret hash, rotated at `at`; whether the row was there. */
export async function setClientSecretHash(
  db: Db,
  clientId: string,
  hash: string,
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable("apps")
    .set({ clientSecretHash: hash, clientSecretRotatedAt: at, updatedAt: at })
    .where("id", "=", clientId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes (at `at`) the app's OpenID Provider access tokens still valid then: how many. */
export async function revokeAppAccessTokens(db: Db, clientId: string, at: Date): Promise<number> {
  const result = await db
    .updateTable("oidcAccessTokens")
    .set({ revokedAt: at })
    .where("appId", "=", clientId)
    .where("revokedAt", "is", null)
    .where("expiresAt", ">", at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
