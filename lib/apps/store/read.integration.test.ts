/**
 * getOwnedApp reads an app with its providers and workflows in one prepared statement
 * (lib/apps/store/read.ts `readApp`), exactly the rows each table holds — every column, JSON
 * documents with their keys as stored, timestamps to the millisecond — in the caller's
 * transaction when it runs in one; GET /v1/apps/{clientId} reads only what it shows (`readAppView`),
 * with the same 404 and 403.
 */
import { describe, expect, it } from "vitest";
import { kysely } from "../../db/client";
import { newId } from "../../ids";
import { refusalOf } from "../../testing/api-error";
import { makeWorkspace, sessionHeaders } from "../../testing/factories";
import { bearer, call } from "../../testing/router";
import { statementsOf } from "../../testing/statements";
import { addAppProvider, createWorkflow, makeWorkflowsApp, workflowBody } from "../../testing/workflows";
import { toAppJson } from "../serialize";
import { getOwnedApp, getOwnedAppView } from "../service";

const PNG_1X1 =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/**
 * The app as its tables hold it, each read on its own with all its columns (not aggregated as
 * JSON as readApp does), relations in key order.
 */
async function storedApp(clientId: string) {
  const db = kysely();
  const app = await db.selectFrom("apps").selectAll().where("id", "=", clientId).executeTakeFirstOrThrow();
  const providers = await db
    .selectFrom("appProviders")
    .selectAll()
    .where("appId", "=", clientId)
    .orderBy("providerId")
    .execute();
  const workflows = await db
    .selectFrom("workflows")
    .selectAll()
    .where("appId", "=", clientId)
    .orderBy("id")
    .execute();
  return { ...app, providers, workflows };
}

