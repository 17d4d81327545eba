import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { countRows } from "@/lib/db/kysely";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";

const PNG_1X1 =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const appRow = (id: string) =>
  kysely().selectFrom("apps").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const countApps = (workspaceId: string) =>
  countRows(kysely().selectFrom("apps").where("workspaceId", "=", workspaceId));

describe("POST /v1/apps", () => {
  it("creates an app with defaults, a one-time secret, a Location header and the starter workflow", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox), body: {} });
    expect(res.status).toBe(201);
    const app = res.body;
    expect(app.clientId).toMatch(/^app_[0-9A-Z]{26}$/);
    expect(app.clientSecret).toMatch(/^cs_test_[A-Za-z0-9]{43}$/);
    expect(app.name).toBe("My App");
    expect(app.redirectUris).toEqual([]);
    expect(app.organizationId).toBe(ws.workspaceId);
    expect(app.providers).toEqual({ passport: { enabled: true } });
    expect(app.webhookConfig).toMatchObject({ enabled: false, url: null, events: [] });
    expect(app.webhookConfig.secret).toBeUndefined();
    expect(res.headers.get("location")).toBe(`/api/sandbox/v1/apps/${app.clientId}`);
    expect(app.defaultWorkflowId).toMatch(/^wf_/);
    expect(app.workflows).toHaveLength(1);
    const wf = app.workflows[0];
    expect(wf.workflowId).toBe(app.defaultWorkflowId);
    expect(wf.entryNodeId).toBe("request");
    const verification = wf.nodes.find((n: { type: string }) => n.type === "verification");
    expect(verification.config.providers).toEqual({ passport: { enabled: true } });
    expect(verification.config.branding.useAppBranding).toBe(true);

    // the secret is stored hashed only, and never returned again
    const row = await appRow(app.clientId);
    expect(row.clientSecretHash).not.toContain(app.clientSecret);
    const again = await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(again.status).toBe(200);
    expect(again.body.clientSecret).toBeUndefined();
    expect(again.text).not.toContain(app.clientSecret);

    // the audit trail records the creation
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("targetId", "=", app.clientId)
      .where("action", "=", "app.created")
      .executeTakeFirst();
    expect(audit?.workspaceId).toBe(ws.workspaceId);
  });

  it("uses the given name and creates production apps with production secrets", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/production/v1/apps", {
      headers: bearer(ws.keys.production),
      body: { name: "  Shop  " },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Shop");
    expect(res.body.environment).toBe("production");
    expect(res.body.clientSecret).toMatch(/^cs_prod_/);
  });

  it("accepts no body at all", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("My App");
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "   " }, "name"],
    [{ name: 42 }, "name"],
    [{ name: "x".repeat(101) }, "name"],
    [{ name: "ok", color: "red" }, "color"],
  ])("refuses %j naming the field", async (body, field) => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox), body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(res.body.error.requestId).toMatch(/^req_/);
    expect(await countApps(ws.workspaceId)).toBe(0);
  });

  it("refuses malformed JSON, other content types and bodies over 1 MB without writing anything", async () => {
    const ws = await makeWorkspace();
    const headers = bearer(ws.keys.sandbox);
    const malformed = await call("POST", "/api/sandbox/v1/apps", {
      headers: { ...headers, "content-type": "application/json" },
      rawBody: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("INVALID_JSON");
    const form = await call("POST", "/api/sandbox/v1/apps", {
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      rawBody: "name=x",
    });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const huge = await call("POST", "/api/sandbox/v1/apps", {
      headers: { ...headers, "content-type": "application/json" },
      rawBody: JSON.stringify({ name: "x".repeat(1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    const array = await call("POST", "/api/sandbox/v1/apps", { headers, body: ["x"] });
    expect(array.status).toBe(400);
    expect(await countApps(ws.workspaceId)).toBe(0);
  });
});

describe("GET /v1/apps", () => {
  it("paginates newest first with total and hasMore", async () => {
    const ws = await makeWorkspace();
    const key = ws.keys.sandbox;
    const created = [];
    for (const name of ["a", "b", "c"]) created.push(await makeApp(key, "sandbox", name));
    await makeApp(ws.keys.production, "production", "prod-only");

    const page1 = await call("GET", "/api/sandbox/v1/apps?limit=2&offset=0", { headers: bearer(key) });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ total: 3, limit: 2, offset: 0, hasMore: true });
    expect(page1.body.data.map((a: { name: string }) => a.name)).toEqual(["c", "b"]);
    expect(page1.body.data[0].clientSecret).toBeUndefined();

    const page2 = await call("GET", "/api/sandbox/v1/apps?limit=2&offset=2", { headers: bearer(key) });
    expect(page2.body).toMatchObject({ total: 3, limit: 2, offset: 2, hasMore: false });
    expect(page2.body.data.map((a: { name: string }) => a.name)).toEqual(["a"]);

    const beyond = await call("GET", "/api/sandbox/v1/apps?limit=100&offset=50", { headers: bearer(key) });
    expect(beyond.body).toMatchObject({ data: [], total: 3, hasMore: false });

    const defaults = await call("GET", "/api/sandbox/v1/apps", { headers: bearer(key) });
    expect(defaults.body).toMatchObject({ limit: 20, offset: 0, total: 3 });
  });

  it.each(["limit=0", "limit=101", "limit=abc", "offset=-1", "limit=1.5"])("refuses %s", async (qs) => {
    const ws = await makeWorkspace();
    const res = await call("GET", `/api/sandbox/v1/apps?${qs}`, { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details[0].path).toBe(qs.split("=")[0]);
  });

  it("lists only the caller's workspace and environment", async () => {
    const a = await makeWorkspace();
    const b = await makeWorkspace();
    await makeApp(a.keys.sandbox);
    const res = await call("GET", "/api/sandbox/v1/apps", { headers: bearer(b.keys.sandbox) });
    expect(res.body.total).toBe(0);
  });
});

describe("POST /v1/apps/batch", () => {
  it("creates all apps with their secrets", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps/batch", {
      headers: bearer(ws.keys.sandbox),
      body: { apps: [{ name: "one" }, {}, { name: "three" }] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.map((a: { name: string }) => a.name)).toEqual(["one", "My App", "three"]);
    for (const app of res.body.data) expect(app.clientSecret).toMatch(/^cs_test_/);
    expect(await countApps(ws.workspaceId)).toBe(3);
  });

  it("is all-or-nothing", async () => {
    const ws = await makeWorkspace();
    const res = await call("POST", "/api/sandbox/v1/apps/batch", {
      headers: bearer(ws.keys.sandbox),
      body: { apps: [{ name: "fine" }, { name: "" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("apps[1].name");
    expect(await countApps(ws.workspaceId)).toBe(0);
  });

  it.each([[{ apps: [] }], [{ apps: Array.from({ length: 51 }, () => ({})) }], [{}], [{ apps: "x" }]])(
    "refuses %#",
    async (body) => {
      const ws = await makeWorkspace();
      const res = await call("POST", "/api/sandbox/v1/apps/batch", {
        headers: bearer(ws.keys.sandbox),
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe("apps");
    },
  );
});

describe("GET /v1/apps/{client_id}", () => {
  it("returns 404 for unknown apps and 403 for another workspace's app", async () => {
    const owner = await makeWorkspace();
    const other = await makeWorkspace();
    const app = await makeApp(owner.keys.sandbox);
    const missing = await call("GET", "/api/sandbox/v1/apps/app_01HZZZZZZZZZZZZZZZZZZZZZZZ", {
      headers: bearer(owner.keys.sandbox),
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const forbidden = await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(other.keys.sandbox),
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("RESOURCE_FORBIDDEN");
  });

  it("does not cross environments: a sandbox app is not found with the production key", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call("GET", `/api/production/v1/apps/${app.clientId}`, {
      headers: bearer(ws.keys.production),
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
  });
});

describe("PATCH /v1/apps/{client_id}", () => {
  async function setup() {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const patch = (body: unknown, env = "sandbox", key = ws.keys.sandbox) =>
      call("PATCH", `/api/${env}/v1/apps/${app.clientId}`, { headers: bearer(key), body });
    return { ws, app, patch };
  }

  it("updates name, logo, redirect URIs and default redirects", async () => {
    const { patch } = await setup();
    const res = await patch({
      name: "Renamed",
      logo: PNG_1X1,
      redirectUris: ["https://shop.example.com/cb", "http://localhost:3000/cb", "com.example.app:/oauth"],
      defaultSuccessRedirectUri: "https://shop.example.com/done",
      defaultFailureRedirectUri: "https://shop.example.com/failed",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Renamed",
      logo: PNG_1X1,
      redirectUris: ["https://shop.example.com/cb", "http://localhost:3000/cb", "com.example.app:/oauth"],
      defaultSuccessRedirectUri: "https://shop.example.com/done",
      defaultFailureRedirectUri: "https://shop.example.com/failed",
    });
    // redirectUris replace the whole list; empty array clears; "" removes the logo
    const replaced = await patch({ redirectUris: ["https://new.example.com/cb"] });
    expect(replaced.body.redirectUris).toEqual(["https://new.example.com/cb"]);
    const cleared = await patch({ redirectUris: [], logo: "" });
    expect(cleared.body.redirectUris).toEqual([]);
    expect(cleared.body.logo).toBeNull();
    expect(cleared.body.name).toBe("Renamed");
  });

  it("merges webhookConfig and refuses to set its secret", async () => {
    const { patch } = await setup();
    const first = await patch({
      webhookConfig: { url: "https://hooks.example.com/idv", events: ["verification.completed"] },
    });
    expect(first.status).toBe(200);
    expect(first.body.webhookConfig).toMatchObject({
      url: "https://hooks.example.com/idv",
      enabled: false,
      retryAttempts: 3,
      timeoutSeconds: 10,
      events: ["verification.completed"],
    });
    const second = await patch({ webhookConfig: { enabled: true, retryAttempts: 5 } });
    expect(second.body.webhookConfig).toMatchObject({
      url: "https://hooks.example.com/idv",
      enabled: true,
      retryAttempts: 5,
      events: ["verification.completed"],
    });
    const secret = await patch({ webhookConfig: { secret: "whsec_mine" } });
    expect(secret.status).toBe(400);
    expect(secret.body.error.code).toBe("VALIDATION_INVALID_PARAMETER");
    expect(secret.body.error.details[0].path).toBe("webhookConfig.secret");
    const badEvent = await patch({ webhookConfig: { events: ["verification.exploded"] } });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.error.details[0].path).toBe("webhookConfig.events[0]");
    const enabledWithoutUrl = await patch({ webhookConfig: { url: null } });
    expect(enabledWithoutUrl.status).toBe(400);
    expect(enabledWithoutUrl.body.error.details[0].path).toBe("webhookConfig.url");
  });

  it.each([
    [{ clientId: "app_x" }, "clientId", "VALIDATION_INVALID_PARAMETER"],
    [{ clientSecret: "cs_test_x" }, "clientSecret", "VALIDATION_INVALID_PARAMETER"],
    [{ logo: "https://example.com/logo.png" }, "logo", "VALIDATION_ERROR"],
    [{ logo: "data:image/svg+xml;base64,PHN2Zy8+" }, "logo", "VALIDATION_ERROR"],
    [{ logo: "data:image/png;base64,R0lGODlhAQABAAAAACw=" }, "logo", "VALIDATION_ERROR"],
    [{ redirectUris: ["/relative"] }, "redirectUris[0]", "VALIDATION_ERROR"],
    [
      { redirectUris: ["https://ok.example.com/cb", "https://x.example.com/cb#frag"] },
      "redirectUris[1]",
      "VALIDATION_ERROR",
    ],
    [{ redirectUris: ["javascript:alert(1)"] }, "redirectUris[0]", "VALIDATION_ERROR"],
    [{ redirectUris: "https://x.example.com" }, "redirectUris", "VALIDATION_ERROR"],
    [{ defaultSuccessRedirectUri: "not a uri" }, "defaultSuccessRedirectUri", "VALIDATION_ERROR"],
    [{ name: "" }, "name", "VALIDATION_ERROR"],
    [{ webhookConfig: { url: "ftp://x.example.com" } }, "webhookConfig.url", "VALIDATION_ERROR"],
    [{ webhookConfig: { timeoutSeconds: "10" } }, "webhookConfig.timeoutSeconds", "VALIDATION_ERROR"],
    [{ webhookConfig: { unknown: true } }, "webhookConfig.unknown", "VALIDATION_ERROR"],
    [{ workflows: [] }, "workflows", "VALIDATION_ERROR"],
  ])("refuses %j and changes nothing", async (body, path, code) => {
    const { app, patch } = await setup();
    const before = await appRow(app.clientId);
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details[0].path).toBe(path);
    const after = await appRow(app.clientId);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("requires https redirect URIs in production except for localhost", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.production, "production");
    const url = `/api/production/v1/apps/${app.clientId}`;
    const http = await call("PATCH", url, {
      headers: bearer(ws.keys.production),
      body: { redirectUris: ["http://shop.example.com/cb"] },
    });
    expect(http.status).toBe(400);
    const local = await call("PATCH", url, {
      headers: bearer(ws.keys.production),
      body: { redirectUris: ["http://127.0.0.1:8080/cb"] },
    });
    expect(local.status).toBe(200);
  });

  it("returns 403 for another workspace and 404 for a deleted app", async () => {
    const { app, patch, ws } = await setup();
    const other = await makeWorkspace();
    expect((await patch({ name: "x" }, "sandbox", other.keys.sandbox)).status).toBe(403);
    await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.sandbox) });
    const gone = await patch({ name: "x" });
    expect(gone.status).toBe(404);
  });
});

describe("DELETE /v1/apps/{client_id}", () => {
  it("deletes the app; it disappears and its credentials stop working", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const creds = basic(app.clientId, app.clientSecret);
    expect((await call("GET", "/api/sandbox/v1/providers", { headers: creds })).status).toBe(200);

    const res = await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });

    expect(
      (await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.sandbox) }))
        .status,
    ).toBe(404);
    expect(
      (await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.sandbox) }))
        .status,
    ).toBe(404);
    const list = await call("GET", "/api/sandbox/v1/apps", { headers: bearer(ws.keys.sandbox) });
    expect(list.body.total).toBe(0);
    const workspace = await call("GET", "/api/sandbox/v1/workspace", { headers: bearer(ws.keys.sandbox) });
    expect(workspace.body.appCount).toBe(0);
    const appApi = await call("GET", "/api/sandbox/v1/providers", { headers: creds });
    expect(appApi.status).toBe(401);
    expect(appApi.body.error.code).toBe("INVALID_CLIENT_CREDENTIALS");
  });

  it("is forbidden for another workspace and leaves the app in place", async () => {
    const ws = await makeWorkspace();
    const other = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call("DELETE", `/api/sandbox/v1/apps/${app.clientId}`, {
      headers: bearer(other.keys.sandbox),
    });
    expect(res.status).toBe(403);
    expect(
      (await call("GET", `/api/sandbox/v1/apps/${app.clientId}`, { headers: bearer(ws.keys.sandbox) }))
        .status,
    ).toBe(200);
  });
});

