/**
 * readOwnedApp (one prepared statement, lib/db/sql.ts) answers exactly as getOwnedApp (Prisma)
 * did for GET /v1/apps/{clientId}: the same App JSON, the same 404 and 403.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { newId } from "../ids";
import { refusalOf } from "../testing/api-error";
import { makeWorkspace, sessionHeaders } from "../testing/factories";
import { bearer, call } from "../testing/router";
import { addAppProvider, createWorkflow, makeWorkflowsApp, workflowBody } from "../testing/workflows";
import { readOwnedApp } from "./read";
import { toAppJson } from "./serialize";
import { getOwnedApp } from "./service";

const PNG_1X1 =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("readOwnedApp", () => {
  it("reads the same App as getOwnedApp: providers, workflows, webhook configuration, redirects, logo", async () => {
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

    const read = toAppJson(await readOwnedApp(getDb(), auth, app.clientId));
    expect(read).toEqual(toAppJson(await getOwnedApp(getDb(), auth, app.clientId)));
    expect(read.workflows).toHaveLength(3);
    expect(Object.keys(read.providers)).toEqual(["de_eid", "nl_digid", "passport"]);
    expect(read.webhookConfig.events).toEqual(["verification.completed", "verification.workflow.cancelled"]);
    // and the route answers it
    const res = await call("GET", base, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(read);
  });

  it("refuses as getOwnedApp: unknown, deleted and other-environment 404, another workspace's 403", async () => {
    const { ws, app, base } = await makeWorkflowsApp();
    const other = await makeWorkspace();
    const gone = await makeWorkflowsApp();
    expect((await call("DELETE", gone.base, { headers: gone.headers })).status).toBe(200);
    const db = getDb();
    const sandbox = { workspaceId: ws.workspaceId, environment: "sandbox" as const };
    const cases: [{ workspaceId: string; environment: "sandbox" | "production" }, string][] = [
      [sandbox, newId("app")],
      [{ workspaceId: gone.ws.workspaceId, environment: "sandbox" }, gone.app.clientId],
      [{ workspaceId: ws.workspaceId, environment: "production" }, app.clientId],
      [{ workspaceId: other.workspaceId, environment: "sandbox" }, app.clientId],
    ];
    const answers: [number, string, string][] = [];
    for (const [auth, clientId] of cases) {
      const answer = await refusalOf(readOwnedApp(db, auth, clientId));
      expect(answer).toEqual(await refusalOf(getOwnedApp(db, auth, clientId)));
      answers.push(answer);
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