describe("getOwnedApp on the data layer", () => {
  it("reads every column of the app, its providers and its workflows as stored, JSON keys as stored", async () => {
    const { ws, app } = await makeWorkflowsApp();
    await addAppProvider(app.clientId, "de_eid", { enabled: false });
    // another app's workflow is not this app's
    const other = await makeWorkflowsApp();
    await createWorkflow(other.key, other.app.clientId, workflowBody({ name: "elsewhere" }));
    // JSON documents whose keys a camelCase mapping of result rows would rename
    const snake = { legal_name: "Shop B.V.", vat_id: "NL0001", nested_list: [{ min_loa: 2 }] };
    const db = kysely();
    await db
      .updateTable("apps")
      .set({
        companyInfo: JSON.stringify(snake),
        clientSecretRotatedAt: new Date("2026-03-08T06:30:00.123Z"),
        updatedAt: new Date(),
      })
      .where("id", "=", app.clientId)
      .execute();
    await db
      .updateTable("appProviders")
      .set({ config: JSON.stringify({ accepted_values: { min_loa: 3 } }), updatedAt: new Date() })
      .where("appId", "=", app.clientId)
      .where("providerId", "=", "de_eid")
      .execute();
    const workflow = await db
      .updateTable("workflows")
      .set({ positions: JSON.stringify({ start_node: { x: 1.5, y: -2 } }), updatedAt: new Date() })
      .where("appId", "=", app.clientId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const auth = { workspaceId: ws.workspaceId, environment: "sandbox" as const };

    const read = await getOwnedApp(kysely(), auth, app.clientId);
    const expected = await storedApp(app.clientId);
    expect(read).toEqual(expected);
    expect(read.companyInfo).toEqual(snake);
    expect(read.providers.map((p) => p.providerId)).toEqual(["de_eid", "passport"]);
    expect(read.providers[0]!.config).toEqual({ accepted_values: { min_loa: 3 } });
    expect(read.workflows[0]!.positions).toEqual({ start_node: { x: 1.5, y: -2 } });
    expect(read.clientSecretRotatedAt).toEqual(new Date("2026-03-08T06:30:00.123Z"));
    expect(read.workflows[0]!.createdAt).toEqual(workflow.createdAt);
  });

  it("reads in the caller's transaction: its uncommitted writes, and nothing once rolled back", async () => {
    const { ws, app } = await makeWorkflowsApp();
    const auth = { workspaceId: ws.workspaceId, environment: "sandbox" as const };
    const rollback = new Error("roll back");
    const seen = await kysely()
      .transaction()
      .execute(async (tx) => {
        await tx.updateTable("apps").set({ name: "Uncommitted" }).where("id", "=", app.clientId).execute();
        await tx
          .insertInto("appProviders")
          .values({ appId: app.clientId, providerId: "nl_digid", updatedAt: new Date() })
          .execute();
        const inside = await getOwnedApp(tx, auth, app.clientId);
        expect(inside.name).toBe("Uncommitted");
        expect(inside.providers.map((p) => p.providerId)).toEqual(["nl_digid", "passport"]);
        throw rollback;
      })
      .catch((err: unknown) => err);
    expect(seen).toBe(rollback);
    const after = await getOwnedApp(kysely(), auth, app.clientId);
    expect(after.name).not.toBe("Uncommitted");
    expect(after.providers.map((p) => p.providerId)).toEqual(["passport"]);
  });

  it("answers GET /v1/apps/{clientId} in one statement: providers, workflows, webhook configuration, redirects, logo", async () => {
    const { ws, app, key, base } = await makeWorkflowsApp();
    await addAppProvider(app.clientId, "de_eid", { enabled: false });
    await addAppProvider(app.clientId, "nl_digid");
    await createWorkflow(
      key,
      app.clientId,
      workflowBody({ name: "Second", positions: { start: { x: 1.5, y: -2 } } }),
    );
    await createWorkflow(key, app.clientId, workflowBody({ name: "Ünïcode ’third’" }));
    const patched = await call("PATCH", base, {
      headers: bearer(key),
      body: {
        name: "Shop \"quoted\" 'name'",
        logo: PNG_1X1,
        redirectUris: ["https://shop.example.com/cb", "com.example.app:/oauth"],
        defaultSuccessRedirectUri: "https://shop.example.com/done",
        defaultFailureRedirectUri: "https://shop.example.com/failed",
        pkceRequired: false,
        webhookConfig: {
          url: "https://hooks.example.com/idv",
          enabled: true,
          retryAttempts: 5,
          timeoutSeconds: 7,
          events: ["verification.completed", "verification.workflow.cancelled"],
        },
      },
    });
    expect(patched.status).toBe(200);
    const auth = { workspaceId: ws.workspaceId, environment: "sandbox" as const };

    const read = toAppJson(await getOwnedApp(kysely(), auth, app.clientId));
    expect(read).toEqual(toAppJson(await storedApp(app.clientId)));
    expect(read.workflows).toHaveLength(3);
    expect(Object.keys(read.providers)).toEqual(["de_eid", "nl_digid", "passport"]);
    expect(read.webhookConfig.events).toEqual(["verification.completed", "verification.workflow.cancelled"]);
    // and the route answers it, reading the app in one statement
    const { result: res, statements } = await statementsOf(() => call("GET", base, { headers: bearer(key) }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(read);
    // only what it shows (lib/apps/store/read.ts `readAppView`), one statement
    expect(toAppJson(await getOwnedAppView(kysely(), auth, app.clientId))).toEqual(read);
    expect(statements.filter((name) => name.startsWith("app_"))).toEqual(["app_view"]);
  });

  it("refuses unknown, deleted and other-environment apps 404, another workspace's 403", async () => {
    const { ws, app, base } = await makeWorkflowsApp();
    const other = await makeWorkspace();
    const gone = await makeWorkflowsApp();
    expect((await call("DELETE", gone.base, { headers: gone.headers })).status).toBe(200);
    const db = kysely();
    const sandbox = { workspaceId: ws.workspaceId, environment: "sandbox" as const };
    const cases: [{ workspaceId: string; environment: "sandbox" | "production" }, string][] = [
      [sandbox, newId("app")],
      [{ workspaceId: gone.ws.workspaceId, environment: "sandbox" }, gone.app.clientId],
      [{ workspaceId: ws.workspaceId, environment: "production" }, app.clientId],
      [{ workspaceId: other.workspaceId, environment: "sandbox" }, app.clientId],
    ];
    const answers: [number, string, string][] = [];
    for (const [auth, clientId] of cases) {
      answers.push(await refusalOf(getOwnedApp(db, auth, clientId)));
      // the view GET /v1/apps/{clientId} reads answers the same
      expect(await refusalOf(getOwnedAppView(db, auth, clientId))).toEqual(answers.at(-1));
    }
    expect(answers.map(([status, code]) => `${status} ${code}`)).toEqual([
      "404 RESOURCE_NOT_FOUND",
      "404 RESOURCE_NOT_FOUND",
      "404 RESOURCE_NOT_FOUND",
      "403 RESOURCE_FORBIDDEN",
    ]);
    expect((await call("GET", base, { headers: bearer(other.keys.sandbox) })).status).toBe(403);
    expect((await call("GET", gone.base, { headers: gone.headers })).status).toBe(404);
    expect(
      (await call("GET", `/api/production/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.production) }))
        .status,
    ).toBe(404);
  });

  it("words the 403 for who asks: an API key's caller, or a person signed in to the console", async () => {
    const { app, base } = await makeWorkflowsApp();
    const other = await makeWorkspace();
    const asKey = await call("GET", base, { headers: bearer(other.keys.sandbox) });
    expect(asKey.status).toBe(403);
    expect(asKey.body.error.message).toBe(`The API key's workspace does not own app "${app.clientId}"`);

    // the console's member of another workspace holds no API key: the answer speaks of the workspace shown
    const session = await sessionHeaders(other.userId);
    const forConsole = `This app belongs to another workspace: app "${app.clientId}" is not in the workspace you have open`;
    const read = await call("GET", base, { headers: session });
    expect(read.status).toBe(403);
    expect(read.body.error).toMatchObject({ code: "RESOURCE_FORBIDDEN", message: forConsole });
    // writes load the app with getOwnedApp: the same words
    const write = await call("PATCH", base, { headers: session, body: { name: "Not mine" } });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toBe(forConsole);
    expect(JSON.stringify([read.body, write.body])).not.toContain("API key");
  });
});