describe("POST /v1/apps/{client_id}/rotate-client-secret", () => {
  it("returns a new secret once; the old one stops working", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call("POST", `/api/sandbox/v1/apps/${app.clientId}/rotate-client-secret`, {
      headers: bearer(ws.keys.sandbox),
    });
    expect(res.status).toBe(200);
    expect(res.body.clientId).toBe(app.clientId);
    expect(res.body.clientSecret).toMatch(/^cs_test_/);
    expect(res.body.clientSecret).not.toBe(app.clientSecret);
    const old = await call("GET", "/api/sandbox/v1/providers", {
      headers: basic(app.clientId, app.clientSecret),
    });
    expect(old.status).toBe(401);
    const fresh = await call("GET", "/api/sandbox/v1/providers", {
      headers: basic(app.clientId, res.body.clientSecret),
    });
    expect(fresh.status).toBe(200);
  });

  it("refuses a body, another workspace and unknown apps", async () => {
    const ws = await makeWorkspace();
    const other = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const url = `/api/sandbox/v1/apps/${app.clientId}/rotate-client-secret`;
    expect(
      (await call("POST", url, { headers: bearer(ws.keys.sandbox), body: { clientSecret: "mine" } })).status,
    ).toBe(400);
    expect((await call("POST", url, { headers: bearer(other.keys.sandbox) })).status).toBe(403);
    expect(
      (
        await call("POST", "/api/sandbox/v1/apps/app_nope/rotate-client-secret", {
          headers: bearer(ws.keys.sandbox),
        })
      ).status,
    ).toBe(404);
    // the refused attempts did not rotate anything
    expect(
      (await call("GET", "/api/sandbox/v1/providers", { headers: basic(app.clientId, app.clientSecret) }))
        .status,
    ).toBe(200);
  });
});

describe("environments never cross", () => {
  it.each([
    ["GET", ""],
    ["PATCH", ""],
    ["DELETE", ""],
    ["POST", "/rotate-client-secret"],
  ])("%s on a sandbox app through the production API is 404 and changes nothing", async (method, suffix) => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call(method, `/api/production/v1/apps/${app.clientId}${suffix}`, {
      headers: bearer(ws.keys.production),
      body: method === "PATCH" ? { name: "changed" } : undefined,
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("RESOURCE_NOT_FOUND");
    const row = await appRow(app.clientId);
    expect(row.name).toBe("Test app");
    expect(row.deletedAt).toBeNull();
    expect(
      (await call("GET", "/api/sandbox/v1/providers", { headers: basic(app.clientId, app.clientSecret) }))
        .status,
    ).toBe(200);
  });
});
