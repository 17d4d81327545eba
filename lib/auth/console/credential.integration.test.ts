import { describe, expect, it } from "vitest";
import { publicUrl } from "../../config";
import { kysely } from "../../db/client";
import { addMember, makeWorkspace, sessionHeaders } from "../../testing/factories";
import { call } from "../../testing/router";

describe("console session as a workspace credential", () => {
  it("reads and writes with a session cookie, in the environment of the URL", async () => {
    const ws = await makeWorkspace();
    const headers = await sessionHeaders(ws.userId);
    const created = await call("POST", "/api/sandbox/v1/apps", {
      headers,
      body: { name: "From the console" },
    });
    expect(created.status).toBe(201);
    const sandbox = await call("GET", "/api/sandbox/v1/apps?limit=10&offset=0", { headers });
    expect(sandbox.status).toBe(200);
    expect(sandbox.body.data.map((a: { name: string }) => a.name)).toEqual(["From the console"]);
    const production = await call("GET", "/api/production/v1/apps?limit=10&offset=0", { headers });
    expect(production.body.data).toEqual([]);
    const audit = await kysely()
      .selectFrom("auditEvents")
      .selectAll()
      .where("workspaceId", "=", ws.workspaceId)
      .where("action", "=", "app.created")
      .executeTakeFirst();
    expect(audit).toMatchObject({ actorType: "user", actorId: ws.userId });
  });

  it("refuses cookie-authenticated writes without Origin or from another origin (CSRF)", async () => {
    const ws = await makeWorkspace();
    const missing = await call("POST", "/api/sandbox/v1/apps", {
      headers: await sessionHeaders(ws.userId, { origin: null }),
      body: { name: "x" },
    });
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    const foreign = await call("POST", "/api/sandbox/v1/apps", {
      headers: await sessionHeaders(ws.userId, { origin: "https://evil.example" }),
      body: { name: "x" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    const list = await call("GET", "/api/sandbox/v1/apps?limit=10&offset=0", {
      headers: await sessionHeaders(ws.userId, { origin: null }),
    });
    expect(list.body.total).toBe(0);
  });

  it("compares the Origin with PUBLIC_URL's only: neither another name of the service nor a forged Host", async () => {
    const ws = await makeWorkspace();
    const own = new URL(publicUrl()).origin; // http://localhost:3000 under the tests
    const other = own.replace("localhost", "127.0.0.1");
    const cases = [
      // the same service under another name: its Host agrees with the Origin, PUBLIC_URL does not
      { origin: other, host: new URL(other).host },
      // an attacker's page sending a Host header equal to its own Origin
      { origin: "https://evil.example", host: "evil.example" },
    ];
    for (const { origin, host } of cases) {
      const res = await call("POST", "/api/sandbox/v1/apps", {
        headers: { ...(await sessionHeaders(ws.userId, { origin })), host },
        body: { name: "x" },
      });
      expect(res.status, origin).toBe(403);
      expect(res.body.error.code).toBe("CSRF_ORIGIN_MISMATCH");
    }
    const allowed = await call("POST", "/api/sandbox/v1/apps", {
      headers: await sessionHeaders(ws.userId, { origin: own }),
      body: { name: "Mine" },
    });
    expect(allowed.status).toBe(201);
  });

  it("refuses a forged or stale cookie and a non-member", async () => {
    const ws = await makeWorkspace();
    const forged = await call("GET", "/api/sandbox/v1/workspace", {
      headers: { cookie: "idv.session=not-a-jwt" },
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("INVALID_SESSION");
    const other = await makeWorkspace();
    const notMember = await call("GET", "/api/sandbox/v1/workspace", {
      headers: await sessionHeaders(ws.userId, { workspaceId: other.workspaceId }),
    });
    expect(notMember.status).toBe(403);
    await kysely()
      .updateTable("users")
      .set({ sessionsValidFrom: new Date(Date.now() + 5000), updatedAt: new Date() })
      .where("id", "=", ws.userId)
      .execute();
    const stale = await call("GET", "/api/sandbox/v1/workspace", {
      headers: await sessionHeaders(ws.userId),
    });
    expect(stale.status).toBe(401);
  });

  it("enforces roles: a viewer reads only, a developer holds no production credentials", async () => {
    const ws = await makeWorkspace();
    const viewer = await addMember(ws.workspaceId, "viewer");
    const vh = await sessionHeaders(viewer.userId);
    expect((await call("GET", "/api/sandbox/v1/apps?limit=5&offset=0", { headers: vh })).status).toBe(200);
    const refused = await call("POST", "/api/sandbox/v1/apps", { headers: vh, body: { name: "x" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("RESOURCE_FORBIDDEN");

    const dev = await addMember(ws.workspaceId, "developer");
    const dh = await sessionHeaders(dev.userId);
    const sandboxApp = await call("POST", "/api/sandbox/v1/apps", { headers: dh, body: { name: "s" } });
    expect(sandboxApp.status).toBe(201);
    const rotateSandbox = await call(
      "POST",
      `/api/sandbox/v1/apps/${sandboxApp.body.clientId}/rotate-client-secret`,
      {
        headers: dh,
      },
    );
    expect(rotateSandbox.status).toBe(200);
    const prodApp = await call("POST", "/api/production/v1/apps", { headers: dh, body: { name: "p" } });
    expect(prodApp.status).toBe(201);
    const rotateProd = await call(
      "POST",
      `/api/production/v1/apps/${prodApp.body.clientId}/rotate-client-secret`,
      {
        headers: dh,
      },
    );
    expect(rotateProd.status).toBe(403);
  });
});
