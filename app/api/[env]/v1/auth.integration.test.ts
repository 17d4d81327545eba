import { describe, expect, it } from "vitest";
import { kysely } from "@/lib/db/client";
import { makeApp, makeWorkspace } from "@/lib/testing/factories";
import { basic, bearer, call } from "@/lib/testing/router";

describe("Workspace API authentication", () => {
  it.each([
    ["no header", {}],
    ["an empty header", { authorization: "" }],
    ["a malformed header", { authorization: "Bearer" }],
    ["an unknown scheme", { authorization: "Token abc" }],
    ["an unknown key", { authorization: `Bearer sk_workspace_test_${"a".repeat(40)}` }],
    ["a key of the wrong shape", { authorization: "Bearer sk_workspace_test_short" }],
    ["Basic credentials", { authorization: `Basic ${Buffer.from("app_x:cs_test_y").toString("base64")}` }],
  ])("refuses %s with 401 INVALID_API_KEY", async (_label, headers) => {
    const res = await call("GET", "/api/sandbox/v1/apps", { headers });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("INVALID_API_KEY");
    expect(res.body.error.message).toBeTruthy();
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("refuses real app credentials on the Workspace API", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call("GET", "/api/sandbox/v1/workspace", {
      headers: basic(app.clientId, app.clientSecret),
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("INVALID_API_KEY");
  });

  it("binds keys to their environment", async () => {
    const ws = await makeWorkspace();
    const prodOnSandbox = await call("GET", "/api/sandbox/v1/workspace", {
      headers: bearer(ws.keys.production),
    });
    expect(prodOnSandbox.status).toBe(401);
    expect(prodOnSandbox.body.error.code).toBe("INVALID_API_KEY");
    const sandboxOnProd = await call("GET", "/api/production/v1/workspace", {
      headers: bearer(ws.keys.sandbox),
    });
    expect(sandboxOnProd.status).toBe(401);
    expect(
      (await call("GET", "/api/production/v1/workspace", { headers: bearer(ws.keys.production) })).status,
    ).toBe(200);
  });

  it("stops accepting a revoked key", async () => {
    const ws = await makeWorkspace();
    await kysely()
      .updateTable("apiKeys")
      .set({ revokedAt: new Date() })
      .where("workspaceId", "=", ws.workspaceId)
      .where("environment", "=", "sandbox")
      .execute();
    const res = await call("GET", "/api/sandbox/v1/workspace", { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(401);
  });

  it("stores keys hashed", async () => {
    const ws = await makeWorkspace();
    const rows = await kysely()
      .selectFrom("apiKeys")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
      expect([ws.keys.sandbox, ws.keys.production]).not.toContain(row.keyHash);
    }
  });

  it("answers unknown environments and unknown routes with a 404 envelope", async () => {
    const ws = await makeWorkspace();
    const env = await call("GET", "/api/staging/v1/apps", { headers: bearer(ws.keys.sandbox) });
    expect(env.status).toBe(404);
    expect(env.body.error.code).toBe("ROUTE_NOT_FOUND");
    const route = await call("GET", "/api/sandbox/v1/nothing-here", { headers: bearer(ws.keys.sandbox) });
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe("ROUTE_NOT_FOUND");
  });
});

describe("App API authentication", () => {
  it("accepts the app's Basic credentials", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call("GET", "/api/sandbox/v1/providers", {
      headers: basic(app.clientId, app.clientSecret),
    });
    expect(res.status).toBe(200);
    expect(res.body.find((p: { id: string }) => p.id === "passport")).toMatchObject({ status: "activated" });
  });

  it("refuses a Bearer token with the spec's message", async () => {
    const ws = await makeWorkspace();
    const res = await call("GET", "/api/sandbox/v1/providers", { headers: bearer(ws.keys.sandbox) });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("Invalid authorization scheme. Use Basic authentication");
    expect(res.body.error.code).toBe("INVALID_AUTHORIZATION_SCHEME");
    expect(res.headers.get("www-authenticate")).toContain("Basic");
  });

  it.each([
    ["no header", () => ({})],
    ["a wrong secret", (id: string) => basic(id, `cs_test_${"x".repeat(43)}`)],
    ["an unknown client", () => basic("app_unknown", `cs_test_${"x".repeat(43)}`)],
    ["a malformed Basic value", () => ({ authorization: "Basic !!!" })],
  ])("refuses %s with 401", async (_label, headers) => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call("GET", "/api/sandbox/v1/providers", { headers: headers(app.clientId) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("INVALID_CLIENT_CREDENTIALS");
  });

  it("does not accept sandbox app credentials on the production API", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const res = await call("GET", "/api/production/v1/providers", {
      headers: basic(app.clientId, app.clientSecret),
    });
    expect(res.status).toBe(401);
  });

  it("validates the status filter", async () => {
    const ws = await makeWorkspace();
    const app = await makeApp(ws.keys.sandbox);
    const creds = basic(app.clientId, app.clientSecret);
    const activated = await call("GET", "/api/sandbox/v1/providers?status=activated", { headers: creds });
    expect(activated.body.map((p: { id: string }) => p.id)).toEqual(["passport"]);
    const bad = await call("GET", "/api/sandbox/v1/providers?status=enabled", { headers: creds });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("status");
  });
});

describe("GET /v1/workspace", () => {
  it("returns the workspace with the app count of the key's environment", async () => {
    const ws = await makeWorkspace("Acme");
    await makeApp(ws.keys.sandbox);
    await makeApp(ws.keys.sandbox);
    await makeApp(ws.keys.production, "production");
    const sandbox = await call("GET", "/api/sandbox/v1/workspace", { headers: bearer(ws.keys.sandbox) });
    expect(sandbox.status).toBe(200);
    expect(sandbox.body).toMatchObject({
      workspaceId: ws.workspaceId,
      name: "Acme",
      environment: "sandbox",
      appCount: 2,
    });
    const production = await call("GET", "/api/production/v1/workspace", {
      headers: bearer(ws.keys.production),
    });
    expect(production.body).toMatchObject({ environment: "production", appCount: 1 });
  });
});
