/**
 * The apps' writes on the data layer (lib/apps/store/writes.ts) as Prisma's model API made them:
 * a new app's rows with the values Prisma's nested create gave (timestamps in UTC, the columns'
 * defaults), written in the caller's transaction (they roll back with it); a write of an
 * app that is not there says so, which the service answers as Prisma's "not found" (P2025) was.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { makeApp, makeWorkspace } from "../../testing/factories";
import type { WorkspaceActor } from "../../auth/actor";
import { createApp } from "../service";
import { setClientSecretHash, softDeleteAppRow, updateAppRow } from "./writes";
import { countRows, inTransaction } from "../../db/kysely";

describe("the apps' writes", () => {
  it("creates an app, its starter provider and workflow with the values Prisma gave them", async () => {
    const ws = await makeWorkspace();
    const before = Date.now();
    const created = await makeApp(ws.keys.sandbox);
    const after = Date.now();
    const db = kysely();
    const app = await db
      .selectFrom("apps")
      .selectAll()
      .where("id", "=", created.clientId)
      .executeTakeFirstOrThrow();
    const providers = await db
      .selectFrom("appProviders")
      .selectAll()
      .where("appId", "=", created.clientId)
      .execute();
    const workflows = await db
      .selectFrom("workflows")
      .selectAll()
      .where("appId", "=", created.clientId)
      .execute();
    expect(app).toMatchObject({
      workspaceId: ws.workspaceId,
      environment: "sandbox",
      name: "Test app",
      redirectUris: [],
      pkceRequired: true,
      webhookEnabled: false,
      webhookRetryAttempts: 3,
      webhookTimeoutSeconds: 10,
      webhookEvents: [],
      companyInfo: {},
      defaultWorkflowId: created.defaultWorkflowId,
      deletedAt: null,
    });
    expect(app.clientSecretHash).toMatch(/^[0-9a-f]{64}$/);
    // written as UTC: read back, the instant of the request
    for (const at of [app.createdAt, app.updatedAt]) {
      expect(at.getTime()).toBeGreaterThanOrEqual(before - 5);
      expect(at.getTime()).toBeLessThanOrEqual(after + 5);
    }
    expect(providers).toEqual([
      expect.objectContaining({ providerId: "passport", enabled: true, status: "activated", config: {} }),
    ]);
    expect(providers[0]!.activatedAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(workflows).toEqual([
      expect.objectContaining({ id: created.defaultWorkflowId, version: 1, positions: {} }),
    ]);
    expect(Array.isArray(workflows[0]!.nodes)).toBe(true);
  });

  it("writes in the caller's transaction: a rollback leaves no app behind", async () => {
    const ws = await makeWorkspace();
    const actor: WorkspaceActor = {
      requestId: "req_test",
      auth: {
        kind: "workspace",
        workspaceId: ws.workspaceId,
        environment: "sandbox",
        role: "owner",
        actor: { type: "user", id: ws.userId, name: ws.email },
      },
    };
    let clientId = "";
    await expect(
      inTransaction(kysely(), async (tx) => {
        clientId = (await createApp(tx, actor, { name: "rolled back" })).clientId;
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(clientId).toMatch(/^app_/);
    const db = kysely();
    expect(await countRows(db.selectFrom("apps").where("id", "=", clientId))).toBe(0);
    expect(await countRows(db.selectFrom("workflows").where("appId", "=", clientId))).toBe(0);
    expect(await countRows(db.selectFrom("appProviders").where("appId", "=", clientId))).toBe(0);
  });

  it("tells a missing app apart (the service answers 404 as Prisma's P2025 was answered)", async () => {
    const ws = await makeWorkspace();
    const { clientId } = await makeApp(ws.keys.sandbox);
    const db = kysely();
    const at = new Date();
    expect(await updateAppRow(db, "app_missing", { name: "x" })).toBe(false);
    expect(await setClientSecretHash(db, "app_missing", "0".repeat(64), at)).toBe(false);
    expect(await softDeleteAppRow(db, "app_missing", at)).toBe(false);
    expect(await updateAppRow(db, clientId, { name: "renamed" })).toBe(true);
    expect(await setClientSecretHash(db, clientId, "0".repeat(64), at)).toBe(true);
    expect(await softDeleteAppRow(db, clientId, at)).toBe(true);
    const row = await db.selectFrom("apps").selectAll().where("id", "=", clientId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: "renamed",
      clientSecretHash: null,
      webhookEnabled: false,
      deletedAt: at,
    });
  });
});
